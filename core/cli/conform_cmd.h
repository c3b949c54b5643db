#pragma once

#include <string_view>

#include <CLI/CLI.hpp>

#include "command.h"

namespace neffbar::cli {
// conform: a module (neffbar_module.h, as a shared object) judged by the test vectors
// and a bounded differential fuzz against the reference; `only` as add_codec_commands'.
void add_conform_command(CLI::App& app, Run& run, std::string_view only = {});
}  // namespace neffbar::cli
