// The neffbar command line (app.h).
#include "app.h"

#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <CLI/CLI.hpp>

#include "codec_cmds.h"
#include "conform_cmd.h"
#include "command.h"
#include "exit.h"
#include "input.h"
#include "memory_reserve.h"
#include "model_cmds.h"
#include "output.h"

namespace neffbar::cli {
namespace {

// Parses and runs the command; its result goes to std::cout (captured by the caller).
int parse_and_run(CLI::App& app, int argc, char** argv, Run& r) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, whatever CLI11 put in its message (error_line escapes newlines).
    error_line("", std::string(e.what()) + " (run with --help for more information)");
    return code(Exit::Usage);
  }
  return r.exit_code;
}

// An unknown command names itself and the commands there are (CLI11 would only say
// that a subcommand is required): false after that error line.
bool known_command(const CLI::App& app, std::string_view command) {
  std::string names;
  bool known = false;
  for (const CLI::App* sub : app.get_subcommands({})) {
    names += (names.empty() ? "" : ", ") + sub->get_name();
    known = known || sub->get_name() == command;
  }
  if (!known) error_line("", "unknown command '" + std::string(command) + "'; the commands are: " + names);
  return known;
}

// The command's captured result to -o (or stdout) and its other outputs (compose's
// directory, --html pages), all or none: rc, or Invalid when any cannot be written.
int deliver(std::string result, Run& r, int rc) {
  Outputs out;
  if (r.directory) {
    out.directory(r.output, std::move(*r.directory));
    out.to_stdout(std::move(result));
  } else if (r.to_stdout()) {
    out.to_stdout(std::move(result));
  } else {
    out.file(r.output, std::move(result));
  }
  for (auto& [path, data] : r.files) out.file(path, std::move(data));
  if (const std::optional<OutputError> failed = out.commit()) {
    error_line(failed->name, failed->reason);
    return code(Exit::Invalid);
  }
  // Written, but an old output could not be cleaned up: said, where it is left.
  for (const OutputError& left : out.leftovers()) error_line(left.name, left.reason);
  return rc;
}

int run_command(int argc, char** argv, model::SecondsClock clock) {
  CLI::App app{
      "neffbar: reference implementation of the NEFF barrier configuration (neff_barrier_configs_t)\n"
      "Exit codes: 0 ok, 1 invalid input (or an output that cannot be written), 2 usage, 3 lint found "
      "something, 4 failing verdict, 5 diff found differences."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  app.set_version_flag("--version", "neffbar " NEFFBAR_VERSION);
  Run r;
  r.clock = clock ? std::move(clock) : model::clock_from_now();
  // A command line runs one command: build only that one (building all nine costs more
  // than most commands take to run).  All of them for the top level's --help, --help-all
  // and --version, and to name them when the command is unknown.
  std::string_view only = argc > 1 && argv[1][0] != '-' ? argv[1] : "";
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--help-all") only = {};
  }
  add_codec_commands(app, r, only);
  add_model_commands(app, r, only);
  add_conform_command(app, r, only);
  if (app.get_subcommands({}).empty()) {
    add_codec_commands(app, r);
    add_model_commands(app, r);
    add_conform_command(app, r);
  }
  for (CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_option_no_throw("--output") != nullptr) continue;  // its own (compose: a directory)
    sub->add_option("-o,--output", r.output,
                    "Write the result to FILE, whole or not at all (a temporary beside it, then rename); "
                    "default: stdout");
  }
  if (argc > 1 && argv[1][0] != '-' && !known_command(app, argv[1])) return code(Exit::Usage);
  std::optional<CapturedStdout> captured(std::in_place);
  const int rc = parse_and_run(app, argc, argv, r);
  if (rc == code(Exit::Invalid) || rc == code(Exit::Usage)) return rc;  // nothing written on error
  std::string result = captured->text();  // the whole result copied: the allocator may refuse it too
  captured.reset();                        // std::cout is the process's again before anything is written
  return deliver(std::move(result), r, rc);
}

}  // namespace

int run(int argc, char** argv, model::SecondsClock clock) {
  forget_error_lines();
  forget_inputs();
  try {
    const MemoryReserve reserve;
    return run_command(argc, argv, std::move(clock));
  } catch (const std::bad_alloc&) {
    // Anywhere outside the explicit search's own memory budget (building the command
    // line, composing, lowering, the other engines, printing, copying the result out):
    // one line naming the command (error_line's, written without allocating when it
    // must), never an abort.  Nothing was written: the outputs are committed last, and a
    // failed commit takes them back.
    out_of_memory_line(argc > 1 ? argv[1] : "");
    return code(Exit::Invalid);
  }
}

}  // namespace neffbar::cli
