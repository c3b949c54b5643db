// The neffbar command line as a function: main() calls it, and so does the cli fuzz
// target (fuzz/fuzz_cli.cpp), in process, with std::cin/cout/cerr redirected.
#pragma once

namespace neffbar::cli {

// Parses argv and runs the command.  Returns the exit code (io.h, Exit); writes only to
// std::cout and std::cerr, reads only std::cin and the files named on the command line.
int run(int argc, char** argv);

}  // namespace neffbar::cli
