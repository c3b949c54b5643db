// The TOP_SP semaphore machine (core/neffbar/README.md "Semaphores"): signed 32-bit values, the six libnrt
// primitives, a blocked primitive changes nothing, overflow is reported (never
// wrapped).  The compare of the GE primitives is a parameter (C4: encoder compare
// mode 5 is >=; the device spin loop releases on >).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "neffbar/enum_names.h"

namespace neffbar {

enum class Compare : std::uint8_t { Ge, Gt };
template <>
struct EnumNames<Compare> {
  static constexpr NameTable<Compare, 2> table{{{Compare::Ge, "ge"}, {Compare::Gt, "gt"}}};
};

enum class Prim : std::uint8_t {
  Inc,             // add_semaphore_inc @0x273860: +1 (subop 21, imm 1)
  IncVal,          // add_semaphore_inc_val @0x273820: +value
  WaitGeAndDec,    // add_semaphore_wait_ge_and_dec @0x273a20: block until >= value, then -dec
  WaitGe,          // add_semaphore_wait_ge @0x273ac0: block until >= value
  WaitEqAndInc,    // add_semaphore_wait_eq_and_inc @0x2739d0: block until == value, then +1
  WaitEqAndClear,  // add_semaphore_wait_eq_and_clear @0x273a70: block until == value, then = 0
};
std::string_view prim_name(Prim p);

struct SemaOp {
  Prim prim = Prim::Inc;
  std::uint32_t sema = 0;   // index into the semaphore file
  std::int64_t value = 1;   // increment (IncVal) or threshold / compare value (waits)
  std::int64_t dec = 1;     // WaitGeAndDec: amount removed on release (C5: 1 or target)
  bool operator==(const SemaOp&) const = default;
};

enum class Outcome : std::uint8_t { Done, Blocked, Overflow };

// Would `op` release (for waits) in a file?  Never modifies anything.  Inline: every
// engine's inner loop calls it once a step.
inline bool enabled(std::span<const std::int32_t> file, const SemaOp& op, Compare cmp) {
  const std::int64_t v = file[op.sema];
  switch (op.prim) {
    case Prim::Inc:
    case Prim::IncVal: return true;
    case Prim::WaitGeAndDec:
    case Prim::WaitGe: return cmp == Compare::Ge ? v >= op.value : v > op.value;
    case Prim::WaitEqAndInc:
    case Prim::WaitEqAndClear: return v == op.value;
  }
  return false;
}

// Apply one primitive.  Blocked and Overflow leave `file` unchanged.
// Precondition: op.sema < file.size().
inline Outcome apply(std::span<std::int32_t> file, const SemaOp& op, Compare cmp) {
  if (!enabled(file, op, cmp)) return Outcome::Blocked;
  const std::int64_t v = file[op.sema];
  std::int64_t next = v;
  switch (op.prim) {
    case Prim::Inc: next = v + 1; break;
    case Prim::IncVal: next = v + op.value; break;
    case Prim::WaitGeAndDec: next = v - op.dec; break;
    case Prim::WaitGe: break;
    case Prim::WaitEqAndInc: next = v + 1; break;
    case Prim::WaitEqAndClear: next = 0; break;
  }
  if (next < INT32_MIN || next > INT32_MAX) return Outcome::Overflow;
  file[op.sema] = static_cast<std::int32_t>(next);
  return Outcome::Done;
}

}  // namespace neffbar
