// Two engines' answers on one system, held against each other by one rule, written
// once: the `persistent` property, the barrier fuzz target's cross-checks and the
// persistent engine's comparisons over the hypothesis matrix
// (core/tests/model/persistent_test.cpp) all run it.  The rule alone does not ask an
// answer to be exact: where one must be, its caller requires it.
//
// Both answers come from runs with collect_all, so that an answer's failure kinds are
// all it saw.  The rule: whatever either found is real (each counterexample and global
// finding replays), and an exact answer (every interleaving, not cut by its budget:
// CheckResult::exact) has every failure kind the other found.  So two exact answers find
// the same kinds, and an answer cut short or sampled (random schedules) may miss kinds
// but never finds one the exact engine does not.
#pragma once

#include <utility>

#include "judge.h"
#include "neffbar/model/system/counterexample.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::props {

inline void engines_agree(const model::System& sys, const model::CheckResult& a, const model::CheckResult& b, Judge& j) {
  for (const model::CheckResult* r : {&a, &b}) {
    if (r->cex) j.require(model::replay(sys, *r->cex), "each counterexample replays");
    if (r->global_finding) j.require(model::replay(sys, *r->global_finding), "each global finding replays");
  }
  for (const auto& [exact, other] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    if (exact->exact()) {
      j.require((other->found_mask & ~exact->found_mask) == 0, "an exact engine finds every failure kind the other found");
    }
  }
}

}  // namespace neffbar::props
