// The four NCFW generations that ship a barrier decoder (core/neffbar/README.md "Arch", OBSERVED).  One
// schema serves all four; v5 (MAVERICK) has no decoder and nothing of it is invented.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "neffbar/error.h"

namespace neffbar {

enum class Arch : std::uint8_t {
  Sunda = 0x05,        // v2
  Cayman = 0x0C,       // v3 (NC-v3)
  Mariana = 0x14,      // v4
  MarianaPlus = 0x1C,  // v4+
};

inline constexpr std::array kArchs{Arch::Sunda, Arch::Cayman, Arch::Mariana, Arch::MarianaPlus};

std::string_view arch_name(Arch a);  // "sunda", ...
// Accepts a name (sunda|cayman|mariana|mariana_plus, case-insensitive, also v2/v3/v4/v4+)
// or an arch_id (0x05, 5, ...).  "maverick"/"v5" -> Errc::NoV5Decoder; anything else ->
// Errc::UnknownArch naming the four supported ones.
Result<Arch> parse_arch(std::string_view text);
Result<Arch> arch_from_id(std::uint32_t id);

}  // namespace neffbar
