// A module loaded from a shared object (dlopen) and judged in a child process, so that
// a module that crashes, hangs or corrupts memory is a finding about the module and not
// the end of the harness.  What `neffbar conform` runs.
#pragma once

#include <optional>
#include <string>

#include "neffbar/module/conformance.h"

namespace neffbar::cli {

struct Hosted {
  std::optional<Conformance> result;  // the judgement, a fault in it when the module crashed or hung
  std::string load_error;             // or why the module could not be loaded (no file, no entry, ABI version)
};

// Loads `path` in a child, checks its entry and ABI version, runs conform() there.  A
// module call that does not return within `call_timeout` seconds is a hang: the child is
// killed and the fault names the operation and its input.  The module's stdout goes to
// stderr (stdout carries the result).
Hosted conform_hosted(const std::string& path, const ConformOptions& options, double call_timeout);

}  // namespace neffbar::cli
