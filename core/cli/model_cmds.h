#pragma once

#include <string_view>

#include <CLI/CLI.hpp>

#include "command.h"

namespace neffbar::cli {
// check, check-configs, compose, promela, hypotheses, engines; `only` non-empty: just the command of that name.
void add_model_commands(CLI::App& app, Run& run, std::string_view only = {});
}  // namespace neffbar::cli
