// An independent reference for the semaphore machine (core/neffbar/README.md "Semaphores"), written straight from
// that description with 64-bit arithmetic and a sparse map, for P10 and the sema fuzz target.
// Deliberately shares no code with semaphore.cpp.
#pragma once

#include "testing/testing_only.h"

#include <cstdint>
#include <map>

#include "neffbar/semaphore.h"

namespace neffbar {

class ReferenceSemaphores {
 public:
  // What applying `op` does (never modifies anything).
  [[nodiscard]] Outcome outcome(const SemaOp& op, Compare cmp) const {
    const std::int64_t x = value(op.sema);
    const bool passes = cmp == Compare::Ge ? x >= op.value : x > op.value;
    std::int64_t next = x;
    switch (op.prim) {
      case Prim::Inc: next = x + 1; break;
      case Prim::IncVal: next = x + op.value; break;
      case Prim::WaitGeAndDec:
        if (!passes) return Outcome::Blocked;
        next = x - op.dec;
        break;
      case Prim::WaitGe:
        if (!passes) return Outcome::Blocked;
        break;
      case Prim::WaitEqAndInc:
        if (x != op.value) return Outcome::Blocked;
        next = x + 1;
        break;
      case Prim::WaitEqAndClear:
        if (x != op.value) return Outcome::Blocked;
        next = 0;
        break;
    }
    return next > INT32_MAX || next < INT32_MIN ? Outcome::Overflow : Outcome::Done;
  }

  Outcome apply(const SemaOp& op, Compare cmp) {
    const Outcome o = outcome(op, cmp);
    if (o != Outcome::Done) return o;  // blocked / overflow: nothing changes
    std::int64_t& x = values_[op.sema];
    switch (op.prim) {
      case Prim::Inc:
      case Prim::WaitEqAndInc: x += 1; break;
      case Prim::IncVal: x += op.value; break;
      case Prim::WaitGeAndDec: x -= op.dec; break;
      case Prim::WaitGe: break;
      case Prim::WaitEqAndClear: x = 0; break;
    }
    return o;
  }

  [[nodiscard]] std::int64_t value(std::uint32_t sema) const {
    const auto it = values_.find(sema);
    return it == values_.end() ? 0 : it->second;
  }
  void set(std::uint32_t sema, std::int64_t v) { values_[sema] = v; }

 private:
  std::map<std::uint32_t, std::int64_t> values_;
};

}  // namespace neffbar
