// neffbar: the command line of the reference implementation.
#include <iostream>

#include <CLI/CLI.hpp>

#include "codec_cmds.h"
#include "io.h"
#include "model_cmds.h"

int main(int argc, char** argv) {
  CLI::App app{
      "neffbar: reference implementation of the NEFF barrier configuration (neff_barrier_configs_t)\n"
      "Exit codes: 0 ok, 1 invalid input, 2 usage, 3 lint found something, 4 failing verdict."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  int exit_code = neffbar::cli::code(neffbar::cli::Exit::Ok);
  neffbar::cli::add_codec_commands(app, exit_code);
  neffbar::cli::add_model_commands(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "neffbar: " << e.what() << "\nRun with --help for more information.\n";
    return neffbar::cli::code(neffbar::cli::Exit::Usage);
  }
  return exit_code;
}
