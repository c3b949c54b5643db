// Hex formatting without snprintf, for messages.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace neffbar {

inline constexpr char kHexDigits[] = "0123456789ABCDEF";

// "0x" + minimal upper-case digits, for messages ("offset 0x11C").
inline std::string hex(std::uint64_t v) {
  std::string s = "0x";
  int shift = 60;
  while (shift > 0 && ((v >> shift) & 0xF) == 0) shift -= 4;
  for (; shift >= 0; shift -= 4) s += kHexDigits[(v >> shift) & 0xF];
  return s;
}

// Bytes as lower-case hex digits, two a byte, nothing between: the test vectors' form.
inline std::string hex_bytes(std::span<const std::uint8_t> bytes) {
  static constexpr char kLower[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (const std::uint8_t b : bytes) {
    s += kLower[b >> 4];
    s += kLower[b & 15];
  }
  return s;
}

}  // namespace neffbar
