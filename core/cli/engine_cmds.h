// engines: the engines and their options, printed from the registry (kEngines,
// kEngineOptions) as Markdown tables or JSON.
#pragma once

#include <CLI/CLI.hpp>

#include "command.h"

namespace neffbar::cli {
void add_engines(CLI::App& app, Run& run);
}  // namespace neffbar::cli
