#pragma once

#include <CLI/CLI.hpp>

#include "command.h"

namespace neffbar::cli {
// decode, encode, table, search, lint
void add_codec_commands(CLI::App& app, Run& run);
}  // namespace neffbar::cli
