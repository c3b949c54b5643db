// diff: two config images field by field, two driver contexts by their known fields
// and byte runs, or two directories (or compose manifests) file by file, paired by
// name: everything compose writes (images, contexts, logs, the manifest) is compared,
// so two compose outputs are equal exactly when every file compose wrote is
// byte-identical.  Exit 0 equal, 5 different.
#pragma once

#include <CLI/CLI.hpp>

#include "command.h"

namespace neffbar::cli {
void add_diff(CLI::App& app, Run& run);
}  // namespace neffbar::cli
