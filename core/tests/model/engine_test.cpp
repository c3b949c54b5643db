// The engines behind decide() (engine.h) on hand-made and composed systems: each
// verdict and its counterexample, the declared and global modes, the reductions
// against the unreduced search, the static oracle, broke-in-round and its re-checks,
// random schedules, and why a system is not persistent whichever engine ran.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <variant>

#include "hand_made.h"
#include "neffbar/model/engines/common/block.h"
#include "neffbar/model/engines/engine.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/engines/explicit/symmetry.h"
#include "neffbar/model/engines/oracle.h"
#include "neffbar/model/frontend/faults.h"
#include "neffbar/model/scenarios/scenario.h"

namespace neffbar::model {
namespace {

using namespace hand_made;

// Two processes, each signals the other then waits: a correct 2-party barrier.
System good_pair() {
  return make(2, {{arrive(), inc(1), wait(0, 1), depart()}, {arrive(), inc(0), wait(1, 1), depart()}}, {{0, 1}, {0, 1}});
}

void expect_verdict(const System& sys, Verdict v) {
  for (bool reduce : {false, true}) {
    CheckOptions o;
    o.reduce = reduce;
    const CheckResult r = check_explicit(sys, o);
    EXPECT_EQ(r.verdict, v) << "reduce=" << reduce << " got " << verdict_name(r.verdict);
    if (v != Verdict::Ok && v != Verdict::Budget) {
      ASSERT_TRUE(r.cex.has_value());
      EXPECT_TRUE(replay(sys, *r.cex)) << format_counterexample(sys, *r.cex);
      EXPECT_FALSE(r.cex->what.empty());
    }
  }
}

TEST(Engines, EachVerdictFromAHandMadeSystem) {
  expect_verdict(good_pair(), Verdict::Ok);
  // DEADLOCK: both wait before signalling.
  expect_verdict(make(2, {{arrive(), wait(0, 1), inc(1), depart()}, {arrive(), wait(1, 1), inc(0), depart()}}),
                 Verdict::Deadlock);
  // UNSAFE: p0 does not wait at all but declares p1 in its guarantee.
  expect_verdict(make(2, {{arrive(), inc(1), depart()}, {arrive(), wait(1, 1), depart()}}, {{0, 1}, {0, 1}}),
                 Verdict::Unsafe);
  // GLOBAL_UNSAFE: the same, but p0 only declares itself.
  expect_verdict(make(2, {{arrive(), inc(1), depart()}, {arrive(), wait(1, 1), depart()}}, {{0}, {0, 1}}),
                 Verdict::GlobalUnsafe);
  // NOT_REUSABLE: a signal nobody consumes.
  expect_verdict(make(2, {{arrive(), inc(1), inc(1), wait(0, 1), depart()}, {arrive(), inc(0), wait(1, 1), depart()}},
                      {{0, 1}, {0, 1}}),
                 Verdict::NotReusable);
  // OVERFLOW
  expect_verdict(make(1, {{inc_val(0, INT32_MAX), inc(0)}}), Verdict::Overflow);
  // BUDGET
  System big = good_pair();
  CheckOptions o;
  o.max_states = 0;
  o.reduce = false;
  EXPECT_EQ(check_explicit(big, o).verdict, Verdict::Budget);
}

TEST(Engines, DeclaredModeReportsTheGlobalFindingWithoutFailing) {
  const System s = make(2, {{arrive(), inc(1), depart()}, {arrive(), wait(1, 1), depart()}}, {{0}, {0, 1}});
  CheckOptions o;
  o.guarantee = GuaranteeMode::Declared;
  const CheckResult r = check_explicit(s, o);
  EXPECT_EQ(r.verdict, Verdict::Ok);
  ASSERT_TRUE(r.global_finding.has_value());
  EXPECT_TRUE(replay(s, *r.global_finding));
  EXPECT_NE(r.global_finding->what.find("p0 departed round 0 before p1 arrived"), std::string::npos);
}

TEST(Engines, CounterexamplesAreShortestAndATamperedOneDoesNotReplay) {
  const System s = make(2, {{arrive(), wait(0, 1), inc(1), depart()}, {arrive(), wait(1, 1), inc(0), depart()}});
  CheckOptions o;
  o.reduce = false;
  const CheckResult r = check_explicit(s, o);
  ASSERT_EQ(r.verdict, Verdict::Deadlock);
  EXPECT_EQ(r.cex->trace.size(), 2u);  // both ARRIVE, then stuck
  EXPECT_EQ(r.cex->trace.front().step, 1u);  // atomic steps count from 1
  EXPECT_EQ(check_explicit(good_pair()).global, GlobalStatus::Holds);  // the explicit search, run to the end
  Counterexample bad = *r.cex;
  bad.trace.pop_back();
  EXPECT_FALSE(replay(s, bad));
  bad = *r.cex;
  bad.kind = Verdict::Unsafe;
  EXPECT_FALSE(replay(s, bad));
  const std::string text = format_counterexample(s, *r.cex);
  EXPECT_NE(text.find("  1. p"), std::string::npos) << text;
}

TEST(Engines, InstructionCountCountsEveryInstruction) {
  EXPECT_EQ(instruction_count(good_pair()), 8u);
  EXPECT_EQ(instruction_count(System{}), 0u);
}

// A run that ends well replays as no kind of failure; cut before the end, as DEADLOCK
// only where nothing can move.
TEST(Engines, AGoodRunReplaysAsNoFailure) {
  const System s = good_pair();
  Counterexample run;
  std::uint32_t step = 0;
  for (auto [p, pc] : {std::pair{0u, 0u}, {0u, 1u}, {1u, 0u}, {1u, 1u}, {0u, 2u}, {0u, 3u}, {1u, 2u}, {1u, 3u}}) {
    run.trace.push_back(TraceEntry{++step, p, pc});
  }
  for (Verdict v : {Verdict::Deadlock, Verdict::NotReusable, Verdict::Unsafe, Verdict::GlobalUnsafe, Verdict::Overflow}) {
    run.kind = v;
    EXPECT_FALSE(replay(s, run)) << verdict_name(v);
  }
  run.trace.resize(4);  // both signalled: both waits can go
  run.kind = Verdict::Deadlock;
  EXPECT_FALSE(replay(s, run));
}

// Reductions are checked against the unreduced search --------------------------------
struct Variant {
  bool reduce, por, sym;
};

// Small enough for the unreduced search with collect_all (a few seconds in all).
std::vector<Scenario> small_scenarios() {
  std::vector<Scenario> out;
  for (auto [C, L] : {std::pair{1u, 2u}, {1u, 3u}, {2u, 1u}, {2u, 2u}, {3u, 1u}}) {
    for (Fabric f : {Fabric::Default, Fabric::Switch}) {
      for (bool hcc : {true, false}) {
        for (Lowering low : {Lowering::Table, Lowering::Hierarchical, Lowering::ArriveWait}) {
          for (Wiring w : {Wiring::PerPeer, Wiring::Counting}) {
            for (DecMode d : {DecMode::One, DecMode::Target}) {
              Scenario s;
              s.topo = Topology{C, L, f, hcc, C * L <= 3 ? 2u : 1u, w, low};
              s.hyp.dec = d;
              out.push_back(s);
            }
          }
        }
      }
    }
  }
  return out;
}

TEST(Engines, ReductionsAgreeWithTheUnreducedSearch) {
  std::size_t sym_used = 0, compared = 0;
  for (const Scenario& s : small_scenarios()) {
    const Result<Composition> comp = compose(s.topo);
    ASSERT_TRUE(comp.ok());
    for (Fault f : {Fault::None, Fault::RaiseThreshold, Fault::ZeroLane}) {
      Composition faulty = *comp;
      if (!inject(faulty, f, 0)) continue;
      const Lowered low = *lower_with_hints(faulty, s.hyp);
      const System& sys = low.system;
      CheckOptions base;
      base.reduce = base.por = base.symmetry = false;
      base.collect_all = true;
      base.symmetry_hints = low.hints;
      const CheckResult ref = check_explicit(sys, base);
      ASSERT_NE(ref.verdict, Verdict::Budget);
      for (const Variant v : {Variant{true, false, false}, Variant{true, true, false}, Variant{true, false, true},
                              Variant{true, true, true}}) {
        CheckOptions o = base;
        o.reduce = v.reduce;
        o.por = v.por;
        o.symmetry = v.sym;
        const CheckResult r = check_explicit(sys, o);
        ++compared;
        sym_used += r.search().symmetry_used;
        EXPECT_EQ(r.found_mask, ref.found_mask)
            << scenario_title(s.topo, s.hyp) << " fault " << name(f) << " variant " << v.reduce << v.por << v.sym;
        EXPECT_LE(r.search().states, ref.search().states);
        if (r.cex) {
          EXPECT_TRUE(replay(sys, *r.cex)) << scenario_title(s.topo, s.hyp) << " fault " << name(f);
        }
        o.collect_all = false;
        EXPECT_EQ(check_explicit(sys, o).verdict, check_explicit(sys, [&] { auto b = base; b.collect_all = false; return b; }()).verdict)
            << scenario_title(s.topo, s.hyp) << " fault " << name(f);
      }
    }
  }
  EXPECT_GT(compared, 500u);
  EXPECT_GT(sym_used, 100u);  // the symmetric cases really used the symmetry
}

// The reduce switch turns the partial-order reduction off too (por left at its
// default): the search stores what it stores with every reduction off.
TEST(Engines, ReduceOffUsesNoPartialOrderReduction) {
  Topology t{2, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table};
  const Lowered low = *lower_with_hints(*compose(t), {});
  CheckOptions o;
  o.symmetry = false;
  o.collect_all = true;
  const SearchStats por = check_explicit(low.system, o).search();
  ASSERT_TRUE(por.por_used);
  o.reduce = false;
  const SearchStats off = check_explicit(low.system, o).search();
  EXPECT_FALSE(off.por_used);
  o.por = false;
  const SearchStats none = check_explicit(low.system, o).search();
  EXPECT_EQ(off.states, none.states);
  EXPECT_EQ(off.transitions, none.transitions);
  EXPECT_GT(off.states, por.states) << "the reductions reduce here, so the equality above says something";
}

TEST(Engines, SymmetryIsRefusedForAsymmetricSystems) {
  Topology t{2, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table};
  Composition comp = *compose(t);
  const Lowered sym = *lower_with_hints(comp, {});
  CheckOptions o;
  EXPECT_FALSE(check_explicit(sym.system, o).search().symmetry_used);  // no hints, no symmetry
  o.symmetry_hints = sym.hints;
  EXPECT_TRUE(check_explicit(sym.system, o).search().symmetry_used);
  o.reduce = false;
  // Unreduced, no symmetry; the reduce switch alone is pinned on a system symmetric
  // instruction by instruction (AutomaticSymmetry.ARingIsReducedByItsRotations).
  EXPECT_FALSE(check_explicit(sym.system, o).search().symmetry_used) << "no symmetry unreduced";
  o.reduce = true;
  SymmetryHints longer = sym.hints;  // malformed: one leader more than chips x leaders
  longer.leader_proc.push_back(static_cast<std::int32_t>(sym.system.procs.size()) - 1);  // the host: in no column yet
  o.symmetry_hints = longer;
  EXPECT_FALSE(check_explicit(sym.system, o).search().symmetry_used);
  SymmetryHints twice = sym.hints;  // malformed: a process in two columns
  twice.leader_proc[3] = twice.leader_proc[2];
  o.symmetry_hints = twice;
  EXPECT_FALSE(check_explicit(sym.system, o).search().symmetry_used);
  o.symmetry_hints = sym.hints;
  ASSERT_TRUE(inject(comp, Fault::RaiseThreshold, 1));
  const Lowered asym = *lower_with_hints(comp, {});
  o.symmetry_hints = asym.hints;
  EXPECT_FALSE(check_explicit(asym.system, o).search().symmetry_used);
}

TEST(Engines, StaticOracleAgreesWithTheExhaustiveChecker) {
  std::size_t applied = 0;
  for (const Scenario& s : small_scenarios()) {
    for (Fault f : {Fault::None, Fault::RaiseThreshold, Fault::ZeroLane, Fault::DoubleSignal}) {
      Composition comp = *compose(s.topo);
      if (!inject(comp, f, 0)) continue;
      const System sys = *lower(comp, s.hyp);
      const auto o = static_oracle(sys);
      if (!o) continue;
      ++applied;
      CheckOptions all;
      all.collect_all = true;
      const std::uint32_t mask = kComparedKinds;
      EXPECT_EQ(*o & mask, check_explicit(sys, all).found_mask & mask) << scenario_title(s.topo, s.hyp) << " fault " << name(f);
    }
  }
  EXPECT_GT(applied, 300u);
}

// The expected shape of the conflicts C1-C7 (core/neffbar/README.md) ----------------------
// The verdict, the same from the explicit search and from auto (the persistent engine
// wherever the system qualifies), with the same round it broke in.
Verdict verdict_of(Topology t, Hypotheses h = {}, GuaranteeMode g = GuaranteeMode::Global) {
  Scenario s;
  s.topo = t;
  s.hyp = h;
  s.run.check.guarantee = g;
  s.run.engine = Engine::Explicit;
  const auto e = run_scenario(s);
  s.run.engine = Engine::Auto;
  const auto a = run_scenario(s);
  EXPECT_EQ(e->result.verdict, a->result.verdict) << scenario_title(t, h);
  EXPECT_EQ(e->result.broke_in_round, a->result.broke_in_round) << scenario_title(t, h);
  return a->result.verdict;
}

TEST(Engines, TheTableOrderIsNotAGlobalBarrierFrom2x2) {  // C7
  Topology t{2, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table};
  EXPECT_EQ(verdict_of(t), Verdict::GlobalUnsafe);
  EXPECT_EQ(verdict_of(t, {}, GuaranteeMode::Declared), Verdict::Ok);
  t.lowering = Lowering::Hierarchical;
  EXPECT_EQ(verdict_of(t), Verdict::Ok);
  t.chips = 1;
  t.leaders = 4;
  t.lowering = Lowering::Table;
  EXPECT_EQ(verdict_of(t), Verdict::Ok);  // one chip: the table order is a barrier
  t = Topology{4, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Hierarchical};
  EXPECT_EQ(verdict_of(t), Verdict::GlobalUnsafe);  // chips 0 and 3 are not directly linked
}

TEST(Engines, HypothesesThatCannotHold) {
  const Topology t{2, 2, Fabric::Default, true, 2, Wiring::PerPeer, Lowering::Hierarchical};
  Hypotheses gt;
  gt.compare = Compare::Gt;
  EXPECT_EQ(verdict_of(t, gt), Verdict::Deadlock);  // C4: composed for >=
  Hypotheses narrative;
  narrative.roles = Roles::Narrative;
  EXPECT_EQ(verdict_of(t, narrative), Verdict::Deadlock);  // C2 with host-CC
  Hypotheses config;
  config.host_addrs = HostAddrs::Config;
  EXPECT_EQ(verdict_of(t, config), Verdict::Deadlock);  // C1: the host view is step-0 data
  Topology counting = t;
  counting.wiring = Wiring::Counting;
  EXPECT_EQ(verdict_of(counting), Verdict::Unsafe);  // C5: residue releases round 2 early
  Hypotheses target;
  target.dec = DecMode::Target;
  EXPECT_EQ(verdict_of(counting, target), Verdict::Ok);
  Topology no_hcc = t;
  no_hcc.host_cc = false;
  EXPECT_EQ(verdict_of(no_hcc), Verdict::Ok);
  Hypotheses no_proxy;
  no_proxy.proxy = false;
  EXPECT_EQ(verdict_of(no_hcc, no_proxy), Verdict::Deadlock);
}

// The verdict of three rounds is UNSAFE (it outranks NOT_REUSABLE); `broke in round` is
// the fewest rounds that already fail: one round leaves the residue (NOT_REUSABLE at k=1).
TEST(Engines, BrokeInRoundIsTheFewestRoundsThatAlreadyFail) {
  Scenario s;
  s.topo = Topology{1, 2, Fabric::Default, true, 3, Wiring::Counting, Lowering::Table};
  for (Engine e : {Engine::Explicit, Engine::Persistent}) {
    s.run.engine = e;
    const auto r = run_scenario(s);
    EXPECT_EQ(r->result.verdict, Verdict::Unsafe) << engine_name(e);
    EXPECT_EQ(r->result.broke_in_round, 1u) << engine_name(e);  // one round already leaves the residue (NOT_REUSABLE at k=1)
  }
}

// When the re-check of fewer rounds runs out of the scenario's time budget, the round it
// broke in is unknown: 0, and the note says so (never the round count it started from).
TEST(Engines, BrokeInRoundIsNotMeasuredWhenTheRecheckRunsOutOfBudget) {
  Scenario s;
  s.topo = Topology{1, 2, Fabric::Default, true, 3, Wiring::Counting, Lowering::Table};
  s.run.engine = Engine::Explicit;
  // How often the first check reads the clock: the same check alone, on a clock that
  // never runs out.  run_scenario reads it once more before, for the remaining budget.
  auto reads = std::make_shared<std::uint64_t>(0);
  Result<Lowered> built = build_system(s, 3);
  ASSERT_TRUE(built.ok());
  EngineOptions first = s.run;
  first.check.symmetry_hints = built->hints;
  first.check.clock = [reads] { return ++*reads, 0.0; };
  ASSERT_EQ(decide(built->system, first)->verdict, Verdict::Unsafe);
  const std::uint64_t n = 1 + *reads;
  // The clock runs out right after the first check: the 1-round re-check gets no time.
  auto left = std::make_shared<std::uint64_t>(n);
  s.run.check.clock = [left] { return *left > 0 ? (--*left, 0.0) : 1000.0; };
  const Result<ScenarioResult> r = run_scenario(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->result.verdict, Verdict::Unsafe);
  EXPECT_EQ(r->result.broke_in_round, 0u);
  EXPECT_TRUE(r->result.note.round_unmeasured);
  EXPECT_NE(note_text(r->result).find("broke in round: not measured (the budget ran out)"), std::string::npos) << note_text(r->result);
  // With time for it, the re-check measures it (the test above).
  s.run.check.clock = {};
  EXPECT_EQ(run_scenario(s)->result.broke_in_round, 1u);
}

TEST(Engines, ScaleTargetsAreExhaustive) {
  for (Lowering low : {Lowering::Table, Lowering::ArriveWait, Lowering::Hierarchical}) {
    Scenario s;
    s.topo = Topology{2, 4, Fabric::Default, true, 2, Wiring::PerPeer, low};
    s.run.check.guarantee = GuaranteeMode::Declared;
    s.run.engine = Engine::Explicit;
    const auto r = run_scenario(s);
    EXPECT_EQ(r->result.verdict, Verdict::Ok) << name(low);
    EXPECT_TRUE(r->result.exhaustive);
  }
  Scenario big;
  big.topo = Topology{4, 4, Fabric::Default, false, 2, Wiring::PerPeer, Lowering::Table};
  big.run.check.guarantee = GuaranteeMode::Declared;
  big.run.engine = Engine::Explicit;
  const auto r = run_scenario(big);
  EXPECT_EQ(r->result.verdict, Verdict::Ok);
  EXPECT_TRUE(r->result.search().symmetry_used);
}

TEST(Engines, RandomModeFindsC7AndRuns64Chips) {
  Scenario s;
  s.topo = Topology{2, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table};
  s.run.engine = Engine::Random;
  s.run.random_runs = 2000;
  s.run.seed = 7;
  const auto r = run_scenario(s);
  ASSERT_EQ(r->result.verdict, Verdict::GlobalUnsafe);
  EXPECT_TRUE(replay(r->system, *r->result.cex));
  Scenario big;
  big.topo = Topology{64, 4, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table};
  big.run.engine = Engine::Random;
  big.run.random_runs = 3;
  big.run.check.guarantee = GuaranteeMode::Declared;
  const auto b = run_scenario(big);
  EXPECT_EQ(b->result.verdict, Verdict::Ok);
  EXPECT_EQ(b->result.work().runs, 3u);
  EXPECT_FALSE(b->result.exact());
  EXPECT_NE(b->result.global, GlobalStatus::Holds);  // never "holds": broken (C7) or not refuted
  if (b->result.global_finding) {
    EXPECT_TRUE(replay(b->system, *b->result.global_finding));
  }
  EXPECT_GT(b->result.work().instructions, 3u * 64 * 4 * 20);           // the instructions it really executed
}

// run_block's contract (block.h): a block that is blocked or fails leaves the values as
// they were, even when its first instructions had changed them -- the search runs the
// next process's block on the same values.
TEST(Engines, ABlockThatFailsLeavesTheValuesAsTheyWere) {
  using namespace hand_made;
  System s = make(2, {{inc(1), inc(1), inc_val(0, 1)}, {wait(1, 5)}});
  s.semas[0].initial = std::numeric_limits<std::int32_t>::max();  // the third instruction overflows
  using detail::BlockResult, detail::Compiled, detail::run_block;
  const Compiled c(s, /*reduce=*/false, /*prefix_sums=*/true, /*blocks_wanted=*/true);
  const std::vector<std::uint32_t> pcs(2, 0);
  std::vector<std::int32_t> vals = c.init;
  const BlockResult r = run_block(c, pcs.data(), 0, 3, vals);
  EXPECT_EQ(r.status, detail::BlockStatus::Violation);
  EXPECT_EQ(r.kind, Verdict::Overflow);
  EXPECT_EQ(vals, c.init);
  EXPECT_EQ(run_block(c, pcs.data(), 1, 1, vals).status, detail::BlockStatus::Blocked);
  EXPECT_EQ(vals, c.init);
  EXPECT_EQ(run_block(c, pcs.data(), 0, 2, vals, {.keep = true}).status, detail::BlockStatus::Fired);
  EXPECT_EQ(vals[1], 2);
}

// decide()'s defaults (engine.h): random mode tries 100 schedules unless told otherwise.
TEST(Engines, RandomModeTriesTheDefault100Schedules) {
  EngineOptions o;
  o.engine = Engine::Random;
  const Result<CheckResult> r = decide(good_pair(), o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->work().runs, 100u);
  EXPECT_FALSE(r->exact());
  const EngineOptions from_scenario = Scenario{}.run;  // a scenario's (the CLI's) defaults too
  EXPECT_EQ(from_scenario.random_runs, 100u);
  EXPECT_EQ(from_scenario.seed, 1u);
}

// decide() says why the persistent engine cannot decide a system, whichever engine ran
// (and asked for by name, the persistent engine refuses it with that reason); a system
// that qualifies has no reason.  The note is left to what the engine that ran says.
TEST(Engines, DecideSaysWhyASystemIsNotPersistentWhicheverEngineRan) {
  const System two_consumers = make(2, {{arrive(), inc(0), wait(0, 1), depart()}, {arrive(), inc(0), wait(0, 1), depart()}});
  const Qualification q = qualify(two_consumers);
  ASSERT_FALSE(q.ok);
  ASSERT_FALSE(q.reason.empty());
  for (Engine e : {Engine::Auto, Engine::Explicit, Engine::Random}) {
    EngineOptions o;
    o.engine = e;
    const Result<CheckResult> r = decide(two_consumers, o);
    ASSERT_TRUE(r.ok()) << engine_name(e);
    EXPECT_EQ(r->not_persistent, q.reason) << engine_name(e);
    EXPECT_EQ(note_text(*r).find("persistent"), std::string::npos) << engine_name(e) << ": " << note_text(*r);
    const Result<CheckResult> good = decide(good_pair(), o);
    ASSERT_TRUE(good.ok()) << engine_name(e);
    EXPECT_EQ(good->not_persistent, "") << engine_name(e);
  }
  EngineOptions by_name;
  by_name.engine = Engine::Persistent;
  const Result<CheckResult> refused = decide(two_consumers, by_name);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().got, q.reason);
  by_name.engine = Engine::Auto;
  EXPECT_EQ(decide(two_consumers, by_name)->engine, Engine::Explicit);
  EXPECT_EQ(decide(good_pair(), by_name)->engine, Engine::Persistent);
}

// Each engine's statistics type, as the engine itself fills it: the explicit search
// counts states, the two engines that run the programs count instructions and runs.
TEST(EngineStats, EachEnginesTypeIsTheOneItFills) {
  EXPECT_TRUE(std::holds_alternative<SearchStats>(empty_stats(Engine::Explicit)));
  EXPECT_TRUE(std::holds_alternative<SearchStats>(empty_stats(Engine::Auto)));
  EXPECT_TRUE(std::holds_alternative<RunStats>(empty_stats(Engine::Persistent)));
  EXPECT_TRUE(std::holds_alternative<RunStats>(empty_stats(Engine::Random)));
  const System sys = make(1, {{arrive(), depart()}}, {{0}});
  for (const Engine e : {Engine::Explicit, Engine::Persistent, Engine::Random}) {
    EngineOptions o;
    o.engine = e;
    const Result<CheckResult> r = decide(sys, o);
    ASSERT_TRUE(r.ok()) << engine_name(e);
    EXPECT_EQ(r->stats.index(), empty_stats(e).index()) << engine_name(e);
  }
}

}  // namespace
}  // namespace neffbar::model
