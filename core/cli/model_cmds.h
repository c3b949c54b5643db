#pragma once

#include <CLI/CLI.hpp>

#include "command.h"

namespace neffbar::cli {
// check, check-configs, hypotheses
void add_model_commands(CLI::App& app, Run& run);
}  // namespace neffbar::cli
