// Strict values for numeric options: a value that does not fit is refused naming the
// option, never wrapped or clamped (CLI11 would take "-1" for a uint64 as 2^64-1).  The
// CLI's options and the engines' option table (model/engines/engine_options.h) read
// their numbers through these.
#pragma once

#include <cstdint>
#include <string_view>

#include "neffbar/error.h"

namespace neffbar {

// Decimal digits only (no sign, no space, no 0x), within [lo, hi].
Result<std::uint64_t> parse_count(std::string_view option, std::string_view text, std::uint64_t lo,
                                  std::uint64_t hi);

// A finite number of seconds > 0 (decimal, e.g. 0.5 or 30).
Result<double> parse_seconds(std::string_view option, std::string_view text);

}  // namespace neffbar
