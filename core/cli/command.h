// What every command shares with the entry point (app.cpp): the exit code it sets and
// where its result goes (`--output FILE`; empty or "-" is stdout).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "neffbar/model/engines/common/budget.h"

namespace CLI {
class App;
}

namespace neffbar::cli {

struct Run {
  int exit_code = 0;
  std::string output;
  bool output_written = false;  // the command wrote --output itself (compose: a directory); stdout gets its text
  model::SecondsClock clock;  // since the command started: what --max-seconds bounds
  [[nodiscard]] bool to_stdout() const { return output.empty() || output == "-"; }
};

// A command: its name (as the subcommand it adds calls itself) and what adds it.
struct Command {
  std::string_view name;
  void (*add)(CLI::App& app, Run& run);
};

// Adds the commands, or with `only` non-empty just the one of that name.
inline void add_commands(CLI::App& app, Run& run, std::string_view only, std::initializer_list<Command> commands) {
  for (const Command& c : commands) {
    if (only.empty() || only == c.name) c.add(app, run);
  }
}

}  // namespace neffbar::cli
