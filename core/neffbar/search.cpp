#include "neffbar/search.h"

#include "neffbar/bytes.h"

namespace neffbar {

// Mirrors @0xf58a0: cl = sizes[step]; for i < cl: cmp [row + i*8], type; on match
// return field1 and i.  Guards added where the binary has none (see search.h).
std::optional<SearchHit> search_faithful(const TableImage& t, std::int64_t type, std::int64_t step) {
  if (step < 0 || step >= kSteps) return std::nullopt;
  if (type < 0 || type >= kTypeCount) return std::nullopt;
  const std::uint8_t* row = t.steps.data() + step * 0x20;            // shl rdx,5
  const unsigned count = t.sizes[static_cast<std::size_t>(step)];   // movzx ecx,[rax+step]
  const unsigned n = count > kEntries ? kEntries : count;
  for (unsigned i = 0; i < n; ++i) {
    if (load_le(row + i * 8, 4) == static_cast<std::uint64_t>(type)) {   // cmp [rdx+i*8], ebx
      return SearchHit{static_cast<std::uint32_t>(load_le(row + i * 8 + 4, 4)),  // field1
                       static_cast<int>(i)};
    }
  }
  return std::nullopt;
}

}  // namespace neffbar
