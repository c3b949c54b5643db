// The one strict JSON reader: every JSON text a user hands neffbar (a config's log,
// compose's manifest.json) is parsed here, so each refuses the same things.
//
// Contract: never throws, never recurses deeper than kMaxJsonDepth (a 1 MiB text of
// `[[[[...` is refused, not a stack overflow), and refuses what nlohmann-json alone
// would take but a strict reader must not:
//  - a NUL byte (nlohmann-json stops reading there: what follows would be ignored);
//  - a key twice in one object (nlohmann-json keeps the last value);
//  - nesting deeper than kMaxJsonDepth (the log nests 5 deep, the manifest 3);
//  - anything but white space after the document.
// The error names where: the JSON path of a duplicate key ($.files[2].chip), or the
// byte at which the text stopped being JSON.
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "neffbar/error.h"

namespace neffbar {

inline constexpr std::size_t kMaxJsonDepth = 64;

Result<nlohmann::json> parse_strict_json(std::string_view text, std::size_t max_depth = kMaxJsonDepth);

}  // namespace neffbar
