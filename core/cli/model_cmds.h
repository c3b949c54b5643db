#pragma once

#include <CLI/CLI.hpp>

namespace neffbar::cli {
// check, check-configs, hypotheses
void add_model_commands(CLI::App& app, int& exit_code);
}  // namespace neffbar::cli
