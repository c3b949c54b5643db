// The budget_cuts property's law (properties.h) at EVERY cut point, not two drawn ones:
// each engine on arbitrary systems and each engine on small composed scenarios (the
// symmetry verification, the search, the re-checks of fewer rounds, the persistent
// analysis, the random schedules) cut at every read of the clock, and the explicit
// search at every state count.  Between two cut points the verdict may only go from
// BUDGET to the uncut one, never back.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "properties.h"

namespace neffbar::props {
namespace {

struct Sweep {
  std::uint64_t points = 0;   // cut runs made
  std::uint64_t changed = 0;  // of which the cut changed the result (BUDGET)
  std::map<std::string, std::uint64_t> phases;  // where the cut landed, by the note it left
};

// The phase a cut landed in, read off the note the cut run left.
std::string phase_of(const CheckResult& r) {
  const std::string n = note_text(r);
  const auto has = [&](const char* s) { return n.find(s) != std::string::npos; };
  if (has("before the check started")) return "compose+lower";
  if (r.exhaustive || (r.engine == Engine::Random && !has("time budget"))) {
    return has("broke in round: not measured") ? "re-checks" : "after the decision";
  }
  if (r.engine == Engine::Persistent) return "persistent analysis";
  if (r.engine == Engine::Random) return "random schedules";
  if (has("before the search started")) return "search start";
  if (has("verifying the symmetry")) return "symmetry";
  return "search";
}

// Cuts `in` at every point 0..extent of its uncut run; every law of budget_cuts_are_honest
// at each, and monotone along the points.
Sweep sweep(const CutInput& in, const std::string& what) {
  Sweep s;
  const CutImpl impl;
  const std::optional<CutRun> full = run_cut(in, impl, UINT64_MAX);
  if (!full) return s;
  bool uncut_seen = false;
  const std::vector<std::uint64_t> points = cut_points(in, *full);
  for (const std::uint64_t k : points) {
    const std::optional<CutRun> c = run_cut(in, impl, k);
    EXPECT_TRUE(c.has_value()) << what << " k=" << k;
    if (!c) continue;
    ++s.points;
    s.changed += c->res.verdict == Verdict::Budget && full->res.verdict != Verdict::Budget;
    ++s.phases[phase_of(c->res)];
    const std::string wrong = cut_disagreement(*full, *c, in, k);
    EXPECT_EQ(wrong, "") << what << ", cut at " << k << " (" << points.size() << " points): " << verdict_name(c->res.verdict)
                         << " (uncut " << verdict_name(full->res.verdict) << "), note: " << note_text(c->res);
    const bool uncut = c->res.verdict == full->res.verdict;
    EXPECT_FALSE(uncut_seen && !uncut) << what << ": the uncut verdict at an earlier cut, " << verdict_name(c->res.verdict)
                                       << " at " << k;
    uncut_seen = uncut_seen || uncut;
  }
  return s;
}

void report(const char* label, const Sweep& s, double seconds) {
  std::printf("  %-48s %7llu cut points, %6llu of them BUDGET, %.1f s;", label, static_cast<unsigned long long>(s.points),
              static_cast<unsigned long long>(s.changed), seconds);
  for (const auto& [phase, n] : s.phases) std::printf(" %s %llu,", phase.c_str(), static_cast<unsigned long long>(n));
  std::printf("\n");
}

struct Timer {
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }
};

Sweep& operator+=(Sweep& a, const Sweep& b) {
  a.points += b.points;
  a.changed += b.changed;
  for (const auto& [phase, n] : b.phases) a.phases[phase] += n;
  return a;
}

// 300 arbitrary systems per engine and budget (the persistent engine's qualify).
void arbitrary_sweep(Engine engine, CutBudget budget, const char* label) {
  Timer t;
  Sweep total;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    std::mt19937_64 rng(seed * 7919);
    const auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
    ArbitraryShape shape;
    shape.persistent_only = engine == Engine::Persistent;
    CutInput in;
    in.sys = arbitrary_system(pick, shape);
    in.engine = engine;
    in.budget = budget;
    total += sweep(in, std::string(label) + " seed " + std::to_string(seed));
  }
  EXPECT_GT(total.points, 40u);
  EXPECT_GT(total.changed, 0u) << "no cut changed anything: the sweep cuts nowhere";
  report(label, total, t.seconds());
}

TEST(BudgetCuts, TheExplicitSearchAtEveryClockRead) { arbitrary_sweep(Engine::Explicit, CutBudget::Time, "explicit, arbitrary, time"); }
TEST(BudgetCuts, TheExplicitSearchAtEveryStateCount) { arbitrary_sweep(Engine::Explicit, CutBudget::States, "explicit, arbitrary, states"); }
TEST(BudgetCuts, TheExplicitSearchAtEveryMemoryGrowthStep) {
  arbitrary_sweep(Engine::Explicit, CutBudget::Memory, "explicit, arbitrary, memory");
}
TEST(BudgetCuts, ThePersistentEngineAtEveryClockRead) { arbitrary_sweep(Engine::Persistent, CutBudget::Time, "persistent, arbitrary, time"); }
TEST(BudgetCuts, RandomSchedulesAtEveryClockRead) { arbitrary_sweep(Engine::Random, CutBudget::Time, "random, arbitrary, time"); }

// Small composed scenarios whole: composing and lowering, the symmetry verification,
// the search and its re-checks of fewer rounds (failing multi-round ones), the persistent
// analysis, random schedules.
void composed_sweep(Engine engine, CutBudget budget, const char* label, std::vector<Topology> more = {}) {
  Timer t;
  Sweep total;
  std::uint64_t rechecked = 0;
  std::vector<Topology> topos = {Topology{1, 2, Fabric::Default, true, 2, Wiring::PerPeer, Lowering::Table},
                               Topology{2, 1, Fabric::Default, false, 3, Wiring::PerPeer, Lowering::Table},
                               Topology{2, 2, Fabric::Default, true, 2, Wiring::PerPeer, Lowering::Hierarchical},
                               Topology{1, 3, Fabric::Switch, false, 2, Wiring::PerPeer, Lowering::ArriveWait},
                               Topology{2, 2, Fabric::Default, false, 2, Wiring::Counting, Lowering::Table},
                               Topology{1, 4, Fabric::Default, true, 3, Wiring::PerPeer, Lowering::Table},
                               Topology{2, 2, Fabric::Switch, true, 3, Wiring::PerPeer, Lowering::Table},
                               Topology{4, 1, Fabric::Default, true, 2, Wiring::PerPeer, Lowering::Hierarchical},
                               Topology{2, 3, Fabric::Default, false, 2, Wiring::PerPeer, Lowering::ArriveWait}};
  topos.insert(topos.end(), more.begin(), more.end());
  for (const Topology& topo : topos) {
    CutInput in;
    in.composed = true;
    in.topo = topo;
    in.engine = engine;
    in.budget = budget;
    const std::optional<CutRun> full = run_cut(in, CutImpl{}, UINT64_MAX);
    rechecked += full && full->res.broke_in_round != 0 && full->res.broke_in_round < topo.rounds;
    total += sweep(in, std::string(label) + " " + scenario_title(topo, Hypotheses{}));
  }
  EXPECT_GT(total.changed, 0u) << "no cut changed anything: the sweep cuts nowhere";
  if (engine == Engine::Explicit) {
    EXPECT_GT(rechecked, 0u) << "no scenario broke before its last round: no re-check was cut";
  }
  report(label, total, t.seconds());
}

TEST(BudgetCuts, ComposedScenariosThroughTheExplicitSearchAtEveryClockRead) {
  composed_sweep(Engine::Explicit, CutBudget::Time, "explicit, composed (+symmetry, re-checks), time");
}
TEST(BudgetCuts, ComposedScenariosThroughTheExplicitSearchAtEveryStateCount) {
  composed_sweep(Engine::Explicit, CutBudget::States, "explicit, composed (+re-checks), states");
}
TEST(BudgetCuts, ComposedScenariosThroughTheExplicitSearchAtEveryMemoryGrowthStep) {
  composed_sweep(Engine::Explicit, CutBudget::Memory, "explicit, composed (+re-checks), memory");
}
// The persistent engine and random schedules decide large topologies too: up to the
// deployed 64x4 (its 257 greedy runs, each a point to cut at).
const std::vector<Topology> kLarge = {Topology{8, 4, Fabric::Default, true, 3, Wiring::PerPeer, Lowering::Hierarchical},
                                      Topology{16, 2, Fabric::Switch, false, 2, Wiring::PerPeer, Lowering::Table},
                                      Topology{64, 4, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Hierarchical}};
TEST(BudgetCuts, ComposedScenariosThroughThePersistentEngineAtEveryClockRead) {
  composed_sweep(Engine::Persistent, CutBudget::Time, "persistent, composed (up to 64x4), time", kLarge);
}
TEST(BudgetCuts, ComposedScenariosThroughRandomSchedulesAtEveryClockRead) {
  composed_sweep(Engine::Random, CutBudget::Time, "random, composed (up to 8x4), time", {kLarge[0]});
}

}  // namespace
}  // namespace neffbar::props
