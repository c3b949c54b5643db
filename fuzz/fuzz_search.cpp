// search: a table image (128 bytes + 4 sizes) and queries (i64 type, i64 step):
// faithful == fast, on the fuzzed image and on both shipped tables.
#include <cstdint>
#include <cstring>

#include "fuzz_check.h"
#include "neffbar/bytes.h"
#include "neffbar/search.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace neffbar;
  constexpr std::size_t kImage = kTableBytes + kSteps;
  if (size < kImage) return 0;
  TableImage t;
  std::memcpy(t.steps.data(), data, kTableBytes);
  std::memcpy(t.sizes.data(), data + kTableBytes, kSteps);
  const FastTable fast = FastTable::build(t);
  for (std::size_t at = kImage; at + 16 <= size; at += 16) {
    const auto type = static_cast<std::int64_t>(load_le(data + at, 8));
    const auto step = static_cast<std::int64_t>(load_le(data + at + 8, 8));
    fuzz::require(search_faithful(t, type, step) == fast.find(type, step), "faithful == fast (fuzzed image)");
    for (Fabric f : {Fabric::Default, Fabric::Switch}) {
      fuzz::require(search_faithful(type, step, f) == search_fast(type, step, f), "faithful == fast (shipped)");
    }
  }
  return 0;
}
