#pragma once

#include <string_view>

#include <CLI/CLI.hpp>

#include "command.h"

namespace neffbar::cli {
// decode, encode, table, search, lint, diff (diff_cmd.h); `only` non-empty: just the command of that name
// (a command line runs one command: building the others costs more than many run).
void add_codec_commands(CLI::App& app, Run& run, std::string_view only = {});
}  // namespace neffbar::cli
