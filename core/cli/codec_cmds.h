#pragma once

#include <CLI/CLI.hpp>

namespace neffbar::cli {
// decode, encode, table, search, lint
void add_codec_commands(CLI::App& app, int& exit_code);
}  // namespace neffbar::cli
