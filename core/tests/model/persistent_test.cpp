// The persistent engine against the explicit search, by the one rule of
// props/engines_agree.h (the same failure kinds on every system both decide exactly,
// counterexamples that replay), and refusals that name the semaphore.
#include <gtest/gtest.h>

#include "hand_made.h"

#include "case_judge.h"
#include "engines_agree.h"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <tuple>

#include "testing/arbitrary_system.h"
#include "testing/reference_checker.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/frontend/faults.h"
#include "neffbar/model/frontend/lowering.h"
#include "neffbar/model/scenarios/matrix.h"
#include "neffbar/model/engines/persistent/persistent.h"
#include "neffbar/model/engines/persistent/runner.h"
#include "neffbar/model/scenarios/scenario.h"

namespace neffbar::model {
namespace {

using namespace hand_made;

CheckResult persistent(const System& s, bool all = true, GuaranteeMode g = GuaranteeMode::Global) {
  PersistentOptions o;
  o.collect_all = all;
  o.guarantee = g;
  const Result<CheckResult> r = check_persistent(s, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? *r : CheckResult{};
}

CheckResult explicit_all(const System& s, bool reduce = true) {
  CheckOptions o;
  o.collect_all = true;
  o.reduce = o.por = o.symmetry = reduce;
  return check_explicit(s, o);
}

// Two engines' answers by the law (props/engines_agree.h), a failure naming `what`.
bool agree(const System& s, const CheckResult& a, const CheckResult& b, const std::string& what) {
  return props::holds_on(what, [&](props::Judge& j) { props::engines_agree(s, a, b, j); });
}

// The persistent verdict, its mask and its counterexamples against the explicit search.
void expect_agree(const System& s, const std::string& what) {
  const CheckResult e = explicit_all(s);
  ASSERT_NE(e.verdict, Verdict::Budget) << what;
  const CheckResult p = persistent(s);
  EXPECT_TRUE(p.exact()) << what;
  agree(s, p, e, what);
  // A GLOBAL_UNSAFE shows the round it broke in: the earliest finding, not just any.
  if (p.verdict == Verdict::GlobalUnsafe && p.broke_in_round != 0 && p.cex && !p.cex->trace.empty()) {
    const TraceEntry& last = p.cex->trace.back();
    EXPECT_EQ(s.procs[last.proc].program[last.pc].round + 1u, p.broke_in_round) << what << "\n" << format_counterexample(s, *p.cex);
  }
  EXPECT_EQ(failing(p.verdict), failing(e.verdict)) << what;
  if (std::popcount(e.found_mask) <= 1) {
    EXPECT_EQ(p.verdict, check_explicit(s).verdict) << what;
  }
  // The global line: broken exactly when some participant can be passed.
  if (e.found_mask & bit(Verdict::GlobalUnsafe)) {
    EXPECT_EQ(p.global, GlobalStatus::Broken) << what;
  }
}

TEST(Persistent, RefusesWhatIsNotPersistentAndSaysWhy) {
  // A qualification nobody filled in refuses: the engine answers only where qualify() said so.
  EXPECT_FALSE(Qualification{}.ok);
  // Two consumers of s0.
  const System two = make(1, {{wait(0)}, {wait(0)}, {inc(0), inc(0)}});
  Qualification q = qualify(two);
  EXPECT_FALSE(q.ok);
  EXPECT_NE(q.reason.find("s0"), std::string::npos) << q.reason;
  EXPECT_NE(q.reason.find("p0 and p1"), std::string::npos) << q.reason;
  const Result<CheckResult> r = check_persistent(two);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("p0 and p1"), std::string::npos);
  // An equality wait.
  q = qualify(make(1, {{op(Prim::WaitEqAndInc, 0, 0)}}));
  EXPECT_FALSE(q.ok);
  EXPECT_NE(q.reason.find("equality"), std::string::npos) << q.reason;
  // A value that could leave int32.
  q = qualify(make(1, {{op(Prim::IncVal, 0, 0x7FFFFFFF), inc(0)}}));
  EXPECT_FALSE(q.ok);
  EXPECT_NE(q.reason.find("int32"), std::string::npos) << q.reason;
  // Another process's negative inc_val is a decrease.
  EXPECT_FALSE(qualify(make(1, {{wait(0)}, {op(Prim::IncVal, 0, -1)}})).ok);
  // A WaitGe reader counts as the consumer.
  EXPECT_FALSE(qualify(make(1, {{op(Prim::WaitGe, 0)}, {wait(0)}})).ok);
  EXPECT_TRUE(qualify(make(1, {{op(Prim::WaitGe, 0), wait(0)}, {inc(0)}})).ok);
  // Markers change no value (their op is a default Inc of semaphore 0, never run): an
  // increment to exactly INT32_MAX beside them qualifies.
  System edge = make(1, {{arrive(), arrive(), inc(0), depart(), depart()}});
  edge.semas[0].initial = INT32_MAX - 1;
  EXPECT_TRUE(qualify(edge).ok) << qualify(edge).reason;
  edge.semas[0].initial = INT32_MAX;
  EXPECT_FALSE(qualify(edge).ok);
}

// The reason names at most four processes: "p0, p1, p2 and p3", then "and N more".
TEST(Persistent, TheReasonNamesFourProcessesThenCountsTheRest) {
  const System four = make(1, {{wait(0)}, {wait(0)}, {wait(0)}, {wait(0)}});
  EXPECT_NE(qualify(four).reason.find("p0, p1, p2 and p3"), std::string::npos) << qualify(four).reason;
  EXPECT_EQ(qualify(four).reason.find("more"), std::string::npos) << qualify(four).reason;
  const System six = make(1, {{wait(0)}, {wait(0)}, {wait(0)}, {wait(0)}, {wait(0)}, {wait(0)}});
  EXPECT_NE(qualify(six).reason.find("p0, p1, p2, p3 and 2 more"), std::string::npos) << qualify(six).reason;
}

// A guarantee may name a process twice, or one that does not exist: the second is
// never arrived, the first counts once -- as in the reference checker.
TEST(Persistent, RepeatedAndMissingProcessesInAGuarantee) {
  System s = make(1, {{arrive(), inc(0), depart()}, {arrive(), wait(0), depart()}}, {{1, 1}, {0, 0, 7}});
  expect_agree(s, "repeated and missing guarantees");
  EXPECT_EQ(persistent(s).found_mask, testing::reference_check(s).found_mask);
  EXPECT_EQ(persistent(s).found_mask, bit(Verdict::Unsafe));  // p0 may leave before p1 arrives
}

// A counterexample is cut to what the violation depends on: a process that only
// touches a semaphore nobody reads is not in it, even where the greedy run ran it first.
TEST(Persistent, TheCounterexampleLeavesOutWhatTheViolationDoesNotDependOn) {
  const System s = make(3, {{arrive(), depart()}, {inc(0), arrive(), depart()}, {inc(2), inc(2)}}, {{1}, {}, {}});
  const CheckResult r = persistent(s, /*all=*/false);
  ASSERT_EQ(r.verdict, Verdict::Unsafe);
  ASSERT_TRUE(r.cex.has_value());
  EXPECT_TRUE(replay(s, *r.cex)) << format_counterexample(s, *r.cex);
  for (const TraceEntry& e : r.cex->trace) EXPECT_NE(e.proc, 2u) << format_counterexample(s, *r.cex);
}

// The witness runs held where the analysis found the violation, not free to the last
// round: 64 device-only configs at 3 rounds break in round 0, and the counterexample holds
// round 0 alone (free, the greedy run let some processes take later rounds' increments,
// which the cut then kept: 112 steps, 20 of round 1; at 1000 rounds of 64x4 the run
// recorded 400 MB before the cut).
TEST(Persistent, TheCounterexampleStaysInTheRoundsOfItsViolation) {
  const Result<Composition> comp = compose(Topology{64, 1, Fabric::Default, false, 1, Wiring::PerPeer, Lowering::Hierarchical});
  ASSERT_TRUE(comp.ok());
  const Result<System> s = lower_configs(comp->configs, Fabric::Default, Lowering::Hierarchical, 3, Hypotheses{});
  ASSERT_TRUE(s.ok());
  const CheckResult r = persistent(*s, /*all=*/false);
  ASSERT_EQ(r.verdict, Verdict::Unsafe);
  ASSERT_TRUE(r.cex.has_value());
  EXPECT_TRUE(replay(*s, *r.cex));
  EXPECT_EQ(r.cex->trace.size(), 36u);
  for (const TraceEntry& e : r.cex->trace) EXPECT_EQ(s->procs[e.proc].program[e.pc].round, 0u) << format_counterexample(*s, *r.cex);
}

// Nor is an increment by zero of a semaphore the violation waits on: it changes nothing
// the wait reads.
TEST(Persistent, TheCounterexampleLeavesOutAnIncrementByZeroOfTheSemaphoreItWaitsOn) {
  const System s = make(1, {{arrive(), wait(0), depart()}, {arrive()}, {inc_val(0, 0)}, {inc(0)}}, {{1}});
  const CheckResult r = persistent(s, /*all=*/false);
  ASSERT_EQ(r.verdict, Verdict::Unsafe);
  ASSERT_TRUE(r.cex.has_value());
  EXPECT_TRUE(replay(s, *r.cex)) << format_counterexample(s, *r.cex);
  EXPECT_FALSE(r.cex->trace.empty());
  for (const TraceEntry& e : r.cex->trace) EXPECT_NE(e.proc, 2u) << format_counterexample(s, *r.cex);
}

// The runner's dirty lists name each process and semaphore a run changed once, and a
// commit empties them: a held run and its rollback cost what the run changed, not what
// ran since the engine started (the analysis makes one held run per process and round).
TEST(Persistent, TheRunnerListsWhatARunChangedOnceAndACommitStartsAfresh) {
  const System s = make(2, {{inc(0), inc(0), inc(0), inc(1)}, {wait(0, 3, 3)}});
  const persistent::Net n(s);
  persistent::Runner run(n);
  run.lim = n.len;
  run.push(0);
  run.push(1);
  run.run();
  EXPECT_EQ(run.pc, (std::vector<std::uint32_t>{4, 1}));
  EXPECT_EQ(run.val, (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(run.dirty_procs().size(), 2u);
  EXPECT_EQ(run.dirty_semas().size(), 2u) << "s0 changed four times, listed once";
  run.commit();
  EXPECT_TRUE(run.dirty_procs().empty());
  EXPECT_TRUE(run.dirty_semas().empty());
  run.rollback();  // to the committed base: nothing moves
  EXPECT_EQ(run.pc, (std::vector<std::uint32_t>{4, 1}));
  EXPECT_EQ(run.val, (std::vector<std::int64_t>{0, 1}));
}

// Round-structured, two rounds: p0 may leave round 0 before p2 arrives (not in its
// guarantee: global-only, decided by refining beside the UNSAFE) and may leave round 1
// before p1 arrives (UNSAFE).  The global-only finding is in the 1-round system already,
// so under the global guarantee the system broke in round 1, as the reference says.
TEST(Persistent, ARefinedGlobalOnlyFindingCountsForTheRoundItBrokeIn) {
  const System s = make(2,
                        {{arrive(0), wait(1), depart(0), arrive(1), depart(1)},
                         {arrive(0), inc(1), arrive(1)},
                         {arrive(0), arrive(1)}},
                        {{1}}, /*rounds=*/2);
  ASSERT_TRUE(testing::round_structured(s));
  EXPECT_EQ(testing::reference_broke_in_round(s, GuaranteeMode::Global), 1u);
  for (bool all : {true, false}) {
    const CheckResult r = persistent(s, all);
    EXPECT_EQ(r.verdict, Verdict::Unsafe) << all;
    EXPECT_TRUE(r.found_mask & bit(Verdict::GlobalUnsafe)) << all;
    EXPECT_EQ(r.broke_in_round, 1u) << all;
  }
  expect_agree(s, "refined global-only");
}

// A global finding of the 1-round system: p0 left round 0 before process q arrived, the
// trace replays and runs only round-0 instructions.
void expect_round0_finding_past(const System& s, const Counterexample& c, std::uint32_t q) {
  EXPECT_EQ(c.what, global_what(s, 0, 0, q));
  EXPECT_TRUE(replay(s, c)) << format_counterexample(s, c);
  EXPECT_FALSE(c.trace.empty());
  for (const TraceEntry& e : c.trace) EXPECT_EQ(s.procs[e.proc].program[e.pc].round, 0u) << format_counterexample(s, c);
}

// With and without collect_all: the verdict `v`, and the global finding (the
// counterexample itself under GLOBAL_UNSAFE) is p0's of round 0, past p3.
void expect_finding_past_p3(const System& s, Verdict v, const std::string& what) {
  for (bool all : {true, false}) {
    const CheckResult r = persistent(s, all);
    ASSERT_EQ(r.verdict, v) << what << all;
    const std::optional<Counterexample>& c = v == Verdict::GlobalUnsafe ? r.cex : r.global_finding;
    ASSERT_TRUE(c.has_value()) << what << all;
    expect_round0_finding_past(s, *c, 3);
  }
  expect_agree(s, what);
}

// Two global-only findings in round 0: p0 may leave before p3 arrives in the 1-round
// system (p2's increment releases it), and before p2 arrives only in the 2-round one
// (p3's round-1 increment).  The one reported is the first system's, so the
// counterexample runs only round-0 instructions.
TEST(Persistent, TheGlobalFindingIsTheOneOfTheFewestRounds) {
  const System s = make(2,
                        {{arrive(0), wait(0), wait(1), depart(0), wait(0, 1, 1, 1)},
                         {arrive(0), inc(1)},
                         {arrive(0), inc(0)},
                         {arrive(0), inc(0, 1)}},
                        {{1}}, /*rounds=*/2);
  const CheckResult r = persistent(s);
  ASSERT_EQ(r.verdict, Verdict::GlobalUnsafe);
  EXPECT_EQ(r.broke_in_round, 1u);
  ASSERT_TRUE(r.cex.has_value());
  expect_round0_finding_past(s, *r.cex, 3);
  expect_agree(s, "two global-only findings");
}

// The same two findings of a departer that guarantees nobody but itself: no candidate,
// each is a global-only finding as it stands (Analysis::record), and the one reported is
// the earlier (past the one whose increment is of round 1: the other one's releases p0
// in round 0), whichever of p2 and p3 plays which part, so whichever is found first.
TEST(Persistent, TheGlobalFindingWithoutGuaranteeIsTheOneOfTheFewestRounds) {
  for (const std::uint32_t early : {2u, 3u}) {
    const std::uint32_t late = 5 - early;
    std::vector<std::vector<Instr>> progs = {{arrive(0), wait(0), wait(1), depart(0), wait(0, 1, 1, 1)}, {arrive(0), inc(1)}, {}, {}};
    progs[early] = {arrive(0), inc(0)};
    progs[late] = {arrive(0), inc(0, 1)};
    const System s = make(2, progs, {{0}}, /*rounds=*/2);
    const std::string what = "past p" + std::to_string(early) + " first";
    for (bool all : {true, false}) {
      const CheckResult r = persistent(s, all);
      ASSERT_EQ(r.verdict, Verdict::GlobalUnsafe) << what << all;
      EXPECT_EQ(r.broke_in_round, 1u) << what << all;
      ASSERT_TRUE(r.cex.has_value()) << what << all;
      expect_round0_finding_past(s, *r.cex, late);
    }
    expect_agree(s, what);
  }
}

// A DEPART of a round past the system's rounds, which nobody arrives in: the UNSAFE names
// the first member of the guarantee, as the explicit search does (p1, not p2).
TEST(Persistent, ADepartPastTheRoundsNamesTheGuaranteesFirstMember) {
  const System s = make(1,
                        {{arrive(0), wait(0, 2, 2), depart(0), depart(1)},
                         {arrive(0), inc(0)},
                         {arrive(0), inc(0)}},
                        {{0, 1, 2}}, /*rounds=*/1);
  for (bool all : {true, false}) {
    const CheckResult r = persistent(s, all);
    ASSERT_EQ(r.verdict, Verdict::Unsafe) << all;
    ASSERT_TRUE(r.cex.has_value()) << all;
    EXPECT_EQ(r.cex->what, unsafe_what(s, 0, 1, 1)) << all;
    EXPECT_TRUE(replay(s, *r.cex)) << format_counterexample(s, *r.cex);
  }
  const CheckResult e = check_explicit(s);
  ASSERT_TRUE(e.cex.has_value());
  EXPECT_EQ(e.cex->what, unsafe_what(s, 0, 1, 1));
}

// A system of zero rounds whose programs are a body repeated zero times (empty): nothing
// runs, nothing is left over, OK (no round length to divide by zero).
TEST(Persistent, ZeroRoundsOfEmptyProgramsIsOk) {
  System s = make(2, {{}, {}}, {}, /*rounds=*/0);
  for (std::uint32_t p = 0; p < 2; ++p) s.procs[p].program = Program::repeated({arrive(0), inc(p), wait(p), depart(0)}, 0);
  ASSERT_EQ(s.procs[0].program.size(), 0u);
  const CheckResult r = persistent(s);
  EXPECT_EQ(r.verdict, Verdict::Ok);
  EXPECT_TRUE(r.exact());
}

// With no UNSAFE, a candidate (a departer with a guarantee, global-only as it stands) and
// a finding of a departer with no guarantee: p0 may leave round 0 before p3 arrives, and
// p4, guaranteeing nobody, leaves round 1 before p1 arrives in it.  The earlier of the
// two, p0's of round 0, is the one reported.
TEST(Persistent, TheGlobalFindingIsTheEarlierOfACandidateAndAFindingWithoutGuarantee) {
  const System s = make(2,
                        {{arrive(0), wait(0), wait(1), depart(0)},
                         {arrive(0), inc(1), arrive(1)},
                         {arrive(0), inc(0)},
                         {arrive(0)},
                         {arrive(1), depart(1)}},
                        {{1}}, /*rounds=*/2);
  expect_finding_past_p3(s, Verdict::GlobalUnsafe, "a candidate before a finding without guarantee");
}

// The same beside an UNSAFE, where global-only candidates are refined: p0 may leave
// round 0 before p1 (its guarantee) arrives, and before p2 or p3.  Refined (p1 arrived),
// passing p3 needs one round (p2 releases p1) and passing p2 two (p3's round-1 increment
// does): the finding reported is p3's, whichever candidate is refined first.
TEST(Persistent, TheGlobalFindingBesideAnUnsafeIsTheOneOfTheFewestRounds) {
  const System s = make(1,
                        {{arrive(0), depart(0)},
                         {wait(0), arrive(0), wait(0, 1, 1, 1)},
                         {arrive(0), inc(0)},
                         {arrive(0), inc(0, 1)}},
                        {{1}}, /*rounds=*/2);
  expect_finding_past_p3(s, Verdict::Unsafe, "global-only findings beside an UNSAFE");
}

// With no UNSAFE the candidates are global-only as they stand (Analysis::record), so none
// is refined: 2x2 with the table lowering, which breaks only the global property (C7),
// takes 5 greedy runs (pinned: a refined candidate would be one run more).
TEST(Persistent, WithoutAnUnsafeNoCandidateIsRefined) {
  Result<Composition> comp = compose(Topology{2, 2, Fabric::Default, false, 1, Wiring::PerPeer, Lowering::Table});
  ASSERT_TRUE(comp.ok());
  Result<Lowered> low = lower_with_hints(*comp, Hypotheses{});
  ASSERT_TRUE(low.ok());
  const CheckResult r = persistent(low->system);
  ASSERT_EQ(r.verdict, Verdict::GlobalUnsafe);
  EXPECT_EQ(r.found_mask & bit(Verdict::Unsafe), 0u);
  EXPECT_EQ(r.work().runs, 5u);
}

TEST(Persistent, EachVerdictOnHandMadeSystems) {
  const System good = make(2, {{arrive(), inc(1), wait(0), depart()}, {arrive(), inc(0), wait(1), depart()}}, {{0, 1}, {0, 1}});
  EXPECT_EQ(persistent(good).verdict, Verdict::Ok);
  EXPECT_EQ(persistent(good).global, GlobalStatus::Holds);
  EXPECT_EQ(note_text(persistent(good)), "persistent system: exact from " + std::to_string(persistent(good).work().runs) +
                                             " greedy runs; the counterexample is a greedy run cut to what the violation "
                                             "depends on, not necessarily a shortest one");
  const System dead = make(2, {{arrive(), wait(0), inc(1), depart()}, {arrive(), wait(1), inc(0), depart()}});
  EXPECT_EQ(persistent(dead).verdict, Verdict::Deadlock);
  EXPECT_EQ(persistent(dead).global, GlobalStatus::NotReached);
  const System unsafe = make(2, {{arrive(), inc(1), depart()}, {arrive(), wait(1), depart()}}, {{0, 1}, {0, 1}});
  EXPECT_EQ(persistent(unsafe).verdict, Verdict::Unsafe);
  const System global = make(2, {{arrive(), inc(1), depart()}, {arrive(), wait(1), depart()}});
  EXPECT_EQ(persistent(global).verdict, Verdict::GlobalUnsafe);
  EXPECT_EQ(persistent(global, true, GuaranteeMode::Declared).verdict, Verdict::Ok);
  EXPECT_EQ(persistent(global, true, GuaranteeMode::Declared).global, GlobalStatus::Broken);
  const System residue = make(1, {{inc(0), inc(0), wait(0, 2)}});
  EXPECT_EQ(persistent(residue).verdict, Verdict::NotReusable);
  for (const System* s : {&good, &dead, &unsafe, &global, &residue}) expect_agree(*s, "hand-made");
}

TEST(Persistent, EqualityOfTheThresholdAndTheCompare) {
  // wait >= 2 after two increments releases under GE, not under GT.
  System s = make(1, {{op(Prim::WaitGeAndDec, 0, 2, 2)}, {inc(0), inc(0)}});
  EXPECT_EQ(persistent(s).verdict, Verdict::Ok);
  s.compare = Compare::Gt;
  EXPECT_EQ(persistent(s).verdict, Verdict::Deadlock);
  expect_agree(s, "gt");
}

// Composed systems: every scenario of the hypothesis matrix (all four reference
// topologies), with and without each fault, against the explicit search with each
// reduction switched on and off (the unreduced search where it stays small).
TEST(Persistent, AgreesWithTheExplicitSearchOnTheMatrixAndFaults) {
  std::size_t compared = 0, refused = 0, unreduced = 0, big = 0;
  std::size_t row = 0;
  for (const Scenario& s : matrix_scenarios(kSanitized)) {
    // 4x4 takes ~0.2 s a scenario in the explicit search: every 11th (coprime to the
    // matrix's 2-valued axes, so every hypothesis is visited), without faults.
    if (s.topo.chips * s.topo.leaders > 8 && row++ % 11 != 0) continue;
    for (Fault f : {Fault::None, Fault::RaiseThreshold, Fault::ZeroLane, Fault::DoubleSignal}) {
      if (s.topo.chips * s.topo.leaders > 8 && f != Fault::None) continue;
      Composition comp = *compose(s.topo);
      if (!inject(comp, f, 0)) continue;
      const Lowered low = *lower_with_hints(comp, s.hyp);
      const System& sys = low.system;
      const std::string what = scenario_title(s.topo, s.hyp) + " fault " + std::string(name(f));
      if (!qualify(sys).ok) {
        ++refused;
        EXPECT_FALSE(check_persistent(sys).ok());
        continue;
      }
      ++compared;
      const CheckResult p = persistent(sys);
      EXPECT_TRUE(p.exact()) << what;
      const bool small = s.topo.chips * s.topo.leaders <= 4;
      for (const auto& [reduce, por, sym] : {std::tuple{true, true, true}, {true, false, false}, {true, true, false},
                                             {true, false, true}, {false, false, false}}) {
        // The variants on the small topologies; 2x4 and 4x4 with every reduction on.
        if (!small && !(reduce && por && sym)) continue;
        CheckOptions o;
        o.collect_all = true;
        o.reduce = reduce;
        o.por = por;
        o.symmetry = sym;
        o.symmetry_hints = low.hints;
        o.max_states = small ? 2'000'000 : 150'000;  // 4x4 without host-CC (16 proxies) is larger
        const CheckResult e = check_explicit(sys, o);
        if (e.verdict == Verdict::Budget) continue;
        unreduced += !reduce;
        big += s.topo.chips * s.topo.leaders > 8;
        agree(sys, p, e, what + " reductions " + std::to_string(reduce) + std::to_string(por) + std::to_string(sym));
      }
      if (small) expect_agree(sys, what);
    }
  }
  EXPECT_GT(unreduced, 1000u);
  if (!kSanitized) {
    EXPECT_GT(big, 10u);
  }
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(compared, 2000u);
  EXPECT_EQ(refused, 0u);  // every composed system qualifies (the README says so)
}

// The README's claim: every scenario of the full matrix and of the full-scale table is
// persistent, so `auto` decides all of them exactly.
TEST(Persistent, EveryComposedScenarioQualifies) {
  std::vector<Scenario> all = matrix_scenarios(false);
  const std::vector<Scenario> full = full_scenarios();
  for (std::size_t i = 0; i < full.size(); i += 7) {  // a stride through the 9288 (each is lowered)
    if (full[i].topo.rounds == 1) all.push_back(full[i]);
  }
  for (const Scenario& s : all) {
    const Qualification q = qualify(*lower(*compose(s.topo), s.hyp));
    EXPECT_TRUE(q.ok) << scenario_title(s.topo, s.hyp) << ": " << q.reason;
  }
  // And the declared guarantees of the per-peer wiring hold at every size (the README's
  // full-table section), exactly.
  for (std::size_t i = 0; i < full.size(); i += 29) {
    Scenario s = full[i];
    if (s.topo.wiring != Wiring::PerPeer) continue;
    s.run.check.guarantee = GuaranteeMode::Declared;
    const auto r = run_scenario(s);
    EXPECT_EQ(r->result.verdict, Verdict::Ok) << scenario_title(s.topo, s.hyp);
    EXPECT_TRUE(r->result.exact()) << scenario_title(s.topo, s.hyp);
  }
}

TEST(Persistent, AgreesWithTheUnreducedSearch) {
  for (auto [C, L] : {std::pair{1u, 2u}, {2u, 1u}, {1u, 3u}}) {
    for (bool hcc : {true, false}) {
      for (Lowering low : {Lowering::Table, Lowering::ArriveWait, Lowering::Hierarchical}) {
        for (Fault f : {Fault::None, Fault::RaiseThreshold, Fault::ZeroLane, Fault::DoubleSignal}) {
          Composition comp = *compose(Topology{C, L, Fabric::Default, hcc, 2, Wiring::PerPeer, low});
          if (!inject(comp, f, 0)) continue;
          const System sys = *lower(comp, {});
          agree(sys, persistent(sys), explicit_all(sys, false),
                std::to_string(C) + "x" + std::to_string(L) + " " + std::string(name(low)) + " " + std::string(name(f)));
        }
      }
    }
  }
}

TEST(Persistent, AgreesWithTheExplicitSearchOnArbitraryPersistentSystems) {
  std::mt19937_64 rng(20261130);
  std::uint32_t kinds = 0, tried = 0;
  for (int i = 0; i < (std::getenv("NEFFBAR_STRESS") ? 200000 : 3000); ++i) {
    const System s = arbitrary_system([&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); });
    if (!qualify(s).ok) continue;
    ++tried;
    const CheckResult e = explicit_all(s, false);
    if (e.verdict == Verdict::Budget) continue;
    kinds |= e.found_mask;
    ASSERT_TRUE(agree(s, persistent(s), e, "system " + std::to_string(i))) << listing(s);
  }
  EXPECT_GT(tried, 1000u);
  // The generator reaches every kind the engine decides.
  for (Verdict v : {Verdict::Ok, Verdict::Deadlock, Verdict::Unsafe, Verdict::GlobalUnsafe, Verdict::NotReusable}) {
    if (v != Verdict::Ok) {
      EXPECT_TRUE(kinds & bit(v)) << verdict_name(v);
    }
  }
}

}  // namespace
}  // namespace neffbar::model
