// Differential testing against the reference checker (core/testing/reference_checker.h)
// on arbitrary systems: equality waits, several consumers of one semaphore, values at
// the int32 limits, 1-3 rounds, arbitrary guarantees and participants, and symmetry
// hints that claim a symmetry the system may not have.  Every combination of the
// explicit search's reductions, and the persistent engine where the system qualifies,
// must find exactly the failure kinds the reference finds.
#include <gtest/gtest.h>

#include <cstdlib>
#include <algorithm>
#include <random>

#include "hand_made.h"
#include "neffbar/model/checker.h"
#include "neffbar/model/persistent.h"
#include "testing/arbitrary_system.h"
#include "testing/reference_checker.h"

namespace neffbar::model {
namespace {

void compare_on(std::uint64_t seed, int systems, bool persistent_only) {
  std::mt19937_64 rng(seed);
  std::uint32_t kinds = 0;
  int decided = 0;
  for (int i = 0; i < systems; ++i) {
    ArbitraryShape shape;
    shape.persistent_only = persistent_only;
    const System sys = arbitrary_system([&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); }, shape);
    const testing::ReferenceResult ref = testing::reference_check(sys, 50'000);
    if (!ref.complete) continue;
    ++decided;
    kinds |= ref.found_mask;
    const SymmetryHints hints = arbitrary_hints(sys, [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); });
    for (int v = 0; v < testing::kReductionVariants; ++v) {
      const CheckResult r = check(sys, testing::reduction_variant(v, hints, 200'000));
      if (r.verdict == Verdict::Budget) continue;
      ASSERT_EQ(r.found_mask, ref.found_mask) << "seed " << seed << " system " << i << " reductions " << v << "\n"
                                              << hand_made::dump(sys);
      if (r.cex) {
        ASSERT_TRUE(replay(sys, *r.cex)) << "seed " << seed << " system " << i << " reductions " << v << "\n"
                                         << format_counterexample(sys, *r.cex);
      }
    }
    PersistentOptions po;
    po.collect_all = true;
    const Result<CheckResult> p = check_persistent(sys, po);
    ASSERT_EQ(p.ok(), qualify(sys).ok);
    if (p) {
      ASSERT_EQ(p->found_mask, ref.found_mask) << "seed " << seed << " system " << i << " (persistent)";
    }
  }
  EXPECT_GT(decided, systems / 2);
  // The generator reaches every failing kind.
  for (Verdict k : {Verdict::Deadlock, Verdict::Unsafe, Verdict::GlobalUnsafe, Verdict::NotReusable, Verdict::Overflow}) {
    EXPECT_TRUE(kinds & bit(k)) << verdict_name(k) << (persistent_only ? " (persistent-only shape)" : "");
  }
}

int how_many(int normal) {
  if (std::getenv("NEFFBAR_STRESS")) return normal * 50;
  return hand_made::kSanitized ? normal / 5 : normal;
}

TEST(Reference, EveryReductionAgreesOnArbitrarySystems) { compare_on(20261130, how_many(1500), false); }

TEST(Reference, EveryEngineAgreesOnArbitraryPersistentSystems) { compare_on(7, how_many(1000), true); }

}  // namespace
}  // namespace neffbar::model
