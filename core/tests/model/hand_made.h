// Hand-made systems for the model's unit tests: one instruction a call.
#pragma once

#include "testing/sanitized.h"

#include <cstdint>
#include <string>
#include <vector>

#include "neffbar/model/engines/common/compiled.h"
#include "neffbar/model/system/system.h"

namespace neffbar::model::hand_made {

// Under ASan+UBSan (the second ctest pass, ~10x slower) the long differential tests run
// a smaller sample; the g++ pass runs them whole.
using neffbar::testing::kSanitized;


inline Instr op(Prim k, std::uint32_t s, std::int64_t v = 1, std::int64_t dec = 1, std::uint16_t r = 0) {
  return Instr{Marker::None, SemaOp{k, s, v, dec}, r};
}
inline Instr inc(std::uint32_t s, std::uint16_t r = 0) { return op(Prim::Inc, s, 1, 1, r); }
inline Instr inc_val(std::uint32_t s, std::int64_t v) { return op(Prim::IncVal, s, v); }
inline Instr wait(std::uint32_t s, std::int64_t t = 1, std::int64_t dec = 1, std::uint16_t r = 0) {
  return op(Prim::WaitGeAndDec, s, t, dec, r);
}
inline Instr arrive(std::uint16_t r = 0) { return Instr{Marker::Arrive, {}, r}; }
inline Instr depart(std::uint16_t r = 0) { return Instr{Marker::Depart, {}, r}; }

// Semaphores s0.., processes p0.. (all participants) with the given guarantees.
inline System make(std::size_t semas, std::vector<std::vector<Instr>> progs,
                   std::vector<std::vector<std::uint32_t>> g = {}, std::uint32_t rounds = 1) {
  System s;
  s.rounds = rounds;
  for (std::size_t i = 0; i < semas; ++i) s.semas.push_back(Semaphore{"s" + std::to_string(i), 0, 0});
  for (std::size_t p = 0; p < progs.size(); ++p) {
    Process pr;
    pr.name = "p" + std::to_string(p);
    pr.program = progs[p];
    pr.participant = true;
    if (p < g.size()) pr.guarantee = g[p];
    s.procs.push_back(pr);
  }
  return s;
}

// The atomic blocks the explicit search builds (Lipton reduction on).
inline std::vector<detail::AtomicBlocks> blocks_of(const System& sys) {
  return detail::Compiled(sys, /*reduce=*/true, /*prefix_sums=*/false, /*blocks_wanted=*/true).blocks;
}

}  // namespace neffbar::model::hand_made
