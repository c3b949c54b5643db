// search: a raw table image (128 bytes + 4 sizes) and queries (i64 type, i64 step).
// What is specific to raw bytes: any image builds a fast table, and every hit names an
// entry of the image that holds the queried type, within the clamped row.  (Faithful ==
// fast on arbitrary images and queries is P3: the target prop_p3_search.)
#include <algorithm>
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
    const std::optional<SearchHit> hit = fast.find(type, step);
    if (!hit) continue;
    fuzz::require(step >= 0 && step < kSteps, "a hit only for a step 0..3");
    const int row = std::min<int>(t.sizes[static_cast<std::size_t>(step)], kEntries);
    fuzz::require(hit->index >= 0 && hit->index < row, "a hit inside the clamped row");
    const TableEntry e = entry_at(t, static_cast<int>(step), hit->index);
    fuzz::require(e.type == static_cast<std::uint64_t>(type) && e.op == hit->op, "a hit is the image's entry for the type");
  }
  return 0;
}
