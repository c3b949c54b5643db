// What every command shares with the entry point (app.cpp): the exit code it sets and
// where its result goes (`--output FILE`; empty or "-" is stdout).
#pragma once

#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>
#include <string>
#include <string_view>

#include "neffbar/model/engines/common/budget.h"
#include "neffbar/model/scenarios/composed_files.h"

namespace CLI {
class App;
}

namespace neffbar::cli {

struct Run {
  int exit_code = 0;
  std::string output;
  // compose: the files of the directory `output` names (stdout then gets the text).
  std::optional<std::vector<model::NamedFile>> directory;
  // Files beside the result (--html pages): written with it, all or none (output.h).
  std::vector<std::pair<std::string, std::string>> files;
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
