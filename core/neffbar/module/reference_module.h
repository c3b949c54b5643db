// The reference implementation (core/neffbar) behind the module ABI (neffbar_module.h):
// what every module is compared with, and a module like any other to the harness.
#pragma once

#include "neffbar/module/neffbar_module.h"

namespace neffbar {

// Every operation implemented; name "neffbar reference".  Static storage, never null.
const neffbar_module& reference_module();

}  // namespace neffbar
