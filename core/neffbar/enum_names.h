// One name<->value table per enum that a user types or reads (the CLI's options, the
// logs, the reports, the fuzz dictionaries): each enum's header specialises EnumNames
// once, and name(), parsing, the help texts' "a|b|c" and the dictionaries all read it.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace neffbar {

// Specialised next to each enum: `static constexpr NameTable<E, N> table{{{E::A, "a"}, ...}};`.
template <class E>
struct EnumNames;

template <class E, std::size_t N>
using NameTable = std::array<std::pair<E, std::string_view>, N>;

template <class E>
constexpr std::string_view enum_name(E e) {
  for (const auto& [v, n] : EnumNames<E>::table) {
    if (v == e) return n;
  }
  return "?";
}

// Exact match: the names are what the CLI and the logs print.
template <class E>
constexpr std::optional<E> parse_enum(std::string_view text) {
  for (const auto& [v, n] : EnumNames<E>::table) {
    if (n == text) return v;
  }
  return std::nullopt;
}

// "a|b|c", for help texts and error messages.
template <class E>
std::string enum_choices(std::string_view sep = "|") {
  std::string out;
  for (const auto& [v, n] : EnumNames<E>::table) {
    if (!out.empty()) out += sep;
    out += n;
  }
  return out;
}

}  // namespace neffbar
