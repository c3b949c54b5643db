// The neffbar command line (app.h).
#include "app.h"

#include <algorithm>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "codec_cmds.h"
#include "io.h"
#include "model_cmds.h"

namespace neffbar::cli {

int run(int argc, char** argv) {
  CLI::App app{
      "neffbar: reference implementation of the NEFF barrier configuration (neff_barrier_configs_t)\n"
      "Exit codes: 0 ok, 1 invalid input, 2 usage, 3 lint found something, 4 failing verdict."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  app.set_version_flag("--version", "neffbar " NEFFBAR_VERSION);
  int exit_code = code(Exit::Ok);
  add_codec_commands(app, exit_code);
  add_model_commands(app, exit_code);
  // An unknown command names itself and the commands there are (CLI11 would only say
  // that a subcommand is required).
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      names += (names.empty() ? "" : ", ") + sub->get_name();
      known = known || sub->get_name() == argv[1];
    }
    if (!known) {
      std::cerr << "neffbar: unknown command '" << argv[1] << "'; the commands are: " << names << '\n';
      return code(Exit::Usage);
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, whatever CLI11 put in its message.
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    std::cerr << "neffbar: " << what << " (run with --help for more information)\n";
    return code(Exit::Usage);
  }
  return exit_code;
}

}  // namespace neffbar::cli
