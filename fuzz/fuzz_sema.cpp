// sema: an op trace (7 bytes an op) -> the semaphore machine == the reference model.
#include <cstdint>
#include <vector>

#include "fuzz_check.h"
#include "neffbar/bytes.h"
#include "neffbar/semaphore_model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace neffbar;
  constexpr std::uint32_t kSemas = 4;
  std::vector<std::int32_t> file(kSemas, 0);
  ReferenceSemaphores model;
  const Compare cmp = size > 0 && (data[0] & 1) ? Compare::Gt : Compare::Ge;
  for (std::size_t at = 1; at + 7 <= size; at += 7) {
    SemaOp op;
    op.prim = static_cast<Prim>(data[at] % 6);
    op.sema = data[at + 1] % kSemas;
    op.value = static_cast<std::int32_t>(load_le(data + at + 2, 4));  // any int32, the edges included
    op.dec = data[at + 6] % 3;
    const Outcome want = model.apply(op, cmp);
    fuzz::require(apply(file, op, cmp) == want, "machine outcome == model outcome");
    for (std::uint32_t s = 0; s < kSemas; ++s) fuzz::require(file[s] == model.value(s), "machine values == model values");
  }
  return 0;
}
