// A test-only fuzz target with a planted bug: any input containing the bytes "BUG"
// fails an oracle, as a real finding would.  test_reproduce.sh builds it both ways
// (libFuzzer, replay main) to walk a finding to a regression; it is never shipped.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::array<std::uint8_t, 3> bug{'B', 'U', 'G'};
  const std::uint8_t* end = data + size;
  neffbar::fuzz::require(std::search(data, end, bug.begin(), bug.end()) == end, "planted: the input contains BUG");
  return 0;
}
