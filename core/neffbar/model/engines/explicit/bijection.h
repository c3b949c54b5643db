// Whether a map given as a table (i -> map[i]) is a bijection of 0..n-1: the check every
// claimed symmetry's process, semaphore and vertex maps pass before anything indexes
// through them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace neffbar::model {

// True when `map` has n entries and, sorted, reads 0, 1, ..., n-1: every value in range
// and none twice.  Sorting a copy, rather than marking a table indexed by the values,
// never reads anything a value names.
template <class T>
[[nodiscard]] bool is_bijection(std::span<const T> map, std::size_t n) {
  std::vector<T> sorted(map.begin(), map.end());
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] != static_cast<T>(i)) return false;
  }
  return sorted.size() == n;
}

}  // namespace neffbar::model
