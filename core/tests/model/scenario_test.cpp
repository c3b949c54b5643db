// A scenario of configs (scenario.h; what `check-configs` runs) pinned on hand-made
// config sets: composer output taken apart and altered.  Each config's guarantee names
// every config of the set, and each member counts: a config that skips the wait for
// exactly one other config's signal departs before that config arrives, and the verdict
// names the pair (UNSAFE), for every ordered pair -- so one config dropping out of some
// guarantee turns that pair into a GLOBAL_UNSAFE or OK here.  The verdict when one
// config is missing, wrong, or comes later in the set, and the example configs of
// corpus/examples.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "hand_made.h"
#include "neffbar/json_log.h"
#include "neffbar/model/frontend/faults.h"
#include "neffbar/model/scenarios/scenario.h"

namespace neffbar::model {
namespace {

Scenario configs_scenario(std::vector<ConfigBytes> configs, Lowering lowering = Lowering::Table, std::uint32_t rounds = 1) {
  Scenario s;
  s.topo.lowering = lowering;
  s.topo.rounds = rounds;
  s.configs = std::move(configs);
  return s;
}

ScenarioResult run(const Scenario& s) {
  Result<ScenarioResult> r = run_scenario(s);
  EXPECT_TRUE(r.ok()) << (r ? "" : r.error().message());
  return std::move(*r);
}

// The composer's configs of one chip with `leaders` leaders (every pair linked).
std::vector<ConfigBytes> one_chip(std::uint32_t leaders) {
  return compose(Topology{.chips = 1, .leaders = leaders})->configs;
}

// Broke-in-round is measured by re-checking fewer rounds only where an exact engine
// would answer them: random schedules leave it unmeasured (0), re-checking nothing.
TEST(Scenario, RandomSchedulesLeaveBrokeInRoundUnmeasured) {
  Scenario s;
  s.topo = Topology{.chips = 2, .leaders = 2, .rounds = 3};  // the table order: GLOBAL_UNSAFE in round 1
  s.run.engine = Engine::Random;
  s.run.random_runs = 50;
  const ScenarioResult r = run(s);
  ASSERT_TRUE(failing(r.result.verdict)) << note_text(r.result);
  EXPECT_EQ(r.result.broke_in_round, 0u);
  EXPECT_EQ(r.phases.rechecks, 0.0);
  s.run.engine = Engine::Explicit;
  EXPECT_EQ(run(s).result.broke_in_round, 1u) << "the explicit search re-checks fewer rounds";
}

TEST(CheckConfigs, EveryConfigIsInEveryGuarantee) {
  for (std::uint32_t n = 1; n <= 4; ++n) {
    const System sys = *lower_configs(one_chip(n), Fabric::Default, Lowering::Table, 1, Hypotheses{});
    ASSERT_EQ(sys.procs.size(), n);
    for (std::uint32_t p = 0; p < n; ++p) {
      std::vector<std::uint32_t> g = sys.procs[p].guarantee;
      std::sort(g.begin(), g.end());
      std::vector<std::uint32_t> all(n);
      for (std::uint32_t q = 0; q < n; ++q) all[q] = q;
      EXPECT_EQ(g, all) << "cfg" << p << " of " << n;
      EXPECT_TRUE(sys.procs[p].participant) << "cfg" << p;
    }
  }
}

TEST(CheckConfigs, ACompleteSetIsOk) {
  for (std::uint32_t n = 1; n <= 4; ++n) {
    const ScenarioResult r = run(configs_scenario(one_chip(n), Lowering::Table, 2));
    EXPECT_EQ(r.result.verdict, Verdict::Ok) << n << " leaders";
    EXPECT_EQ(r.result.global, GlobalStatus::Holds) << n << " leaders";
  }
  // Two chips: the hierarchical order is a barrier; the table order is not (C7), and
  // here every config is in every guarantee, so that is UNSAFE, not GLOBAL_UNSAFE.
  const auto two_by_two = [](Lowering l) { return compose(Topology{.chips = 2, .leaders = 2, .lowering = l})->configs; };
  EXPECT_EQ(run(configs_scenario(two_by_two(Lowering::Hierarchical), Lowering::Hierarchical)).result.verdict, Verdict::Ok);
  const ScenarioResult table = run(configs_scenario(two_by_two(Lowering::Table)));
  EXPECT_EQ(table.result.verdict, Verdict::Unsafe);
  EXPECT_EQ(table.result.global, GlobalStatus::Broken);
}

// Zero the wait lanes of config k on the semaphores config j signals: k no longer
// waits for j.  The lanes are found in the lowered system (step and lane of each wait).
std::vector<ConfigBytes> skip_wait(std::vector<ConfigBytes> cfgs, std::uint32_t k, std::uint32_t j) {
  const System sys = *lower_configs(cfgs, Fabric::Default, Lowering::Table, 1, Hypotheses{});
  int zeroed = 0;
  for (const Instr& w : sys.procs[k].program) {
    if (w.marker != Marker::None || w.op.prim != Prim::WaitGeAndDec) continue;
    const auto& signals = sys.procs[j].program;
    const bool from_j = std::any_of(signals.begin(), signals.end(), [&](const Instr& in) {
      return in.marker == Marker::None && in.op.prim == Prim::Inc && in.op.sema == w.op.sema;
    });
    if (!from_j) continue;
    const std::size_t at = std::size_t{w.step} * 0x34 + 4 + std::size_t{w.lane} * 8;  // barrier_sema[lane]
    std::fill_n(cfgs[k].begin() + static_cast<std::ptrdiff_t>(at), 8, std::uint8_t{0});
    ++zeroed;
  }
  EXPECT_GT(zeroed, 0) << "cfg" << k << " has no wait for cfg" << j;
  return cfgs;
}

TEST(CheckConfigs, EachDepartFollowsTheArrivalOfEveryOtherConfig) {
  for (std::uint32_t n = 2; n <= 4; ++n) {
    for (std::uint32_t k = 0; k < n; ++k) {
      for (std::uint32_t j = 0; j < n; ++j) {
        if (j == k) continue;
        const ScenarioResult r = run(configs_scenario(skip_wait(one_chip(n), k, j)));
        const std::string pair = "cfg" + std::to_string(k) + " skips cfg" + std::to_string(j) + " of " + std::to_string(n);
        EXPECT_EQ(r.result.verdict, Verdict::Unsafe) << pair;
        ASSERT_TRUE(r.result.cex) << pair;
        EXPECT_EQ(r.result.cex->what, unsafe_what(r.system, k, 0, j)) << pair;
        EXPECT_TRUE(replay(r.system, *r.result.cex)) << pair;
        EXPECT_EQ(r.result.broke_in_round, 1u) << pair;
      }
    }
  }
}

TEST(CheckConfigs, AMissingConfigDeadlocksTheOthers) {
  for (std::uint32_t n = 2; n <= 4; ++n) {
    for (std::uint32_t j = 0; j < n; ++j) {
      std::vector<ConfigBytes> cfgs = one_chip(n);
      cfgs.erase(cfgs.begin() + j);
      const ScenarioResult r = run(configs_scenario(cfgs));
      EXPECT_EQ(r.result.verdict, Verdict::Deadlock) << "without cfg" << j << " of " << n;
      EXPECT_EQ(r.result.global, GlobalStatus::NotReached) << "without cfg" << j << " of " << n;
    }
  }
}

TEST(CheckConfigs, AWrongConfigIsCaughtWhereverItSits) {
  const std::uint32_t n = 3;
  for (std::uint32_t k = 0; k < n; ++k) {
    // The first used lane of cfg k signals cfg0's block ("leader k arrived"): doubled, it
    // lets cfg0 through round 1 before cfg k arrives there -- except cfg0's own, which is
    // a residue only.
    const Verdict doubled = k == 0 ? Verdict::NotReusable : Verdict::Unsafe;
    for (const auto& [fault, verdict] : {std::pair{Fault::RaiseThreshold, Verdict::Deadlock},
                                         std::pair{Fault::ZeroLane, Verdict::Deadlock},
                                         std::pair{Fault::DoubleSignal, doubled}}) {
      Composition comp = *compose(Topology{.chips = 1, .leaders = n});
      ASSERT_TRUE(inject(comp, fault, k)) << name(fault);
      const ScenarioResult r = run(configs_scenario(comp.configs, Lowering::Table, 2));
      EXPECT_EQ(r.result.verdict, verdict) << name(fault) << " in cfg" << k;
      ASSERT_TRUE(r.result.cex) << name(fault) << " in cfg" << k;
      EXPECT_TRUE(replay(r.system, *r.result.cex)) << name(fault) << " in cfg" << k;
      // The 1-round system already fails (a residue, a dead end).
      EXPECT_EQ(r.result.broke_in_round, 1u) << name(fault) << " in cfg" << k;
      if (verdict == Verdict::Unsafe) {
        EXPECT_EQ(r.result.cex->what, unsafe_what(r.system, 0, 1, k));
      }
    }
  }
}

TEST(CheckConfigs, TheOrderOfTheFilesDoesNotMatter) {
  // A config given later (the "slow" one: it starts last in the file order) is the same
  // system up to renaming: the same verdict, the pair renamed with it.
  std::vector<ConfigBytes> cfgs = skip_wait(one_chip(3), 0, 2);
  std::rotate(cfgs.begin(), cfgs.begin() + 1, cfgs.end());  // cfg0 -> cfg2, cfg2 -> cfg1
  const ScenarioResult r = run(configs_scenario(cfgs));
  EXPECT_EQ(r.result.verdict, Verdict::Unsafe);
  ASSERT_TRUE(r.result.cex);
  EXPECT_EQ(r.result.cex->what, unsafe_what(r.system, 2, 0, 1));
}

}  // namespace
}  // namespace neffbar::model
