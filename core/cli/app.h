// The neffbar command line as a function: main() calls it, and so does the cli fuzz
// target (fuzz/fuzz_cli.cpp), in process, with std::cin/cout/cerr redirected.
#pragma once

#include "neffbar/model/engines/common/budget.h"

namespace neffbar::cli {

// Parses argv and runs the command.  Returns the exit code (exit.h, Exit); writes only to
// std::cout and std::cerr, reads only std::cin and the files named on the command line.
// `clock`: seconds since the command started, which --max-seconds bounds (every phase
// of check and check-configs reads it); empty: the steady clock from this call.  Tests
// inject one to cut a command at a chosen read.
int run(int argc, char** argv, model::SecondsClock clock = {});

}  // namespace neffbar::cli
