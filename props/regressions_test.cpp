// Every shrunk counterexample a property ever found stays here as a plain test.
#include <gtest/gtest.h>

#include "properties.h"

namespace neffbar::props {
namespace {

// P5 found (during development): the partial-order reduction once stopped expanding
// a state after its first enabled block; the table order's C7 violation on 2x2 then
// went unseen with symmetry on.  Shrunk input: chips=2 leaders=2 default host-cc.
TEST(Regressions, PorMustNotHideC7) {
  const System sys = *lower(*compose(Topology{2, 2, Fabric::Default, true, 1}), {});
  EXPECT_EQ(check_explicit(sys).verdict, Verdict::GlobalUnsafe);
}

// P9 found: counting wiring was given the per-peer symmetry renaming (8+j named a
// leader), so symmetry was refused; keep the counting case symmetric and correct.
TEST(Regressions, CountingWiringIsSymmetricAndTargetDecIsClean) {
  Scenario s;
  s.topo = Topology{2, 2, Fabric::Default, false, 2, Wiring::Counting};
  s.run.engine = Engine::Explicit;
  s.hyp.dec = DecMode::Target;
  s.run.check.guarantee = GuaranteeMode::Declared;
  const auto r = run_scenario(s);
  EXPECT_EQ(r->result.verdict, Verdict::Ok);
  EXPECT_TRUE(r->result.search().symmetry_used);
}

}  // namespace
}  // namespace neffbar::props
