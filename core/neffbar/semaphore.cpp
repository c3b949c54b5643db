#include "neffbar/semaphore.h"

#include <limits>

namespace neffbar {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();

bool passes(std::int64_t v, std::int64_t threshold, Compare cmp) {
  return cmp == Compare::Ge ? v >= threshold : v > threshold;
}

}  // namespace

std::string_view prim_name(Prim p) {
  switch (p) {
    case Prim::Inc: return "inc";
    case Prim::IncVal: return "inc_val";
    case Prim::WaitGeAndDec: return "wait_ge_and_dec";
    case Prim::WaitGe: return "wait_ge";
    case Prim::WaitEqAndInc: return "wait_eq_and_inc";
    case Prim::WaitEqAndClear: return "wait_eq_and_clear";
  }
  return "?";
}

bool enabled(std::span<const std::int32_t> file, const SemaOp& op, Compare cmp) {
  const std::int64_t v = file[op.sema];
  switch (op.prim) {
    case Prim::Inc:
    case Prim::IncVal: return true;
    case Prim::WaitGeAndDec:
    case Prim::WaitGe: return passes(v, op.value, cmp);
    case Prim::WaitEqAndInc:
    case Prim::WaitEqAndClear: return v == op.value;
  }
  return false;
}

Outcome apply(std::span<std::int32_t> file, const SemaOp& op, Compare cmp) {
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
  if (next < kMin || next > kMax) return Outcome::Overflow;
  file[op.sema] = static_cast<std::int32_t>(next);
  return Outcome::Done;
}

}  // namespace neffbar
