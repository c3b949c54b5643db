// The laws of P10 (the semaphore machine against its reference): each a typed input, its
// generator and its law (properties.h says how they are written and plugged in).
#pragma once

#include "law_prelude.h"

namespace neffbar::props {

// ------------------------------------------------------------------ P10 machine ----
// Commands on a file of three semaphores, against the independent model
// (core/testing/reference_semaphores.h), op by op.
struct SemaCommand {
  static constexpr bool kPropertyInput = true;
  SemaOp op;
  Compare cmp = Compare::Ge;
};
struct P10Input {
  static constexpr bool kPropertyInput = true;
  bool near_max = false;  // start s0 at INT32_MAX - 1 so overflow is reachable
  std::vector<SemaCommand> commands;
};
inline P10Input draw_p10(Source& s) {
  P10Input in;
  in.near_max = s.coin();
  in.commands.resize(s.below(40));
  for (SemaCommand& c : in.commands) c = {draw_sema_op(s, 3), s.element({Compare::Ge, Compare::Gt})};
  return in;
}
using ApplyFn = std::function<Outcome(std::span<std::int32_t>, const SemaOp&, Compare)>;

inline void p10_semaphore_machine(const P10Input& in, const ApplyFn& sut_apply, Judge& j) {
  ReferenceSemaphores model;
  std::vector<std::int32_t> sut(3, 0);
  if (in.near_max) {
    sut[0] = INT32_MAX - 1;
    model.set(0, INT32_MAX - 1);
  }
  std::array<int, 3> seen{};
  for (const SemaCommand& c : in.commands) {
    const Outcome want = model.outcome(c.op, c.cmp);
    j.require(sut_apply(sut, c.op, c.cmp) == want, "machine outcome == model outcome");
    model.apply(c.op, c.cmp);
    for (std::uint32_t s = 0; s < sut.size(); ++s) j.require(sut[s] == model.value(s), "machine values == model values");
    ++seen[static_cast<std::size_t>(want)];
  }
  j.classify(seen[static_cast<std::size_t>(Outcome::Blocked)] > 0, "a primitive blocked");
  j.classify(seen[static_cast<std::size_t>(Outcome::Overflow)] > 0, "an overflow was reported");
}

}  // namespace neffbar::props
