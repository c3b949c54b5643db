#include "neffbar/tables.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>

namespace neffbar {
namespace {

constexpr std::array<std::string_view, 8> kTypeNames{
    "INTRA_CHIP", "INTRA_POD", "INTER_CHIP", "INTER_CHIP_RING_LOCAL",
    "INTER_CHIP_RING_REMOTE", "INTRA_RACK", "INTER_RACK", "TYPE_MAX"};
constexpr std::array<std::string_view, 3> kOpNames{"ENTRY", "EXIT", "OP_TYPE_MAX"};

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

// The shipped tables have the shape the rest of the project relies on (P4 in full is a
// property; these are the compile-time facts).
static_assert(entry_at(kDefaultTable, 1, 3) == TableEntry{4, 0});
static_assert(entry_at(kDefaultTable, 3, 0) == TableEntry{0, 1});
static_assert(entry_at(kSwitchTable, 2, 1) == TableEntry{6, 1});
static_assert(entry_at(kSwitchTable, 1, 2) == TableEntry{7, 2});

}  // namespace

std::string_view type_name(std::uint32_t type) { return type < kTypeNames.size() ? kTypeNames[type] : "?"; }
std::string_view op_name(std::uint32_t op) { return op < kOpNames.size() ? kOpNames[op] : "?"; }

Result<BarrierType> parse_type(std::string_view text) {
  std::string u = upper(text);
  if (u.starts_with("BARRIER_")) u.erase(0, 8);
  for (std::uint32_t i = 0; i < kTypeCount; ++i) {
    if (u == kTypeNames[i]) return static_cast<BarrierType>(i);
  }
  std::uint32_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (!text.empty() && ec == std::errc{} && ptr == text.data() + text.size() && v < kTypeCount) {
    return static_cast<BarrierType>(v);
  }
  return Error{Errc::InvalidArgument, "TYPE",
               "a barrier_type_t name (INTRA_CHIP, INTRA_POD, INTER_CHIP, INTER_CHIP_RING_LOCAL, "
               "INTER_CHIP_RING_REMOTE, INTRA_RACK, INTER_RACK) or 0..6",
               "'" + std::string(text) + "'"};
}

Result<Fabric> parse_fabric(std::string_view text) {
  const std::string u = upper(text);
  for (const auto& [f, n] : EnumNames<Fabric>::table) {
    if (u == upper(n)) return f;  // any case: "Switch" and "SWITCH" are typed too
  }
  return Error{Errc::InvalidArgument, "fabric", enum_choices<Fabric>(" or "), "'" + std::string(text) + "'"};
}

std::string_view fabric_name(Fabric f) { return enum_name(f); }

}  // namespace neffbar
