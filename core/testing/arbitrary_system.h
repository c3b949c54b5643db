// Arbitrary small systems for differential testing, drawn from any source of choices:
// std::mt19937 in the unit tests, rapidcheck in the properties, the input bytes in the
// barrier fuzz target.  Header only; not part of what the CLI runs.
//
// What the draws reach: 1-4 processes over 1-4 semaphores, 1-3 rounds, programs that
// repeat round after round or not (dropped instructions, stray round numbers, DEPARTs
// of rounds nobody arrives in), inc / inc_val / wait_ge / wait_ge_and_dec with
// thresholds and decrements 0..2 around the number of increments (equality of the
// wait), initial values 0..2 or next to the int32 limits, GE or GT, arbitrary
// guarantees and participants.  With `persistent_only` every semaphore has one
// consumer (its owner waits on it, the others only increment); without it, equality
// waits and several consumers appear too.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "neffbar/model/symmetry.h"
#include "neffbar/model/system.h"

namespace neffbar::model {

struct ArbitraryShape {
  std::uint32_t max_procs = 4, max_semas = 4, max_rounds = 3, max_block = 6;
  bool persistent_only = true;
};

// pick(n) returns a choice in [0, n) (n >= 1).
template <class Pick>
System arbitrary_system(Pick&& pick, const ArbitraryShape& shape = {}) {
  const std::uint32_t P = 1 + pick(shape.max_procs), S = 1 + pick(shape.max_semas), R = 1 + pick(shape.max_rounds);
  System s;
  s.rounds = R;
  s.compare = pick(4) == 0 ? Compare::Gt : Compare::Ge;
  std::vector<std::uint32_t> owner(S);
  for (std::uint32_t i = 0; i < S; ++i) {
    owner[i] = pick(P);
    std::int32_t init = static_cast<std::int32_t>(pick(3));
    if (pick(16) == 0) init = std::numeric_limits<std::int32_t>::max() - static_cast<std::int32_t>(pick(3));
    if (pick(16) == 0) init = std::numeric_limits<std::int32_t>::min() + static_cast<std::int32_t>(pick(3));
    s.semas.push_back(Semaphore{"s" + std::to_string(i), 0, init});
  }
  for (std::uint32_t p = 0; p < P; ++p) {
    Process pr;
    pr.name = "p" + std::to_string(p);
    pr.participant = pick(4) != 0;
    for (std::uint32_t q = 0; q < P; ++q) {
      if (pick(2)) pr.guarantee.push_back(q);
    }
    s.procs.push_back(pr);
  }
  auto op = [](Prim k, std::uint32_t sema, std::int64_t v, std::int64_t dec) {
    return Instr{Marker::None, SemaOp{k, sema, v, dec}, 0};
  };
  const bool periodic = pick(2);
  for (std::uint32_t p = 0; p < P; ++p) {
    std::vector<std::uint32_t> own;
    for (std::uint32_t k = 0; k < S; ++k) {
      if (owner[k] == p) own.push_back(k);
    }
    std::vector<Instr> block;
    const std::uint32_t n = 1 + pick(shape.max_block);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t sem = pick(S);
      const std::int64_t v = pick(3), dec = pick(3);
      switch (pick(7)) {
        case 0: block.push_back(Instr{Marker::Arrive, {}, 0}); break;
        case 1: block.push_back(Instr{Marker::Depart, {}, 0}); break;
        case 2: block.push_back(op(Prim::Inc, sem, 1, 1)); break;
        case 3: block.push_back(op(Prim::IncVal, sem, v, 1)); break;
        case 4:
          if (!shape.persistent_only) {
            block.push_back(op(pick(2) ? Prim::WaitEqAndInc : Prim::WaitEqAndClear, sem, v, 1));
            break;
          }
          [[fallthrough]];
        default: {
          const Prim k = pick(3) == 0 ? Prim::WaitGe : Prim::WaitGeAndDec;
          if (!shape.persistent_only) {
            block.push_back(op(k, sem, v, dec));
          } else if (own.empty()) {
            block.push_back(op(Prim::Inc, sem, 1, 1));
          } else {
            block.push_back(op(k, own[pick(static_cast<std::uint32_t>(own.size()))], v, dec));
          }
        }
      }
    }
    for (std::uint32_t r = 0; r < R; ++r) {
      std::vector<Instr> b = block;
      if (!periodic && pick(2) && !b.empty()) b.erase(b.begin() + pick(static_cast<std::uint32_t>(b.size())));
      for (Instr& in : b) in.round = static_cast<std::uint16_t>(periodic || pick(5) != 0 ? r : pick(R + 1));
      s.procs[p].program.insert(s.procs[p].program.end(), b.begin(), b.end());
    }
  }
  return s;
}

// Symmetry hints laying the processes out as chips x leaders at random, with random
// semaphore ownership: most claim a symmetry the system does not have, which the
// symmetry reduction must detect and refuse.
template <class Pick>
SymmetryHints arbitrary_hints(const System& s, Pick&& pick) {
  SymmetryHints h;
  const auto P = static_cast<std::uint32_t>(s.procs.size());
  if (P == 0) return h;
  h.leaders = 1 + pick(2);
  h.chips = std::max(1u, P / h.leaders / (1 + pick(2)));
  if (h.chips * h.leaders > P) return {};
  std::vector<std::int32_t> procs(P);
  for (std::uint32_t i = 0; i < P; ++i) procs[i] = static_cast<std::int32_t>(i);
  for (std::uint32_t i = P; i-- > 1;) std::swap(procs[i], procs[pick(i + 1)]);
  h.leader_proc.assign(procs.begin(), procs.begin() + h.chips * h.leaders);
  for (std::size_t k = 0; k < s.semas.size(); ++k) {
    h.sema_slot.push_back(static_cast<std::int32_t>(pick(h.chips * h.leaders + 1)) - 1);
    h.sema_local.push_back(pick(3));
  }
  if (pick(2)) h.leader_indexed = {{0, 2}};
  return h;
}

}  // namespace neffbar::model
