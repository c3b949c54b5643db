// Little-endian loads/stores used by every byte-level reader and writer.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace neffbar {

// Runtime-width versions (n <= 8).
constexpr std::uint64_t load_le(const std::uint8_t* p, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}
constexpr void store_le(std::uint8_t* p, std::size_t n, std::uint64_t v) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// Fixed-width versions for the hot paths: one unaligned move on little-endian hosts
// (no loop, so nothing for coverage instrumentation to trace per byte).
template <class T>
  requires std::is_unsigned_v<T>
T load_le_as(const std::uint8_t* p) {
  if constexpr (std::endian::native == std::endian::little) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  } else {
    return static_cast<T>(load_le(p, sizeof(T)));
  }
}
template <class T>
  requires std::is_unsigned_v<T>
void store_le_as(std::uint8_t* p, T v) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, sizeof v);
  } else {
    store_le(p, sizeof(T), v);
  }
}

}  // namespace neffbar
