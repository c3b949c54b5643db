// The engines' budgets (core/neffbar/model/README.md, "Budgets"), without timing
// anything: an injected clock says when the time is up, and the tests count what the
// engine did after that.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/engines/explicit/state_set.h"
#include "neffbar/model/engines/persistent/persistent.h"
#include "neffbar/model/engines/random/random_schedules.h"
#include "neffbar/model/engines/engine.h"
#include "neffbar/model/exports/promela.h"
#include "neffbar/model/scenarios/scenario.h"

#if defined(__GLIBC__)
#include <malloc.h>
#if __GLIBC_PREREQ(2, 33)
#define NEFFBAR_HAVE_MALLINFO2 1  // glibc's heap statistics, for the visited set's byte count
#endif
#endif

namespace neffbar::model {
namespace {

Lowered composed(std::uint32_t chips, std::uint32_t leaders, bool host_cc, std::uint32_t rounds = 1) {
  Result<Composition> comp = compose(Topology{chips, leaders, Fabric::Default, host_cc, rounds, Wiring::PerPeer, Lowering::Table});
  EXPECT_TRUE(comp.ok());
  Result<Lowered> low = lower_with_hints(*comp, Hypotheses{});
  EXPECT_TRUE(low.ok());
  return std::move(*low);
}

// The explicit search's options for a composed system: its lowering's hints, 10 s.
CheckOptions hinted(const Lowered& l) {
  CheckOptions o;
  o.symmetry_hints = l.hints;
  o.max_seconds = 10;
  return o;
}

// A clock that reads 0 until it has been read `reads` times, then 1000 s.
struct Expiring {
  std::shared_ptr<std::uint64_t> read = std::make_shared<std::uint64_t>(0);
  SecondsClock after(std::uint64_t reads) const {
    return [n = read, reads] { return ++*n > reads ? 1000.0 : 0.0; };
  }
};

TEST(Budgets, ADeadlineReadsTheClockOncePerCadenceOfUnitPolls) {
  // poll() counts one unit of work by default: the first call reads the clock, then
  // every kCadence-th; the cadence is what keeps the clock's cost off the hot loops
  // while the budget still holds within a fraction of a second.
  Deadline d(10, [] { return 0.0; });
  for (std::int64_t i = 0; i < 2 * Deadline::kCadence + 1; ++i) EXPECT_FALSE(d.poll());
  EXPECT_EQ(d.reads(), 3u);
  EXPECT_FALSE(d.poll(Deadline::kCadence - 1));
  EXPECT_EQ(d.reads(), 3u);
  EXPECT_FALSE(d.poll(1));
  EXPECT_EQ(d.reads(), 4u);
}

// A cadence below one (no caller means it) is one: every poll of work reads the clock,
// and a poll of no work, as with cadence 1, reads nothing.
TEST(Budgets, ACadenceBelowOneIsOne) {
  for (const std::int64_t cadence : {std::int64_t{0}, std::int64_t{-7}}) {
    Deadline d(10, [] { return 0.0; }, {}, cadence);
    for (int i = 0; i < 5; ++i) EXPECT_FALSE(d.poll());
    EXPECT_EQ(d.reads(), 5u) << cadence;
    EXPECT_FALSE(d.poll(0));
    EXPECT_EQ(d.reads(), 5u) << cadence;
  }
}

TEST(Budgets, TheSymmetryCanonicalisationPollsTheClock) {
  // 64x4 host-CC: 257 processes, a symmetry group of 1536; one canonicalisation is
  // ~50 k units of work, so the search must read the clock between successors, not
  // only per expanded state.
  const Lowered l = composed(64, 4, true);
  CheckOptions o = hinted(l);
  // How often the start and the symmetry verification read the clock: a search that
  // stops at its first state.
  Expiring setup;
  o.clock = setup.after(1'000'000);
  o.max_states = 0;
  ASSERT_TRUE(check_explicit(l.system, o).search().symmetry_used);
  const std::uint64_t before_search = *setup.read;
  o.max_states = 1'000'000;
  Expiring clock;
  o.clock = clock.after(before_search + 2);  // expires at the third read of the search
  const CheckResult r = check_explicit(l.system, o);
  EXPECT_EQ(r.verdict, Verdict::Budget);
  EXPECT_EQ(note_text(r), "time budget exhausted");
  EXPECT_TRUE(r.search().symmetry_used);
  // A few successors of the first states: reading the clock only per expanded state
  // would have let ~257 canonicalisations pass between two reads.
  EXPECT_LE(r.search().states, 40u) << "clock reads: " << *clock.read;
  EXPECT_FALSE(r.exact());
}

TEST(Budgets, TheSymmetryVerificationPollsTheClock) {
  const Lowered l = composed(64, 4, true);
  CheckOptions o = hinted(l);
  Expiring clock;
  o.clock = clock.after(1);  // the first read passes, the next (inside Symmetry::detect) is late
  const CheckResult r = check_explicit(l.system, o);
  EXPECT_EQ(r.verdict, Verdict::Budget);
  EXPECT_EQ(note_text(r), "time budget exhausted while verifying the symmetry");
  EXPECT_EQ(r.search().states, 0u);
  Expiring first;
  o.clock = first.after(0);
  EXPECT_EQ(note_text(check_explicit(l.system, o)), "time budget exhausted before the search started");
}

TEST(Budgets, TheStateBudgetHoldsInsideABlockExpansion) {
  // 4x4 without symmetry: one state has dozens of successors; before, the budget was
  // read every 16384 states (28 906 states for --max-states 10).
  const Lowered l = composed(4, 4, false);
  for (std::uint64_t n : {0u, 1u, 10u, 100u, 1000u}) {
    CheckOptions o;
    o.symmetry = false;
    o.max_states = n;
    const CheckResult r = check_explicit(l.system, o);
    EXPECT_EQ(r.verdict, Verdict::Budget) << n;
    EXPECT_EQ(r.search().states, n + 1) << "the state past the budget ends the search";
    EXPECT_EQ(note_text(r), "state budget exhausted");
  }
}

TEST(Budgets, TheMemoryBudgetEndsTheSearchBeforeTheTablesPassIt) {
  const Lowered l = composed(64, 4, true);
  for (std::uint64_t mib : {4u, 16u}) {
    CheckOptions o;
    o.symmetry = false;
    o.max_memory = mib << 20;
    const CheckResult r = check_explicit(l.system, o);
    EXPECT_EQ(r.verdict, Verdict::Budget) << mib;
    EXPECT_NE(note_text(r).find("memory budget exhausted"), std::string::npos) << note_text(r);
    EXPECT_GT(r.search().states, 0u);
    // 257 pcs of 2 bytes a state (+ 2 MiB of value tables): what the search holds
    // stays under the budget, and most of the budget is used.
    EXPECT_LT(r.search().states * 257 * 2 + (2u << 20), o.max_memory) << mib;
    EXPECT_GT((r.search().states * 257 * 2 + (2u << 20)) * 2, o.max_memory) << "the budget is used, not wasted: " << r.search().states;
  }
}

// The memory budget is only as good as the visited set's own count of its bytes: held
// against what the allocator handed out for it (glibc's mallinfo2), for a narrow state
// and a 64x4-wide one.
#if defined(NEFFBAR_HAVE_MALLINFO2)
std::int64_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<std::int64_t>(m.uordblks + m.hblkhd);
}
#endif

TEST(Budgets, TheVisitedSetCountsTheBytesItHolds) {
#if defined(NEFFBAR_HAVE_MALLINFO2)
  // Everything on the heap (no page-rounded mmapped blocks: 64 KiB pages elsewhere), in
  // this test's own process (ctest runs each test alone).
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  {  // Skip where another allocator (a sanitizer's, a preloaded one) stands in for glibc's.
    const std::int64_t before = heap_in_use();
    auto probe = std::make_unique<char[]>(1 << 20);
    probe[0] = 1;
    if (std::abs(heap_in_use() - before - (1 << 20)) > (1 << 12)) GTEST_SKIP() << "malloc is not glibc's here";
  }
  for (const std::uint32_t width : {4u, 257u}) {
    const std::int64_t before = heap_in_use();
    detail::StateSet set(width);
    std::vector<std::uint16_t> pcs(width, 0);
    const std::uint32_t n = width == 4 ? 100'000 : 20'000;
    for (std::uint32_t i = 0; i < n; ++i) {
      pcs[0] = static_cast<std::uint16_t>(i);
      pcs[1] = static_cast<std::uint16_t>(i >> 16);
      ASSERT_TRUE(set.insert(pcs.data(), i, static_cast<std::uint16_t>(i)).second);
    }
    const std::int64_t held = heap_in_use() - before - static_cast<std::int64_t>(pcs.capacity() * 2);
    const auto counted = static_cast<std::int64_t>(set.bytes());
    // Within 1 % (allocator headers, the chunk list itself).
    EXPECT_LT(std::abs(counted - held), held / 100) << "width " << width << ": bytes() " << counted << ", allocated " << held;
  }
#else
  GTEST_SKIP() << "mallinfo2 is glibc's (2.33 and later)";
#endif
}

TEST(Budgets, ALesserViolationFoundBeforeTheBudgetRanOutIsReportedBesideBudget) {
  // 4x4 x 2 rounds: the table lowering's GLOBAL_UNSAFE (C7) is found within 1000 states,
  // long before the search would end.  It is not a stopping failure, so the uncut search
  // could still meet one: BUDGET, with the finding as its counterexample.
  const Lowered l = composed(4, 4, false, 2);
  CheckOptions o = hinted(l);
  o.max_states = 1000;
  const CheckResult r = check_explicit(l.system, o);
  EXPECT_EQ(r.verdict, Verdict::Budget);
  EXPECT_FALSE(r.exhaustive);
  EXPECT_FALSE(r.exact());
  EXPECT_EQ(r.global, GlobalStatus::Broken);
  ASSERT_TRUE(r.cex.has_value());
  EXPECT_EQ(r.cex->kind, Verdict::GlobalUnsafe);
  EXPECT_TRUE(replay(l.system, *r.cex));
  EXPECT_NE(note_text(r).find("after a GLOBAL_UNSAFE was found (the counterexample)"), std::string::npos) << note_text(r);
  // Under declared the same run checks no global property: nothing found, so BUDGET,
  // with the global finding reported beside it.
  o.guarantee = GuaranteeMode::Declared;
  const CheckResult d = check_explicit(l.system, o);
  EXPECT_EQ(d.verdict, Verdict::Budget);
  EXPECT_FALSE(d.cex.has_value());
  ASSERT_TRUE(d.global_finding.has_value());
  EXPECT_TRUE(replay(l.system, *d.global_finding));
  EXPECT_EQ(note_text(d), "state budget exhausted");
}

TEST(Budgets, ThePersistentEngineKeepsTheTimeBudgetOfItsInjectedClock) {
  // The persistent engine reads the clock between its runs: expired at the 2nd read, it
  // stops there with BUDGET (not exact) where a free clock decides the system at once.
  const Lowered l = composed(16, 4, true, 100);
  Expiring clock;
  PersistentOptions o;
  o.max_seconds = 10;
  o.clock = clock.after(1);
  const Result<CheckResult> cut = check_persistent(l.system, o);
  ASSERT_TRUE(cut.ok()) << cut.error().message();
  EXPECT_EQ(cut->verdict, Verdict::Budget);
  EXPECT_FALSE(cut->exact());
  EXPECT_EQ(*clock.read, 2u);
  EXPECT_GT(cut->seconds, 0.0) << "the wall time it took, cut or not";
  const Result<CheckResult> free = check_persistent(l.system, PersistentOptions{});
  ASSERT_TRUE(free.ok());
  EXPECT_TRUE(free->exact());
}

TEST(Budgets, AScenarioWhoseBudgetComposingAndLoweringSpentSaysSoBeforeAnyEngineRuns) {
  // The scenario's own budget reads the command's clock against the command's
  // max_seconds: spent by the time the system is built, no engine is started, and the
  // note says where the time went.  (A fresh budget here, or the wall clock instead of
  // the injected one, would hand the engine a check it then cuts with a note of its own.)
  for (const Engine engine : {Engine::Explicit, Engine::Persistent, Engine::Random}) {
    Scenario s;
    s.topo = Topology{2, 2, Fabric::Default, true, 2, Wiring::PerPeer, Lowering::Table};
    s.run.engine = engine;
    s.run.check.max_seconds = 5;
    const auto reads = std::make_shared<std::uint64_t>(0);
    s.run.check.clock = [reads] { return ++*reads, 10.0; };
    const Result<ScenarioResult> r = run_scenario(s);
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->result.verdict, Verdict::Budget) << engine_name(engine);
    EXPECT_EQ(note_text(r->result), "time budget exhausted before the check started (composing and lowering)") << engine_name(engine);
    EXPECT_EQ(*reads, 2u) << engine_name(engine) << ": the scenario's check and the seconds it reports; no engine's";
    // Decided by nobody: nothing exhaustive, the global line unknown, the engine the one
    // asked for, no decision time.
    EXPECT_FALSE(r->result.exhaustive) << engine_name(engine);
    EXPECT_FALSE(r->result.exact()) << engine_name(engine);
    EXPECT_EQ(r->result.global, GlobalStatus::Unknown) << engine_name(engine);
    EXPECT_EQ(r->result.engine, engine);
    EXPECT_EQ(r->result.seconds, 10.0);
    EXPECT_EQ(r->phases.decide, 0.0) << engine_name(engine);
    EXPECT_EQ(r->phases.rechecks, 0.0) << engine_name(engine);
  }
  // Under auto, the engine that would have decided: the persistent one where the system
  // qualifies (every composed one does), the explicit search where it does not.
  Scenario s;
  s.topo = Topology{2, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table};
  s.run.check.max_seconds = 5;
  s.run.check.clock = [] { return 10.0; };
  const Result<ScenarioResult> r = run_scenario(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->result.engine, Engine::Persistent);
  EXPECT_EQ(r->result.not_persistent, "");
  // Configs that wait on one semaphore (two copies) do not qualify: auto names the
  // explicit search and says why; the persistent engine asked for by name is refused as
  // decide() refuses it, whatever the time.
  ConfigBytes shared{};
  const auto put = [&](std::size_t at, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) shared[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
  };
  put(0x004, 0x01001020, 8);  // step 0 lane 0: inc
  put(0x0A0, 0x01001020, 8);  // step 3 lane 0: wait_ge_and_dec >= 1
  put(0x0C0, 1, 4);
  Scenario copies;
  copies.configs = {shared, shared};
  copies.run.check.max_seconds = 5;
  copies.run.check.clock = [] { return 10.0; };
  const Result<ScenarioResult> late = run_scenario(copies);
  ASSERT_TRUE(late.ok());
  EXPECT_EQ(late->result.engine, Engine::Explicit);
  EXPECT_NE(late->result.not_persistent, "");
  copies.run.engine = Engine::Persistent;
  const Result<ScenarioResult> refused = run_scenario(copies);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "persistent engine");
  EXPECT_EQ(refused.error().got, late->result.not_persistent);
}

TEST(Budgets, AScenarioWithNoClockGivenTimesItsEnginesFromItsOwnStart) {
  // A library caller that injects no clock still gets one budget for the whole
  // scenario: the engine reads the clock the scenario started before composing, so the
  // seconds it reports include composing and lowering.  (An engine handed no clock
  // would count from its own start: here a refusal in microseconds after milliseconds
  // of composing 64x4 over 1000 rounds.)  Monotonic time, no threshold.
  Scenario s;
  s.topo = Topology{64, 4, Fabric::Default, true, 1000, Wiring::PerPeer, Lowering::Hierarchical};
  s.run.engine = Engine::Explicit;  // refuses programs of 65535 or more instructions at once
  const Result<ScenarioResult> r = run_scenario(s);
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_EQ(r->result.verdict, Verdict::Budget) << note_text(r->result);
  EXPECT_NE(note_text(r->result).find("longer than 65534 instructions"), std::string::npos) << note_text(r->result);
  EXPECT_GE(r->result.seconds, r->phases.compose_lower) << "the engine timed itself from its own start";
}

TEST(Budgets, AnInstructionBudgetOfExactlyWhatTheDecisionTakesIsEnough) {
  // The budget is "more than max_instructions", checked between greedy runs: a budget of
  // exactly the instructions a decision executes decides it (the same verdict, exact).
  for (const auto& [chips, leaders, rounds] : {std::tuple{1u, 4u, 1u}, {2u, 2u, 2u}, {4u, 4u, 2u}, {8u, 3u, 3u}}) {
    const Lowered l = composed(chips, leaders, true, rounds);
    const Result<CheckResult> free = check_persistent(l.system, PersistentOptions{});
    ASSERT_TRUE(free.ok() && free->exact()) << chips << "x" << leaders;
    PersistentOptions o;
    o.max_instructions = free->work().instructions;
    const Result<CheckResult> just = check_persistent(l.system, o);
    ASSERT_TRUE(just.ok());
    EXPECT_EQ(just->verdict, free->verdict) << chips << "x" << leaders << " with exactly " << free->work().instructions;
    EXPECT_TRUE(just->exact()) << chips << "x" << leaders;
  }
}

TEST(Budgets, ARandomScheduleKeepsTheTimeBudgetInside) {
  // 16x4 x 100 rounds: one schedule is ~10^5 instructions, so the clock is read inside
  // it; cut there, the note says how long a whole schedule would take.
  const Lowered l = composed(16, 4, true, 100);
  Expiring clock;
  CommonOptions o;
  o.guarantee = GuaranteeMode::Declared;
  o.max_seconds = 10;
  o.clock = clock.after(1);  // expires at the 2nd read
  const CheckResult r = check_random(l.system, 5, 1, 3, o);
  EXPECT_EQ(r.work().runs, 1u);
  EXPECT_NE(note_text(r).find("time budget exhausted inside schedule 1 (after "), std::string::npos) << note_text(r);
  EXPECT_NE(note_text(r).find("a whole schedule runs up to " + std::to_string(instruction_count(l.system)) + " instructions"),
            std::string::npos)
      << note_text(r);
  EXPECT_LT(r.work().instructions, instruction_count(l.system));
  EXPECT_FALSE(r.exact());
}

// A schedule of kLongSchedule instructions or more says how long a whole one takes, once,
// whether or not the budget cut it; a shorter one says nothing.
TEST(Budgets, ALongScheduleSaysHowLongItTakesOnce) {
  const auto one_process = [](std::size_t n) {
    System s;
    s.semas.push_back(Semaphore{"s0", 0, 0});
    Process p;
    p.name = "p0";
    p.participant = true;
    p.program = Program(std::vector<Instr>(n, Instr{Marker::None, SemaOp{Prim::Inc, 0, 1, 0}, 0}));
    s.procs.push_back(std::move(p));
    return s;
  };
  const auto said = [](const CheckResult& r) {
    const std::string text = note_text(r);
    std::size_t count = 0;
    for (std::size_t at = text.find("a whole schedule runs up to"); at != std::string::npos;
         at = text.find("a whole schedule runs up to", at + 1)) {
      ++count;
    }
    return count;
  };
  const System exactly = one_process(kLongSchedule), shorter = one_process(kLongSchedule - 1);
  ASSERT_EQ(instruction_count(exactly), kLongSchedule);
  EXPECT_EQ(said(check_random(exactly, 1, 1)), 1u) << note_text(check_random(exactly, 1, 1));
  EXPECT_EQ(said(check_random(shorter, 1, 1)), 0u) << note_text(check_random(shorter, 1, 1));
  Expiring clock;
  CommonOptions o;
  o.max_seconds = 10;
  o.clock = clock.after(1);  // cut inside the schedule: said in the cut, not again
  const CheckResult cut = check_random(exactly, 1, 1, kPctDepth, o);
  ASSERT_TRUE(cut.note.cut.has_value()) << note_text(cut);
  EXPECT_EQ(said(cut), 1u) << note_text(cut);
}

TEST(Budgets, RandomSchedulesFindWhatTheyFoundBeforeWithoutStoringTheSchedule) {
  // The schedule is replayed for its counterexample, not stored: the trace must replay
  // and end in the violation at the step where the search saw it.
  const Lowered l = composed(4, 4, true, 3);
  const CheckResult r = check_random(l.system, 50, 3);
  ASSERT_EQ(r.verdict, Verdict::GlobalUnsafe);
  ASSERT_TRUE(r.cex.has_value());
  EXPECT_TRUE(replay(l.system, *r.cex));
  EXPECT_NE(r.cex->what.find("departed round"), std::string::npos) << r.cex->what;
}

// A clock that moves on 0.6 s at every read.
SecondsClock ticking(std::shared_ptr<std::uint64_t> reads) {
  return [reads] { return 0.6 * static_cast<double>(++*reads); };
}

// What every engine's progress line sees: called about once a second of its clock (every
// second read of this one), with the work done so far, which only grows.
void expect_progress_every_second(const char* engine, const std::vector<std::pair<std::uint64_t, double>>& calls,
                                  std::uint64_t reads) {
  ASSERT_GE(reads, 6u) << engine << ": too little work to read the clock often";
  EXPECT_GE(calls.size(), reads / 2 - 1) << engine;
  EXPECT_LE(calls.size(), reads / 2 + 1) << engine;
  for (std::size_t i = 1; i < calls.size(); ++i) {
    EXPECT_GE(calls[i].first, calls[i - 1].first) << engine << " call " << i;
    EXPECT_GE(calls[i].second - calls[i - 1].second, 1.0) << engine << " call " << i;
  }
  for (const auto& [work, t] : calls) {  // the time passed is a reading of the clock (0.6 s a read), not the work
    const double read = t / 0.6;
    EXPECT_NEAR(read, std::round(read), 1e-6) << engine << ": " << t << " s with work " << work;
  }
  ASSERT_FALSE(calls.empty()) << engine;
  EXPECT_GT(calls.back().first, 0u) << engine << ": the work is counted";
}

TEST(Budgets, RandomProgressBetweenSchedulesCountsTheSchedulesBefore) {
  // Schedules shorter than a poll cadence read the clock once inside (the first poll)
  // and once before each: there the work so far is the whole schedules run.
  const Lowered l = composed(1, 2, true);
  const std::uint64_t n = instruction_count(l.system);
  std::vector<std::uint64_t> counts;
  auto reads = std::make_shared<std::uint64_t>(0);
  CommonOptions o;
  o.max_seconds = 1e9;
  o.clock = ticking(reads);
  o.progress = [&](const Progress& p) {
    EXPECT_EQ(p.unit, WorkUnit::Instructions);
    counts.push_back(p.work);
  };
  const CheckResult r = check_random(l.system, 20, 1, 3, o);
  ASSERT_FALSE(failing(r.verdict)) << note_text(r);
  EXPECT_EQ(r.work().instructions, 20 * n) << "every schedule runs every instruction";
  ASSERT_GE(counts.size(), 8u);
  for (std::size_t i = 1; i < counts.size(); ++i) {
    EXPECT_EQ(counts[i] % n, 0u) << "call " << i << ": " << counts[i] << " of schedules of " << n;
    EXPECT_LE(counts[i], r.work().instructions) << "call " << i;
  }
}

TEST(Budgets, EveryEngineReportsProgressOnceASecondOfItsClock) {
  const Lowered l = composed(16, 4, true, 100);
  std::vector<std::pair<std::uint64_t, double>> calls;
  std::vector<WorkUnit> units;
  const auto record = [&](const Progress& p) {
    calls.emplace_back(p.work, p.seconds);
    units.push_back(p.unit);
  };
  {
    auto reads = std::make_shared<std::uint64_t>(0);
    PersistentOptions o;
    o.max_seconds = 1e9;
    o.clock = ticking(reads);
    o.progress = record;
    ASSERT_TRUE(check_persistent(l.system, o).ok());
    expect_progress_every_second("persistent", calls, *reads);
    EXPECT_EQ(std::count(units.begin(), units.end(), WorkUnit::Instructions), static_cast<std::ptrdiff_t>(units.size()));
  }
  {
    calls.clear();
    auto reads = std::make_shared<std::uint64_t>(0);
    CheckOptions o;
    o.max_seconds = 1e9;
    o.max_states = 20'000;
    o.clock = ticking(reads);
    o.progress = record;
    units.clear();
    check_explicit(composed(4, 4, true, 3).system, o);
    expect_progress_every_second("explicit", calls, *reads);
    EXPECT_EQ(std::count(units.begin(), units.end(), WorkUnit::States), static_cast<std::ptrdiff_t>(units.size()));
  }
  {
    calls.clear();
    auto reads = std::make_shared<std::uint64_t>(0);
    CommonOptions o;
    o.guarantee = GuaranteeMode::Declared;
    o.max_seconds = 1e9;
    o.clock = ticking(reads);
    o.progress = record;
    units.clear();
    check_random(l.system, 3, 1, 3, o);
    expect_progress_every_second("random", calls, *reads);
    EXPECT_EQ(std::count(units.begin(), units.end(), WorkUnit::Instructions), static_cast<std::ptrdiff_t>(units.size()));
  }
}

TEST(Budgets, PromelaRefusesMoreProcessesThanSpinRuns) {
  // 63x4 host-CC: 253 processes + the reuse monitor + init = 255, SPIN's limit.
  EXPECT_TRUE(spin_limits(composed(63, 4, true).system).ok());
  const Status over = spin_limits(composed(64, 4, true).system);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().message(),
            "out of range: processes: expected at most 255 SPIN processes (SPIN's limit; 253 of the system plus the "
            "reuse monitor and init), got 259 (257 of the system)");
  EXPECT_FALSE(spin_limits(composed(32, 4, false).system).ok());  // 257 with the proxies
  // `finished` counts to the number of processes: a byte up to 255, wider beyond (a
  // byte would wrap at 256 and the reuse monitor would wait forever).
  EXPECT_NE(to_promela(composed(63, 4, true).system, true).find("\nbyte finished;"), std::string::npos);
  EXPECT_NE(to_promela(composed(64, 4, true).system, true).find("\nshort finished;"), std::string::npos);
}

}  // namespace
}  // namespace neffbar::model
