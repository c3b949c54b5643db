// Hex formatting without snprintf (the log writer's hot path uses it too).
#pragma once

#include <cstdint>
#include <string>

namespace neffbar {

inline constexpr char kHexDigits[] = "0123456789ABCDEF";

// "0x" + exactly 16 upper-case digits: the logger's "0x%016lX".
inline void append_hex16(std::string& out, std::uint64_t v) {
  char buf[18] = {'0', 'x'};
  for (int i = 0; i < 16; ++i) buf[2 + i] = kHexDigits[(v >> (60 - 4 * i)) & 0xF];
  out.append(buf, sizeof buf);
}

// "0x" + minimal upper-case digits, for messages ("offset 0x11C").
inline std::string hex(std::uint64_t v) {
  std::string s = "0x";
  int shift = 60;
  while (shift > 0 && ((v >> shift) & 0xF) == 0) shift -= 4;
  for (; shift >= 0; shift -= 4) s += kHexDigits[(v >> shift) & 0xF];
  return s;
}

}  // namespace neffbar
