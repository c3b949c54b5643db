#include "neffbar/arch.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

#include "neffbar/hex.h"

namespace neffbar {
namespace {

constexpr std::string_view kSupported =
    "one of 0x05 sunda (v2), 0x0C cayman (v3), 0x14 mariana (v4), 0x1C mariana_plus (v4+)";

Error v5_error(std::string got) {
  return Error{Errc::NoV5Decoder, "arch",
               "no NCFW barrier decoder exists for v5 (MAVERICK): libncfw ships only v2/v3/v4/v4+; " +
                   std::string(kSupported),
               std::move(got)};
}

}  // namespace

std::string_view arch_name(Arch a) {
  switch (a) {
    case Arch::Sunda: return "sunda";
    case Arch::Cayman: return "cayman";
    case Arch::Mariana: return "mariana";
    case Arch::MarianaPlus: return "mariana_plus";
  }
  return "?";
}

Result<Arch> arch_from_id(std::uint32_t id) {
  for (Arch a : kArchs) {
    if (static_cast<std::uint32_t>(a) == id) return a;
  }
  return Error{Errc::UnknownArch, "arch_id", std::string(kSupported), hex(id)};
}

Result<Arch> parse_arch(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "maverick" || lower == "v5") return v5_error(std::string(text));
  if (lower == "v2") return Arch::Sunda;
  if (lower == "v3") return Arch::Cayman;
  if (lower == "v4") return Arch::Mariana;
  if (lower == "v4+" || lower == "v4_plus") return Arch::MarianaPlus;
  for (Arch a : kArchs) {
    if (lower == arch_name(a)) return a;
  }
  std::string_view digits = lower;
  int base = 10;
  if (digits.starts_with("0x")) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint32_t id = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id, base);
  if (digits.empty() || ec != std::errc{} || ptr != digits.data() + digits.size()) {
    return Error{Errc::UnknownArch, "arch", std::string(kSupported), "'" + std::string(text) + "'"};
  }
  return arch_from_id(id);
}

}  // namespace neffbar
