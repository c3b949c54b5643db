// Little-endian loads/stores used by every byte-level reader and writer.
#pragma once

#include <cstddef>
#include <cstdint>

namespace neffbar {

// Little-endian loads/stores used by every byte-level reader.
constexpr std::uint64_t load_le(const std::uint8_t* p, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}
constexpr void store_le(std::uint8_t* p, std::size_t n, std::uint64_t v) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace neffbar
