// What every command shares with the entry point (app.cpp): the exit code it sets and
// where its result goes (`--output FILE`; empty or "-" is stdout).
#pragma once

#include <string>

namespace neffbar::cli {

struct Run {
  int exit_code = 0;
  std::string output;
  [[nodiscard]] bool to_stdout() const { return output.empty() || output == "-"; }
};

}  // namespace neffbar::cli
