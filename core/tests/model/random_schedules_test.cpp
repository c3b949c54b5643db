// Random schedules promise PCT's detection probability: a bug of depth d (d ordering
// constraints, d - 1 of them against the priorities) is found by one run with
// probability at least 1 / (n k^(d-1)), n processes, k instructions.  Hand-made systems
// with bugs of known depth, one run per seed over a fixed seed set: the fraction of
// seeds that find the bug must stay above a floor far below what the scheduler measures
// and far above what a broken one gets -- change points that do not lower the priority
// (PctChange::Keep), or none at all (depth 1).  Deterministic: the seeds are fixed.
#include <gtest/gtest.h>

#include <iostream>

#include "hand_made.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/engines/engine.h"
#include "neffbar/model/engines/random/random_schedules.h"

namespace neffbar::model {
namespace {

using namespace hand_made;

// A lock is a semaphore at 1: acquire = wait_ge_and_dec(>= 1, -1), release = inc.
Instr acquire(std::uint32_t s) { return wait(s); }
Instr release(std::uint32_t s) { return inc(s); }

struct Bug {
  const char* name;
  System sys;
  Verdict kind;
  std::uint32_t depth;
};

// Depth 1: `departer` departs with the other in its guarantee; the other arrives after
// `work` steps.  Found iff the departer starts with the higher priority (1/2).
Bug depth1(std::uint32_t departer, std::uint32_t work) {
  std::vector<Instr> late;
  for (std::uint32_t i = 0; i < work; ++i) late.push_back(op(Prim::WaitGe, 0, 0));  // always enabled, no effect
  late.push_back(arrive());
  std::vector<std::vector<Instr>> progs(2);
  std::vector<std::vector<std::uint32_t>> g(2);
  progs[departer] = {arrive(), depart()};
  g[departer] = {1 - departer};
  progs[1 - departer] = late;
  const System s = make(1, progs, g);
  return {departer == 0 ? "depth 1 (p0 departs)" : "depth 1 (p1 departs)", s, Verdict::Unsafe, 1};
}

// Lock-order deadlocks: process i takes lock i then lock i+1 (mod n), then releases
// both.  The first process to run takes both unless a change point lowers it right
// after its first lock: n processes need n - 1 such preemptions (depth n), each at
// one step of 4n.
Bug lock_cycle(std::uint32_t n) {
  std::vector<std::vector<Instr>> progs;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t a = i, b = (i + 1) % n;
    progs.push_back({acquire(a), acquire(b), release(b), release(a)});
  }
  System s = make(n, progs);
  for (Semaphore& m : s.semas) m.initial = 1;
  return {n == 2 ? "depth 2 (two locks)" : "depth 3 (three locks)", s, Verdict::Deadlock, n};
}

// The fraction of seeds 1..seeds whose one run with `depth` finds the bug.
double detection_rate(const Bug& bug, std::uint32_t depth, std::uint64_t seeds, PctChange change) {
  std::uint64_t found = 0;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    const CheckResult r = check_random(bug.sys, 1, seed, depth, {}, change);
    if (r.verdict == bug.kind) {
      EXPECT_TRUE(r.cex && replay(bug.sys, *r.cex)) << bug.name << " seed " << seed;
      ++found;
    } else {
      EXPECT_EQ(r.verdict, Verdict::Ok) << bug.name << " seed " << seed << ": no other failure";
    }
  }
  return static_cast<double>(found) / static_cast<double>(seeds);
}

// PCT's bound for one run: 1 / (n k^(d-1)).
double pct_bound(const Bug& bug) {
  double k = static_cast<double>(instruction_count(bug.sys)), b = static_cast<double>(bug.sys.procs.size());
  for (std::uint32_t i = 1; i < bug.depth; ++i) b *= k;
  return 1.0 / b;
}

struct Measured {
  double correct, keep, no_change_points;
};

Measured measure(const Bug& bug, std::uint64_t seeds) {
  const Measured m{detection_rate(bug, bug.depth, seeds, PctChange::Lower), detection_rate(bug, bug.depth, seeds, PctChange::Keep),
                   detection_rate(bug, 1, seeds, PctChange::Lower)};
  std::cout << bug.name << ", " << seeds << " seeds: found by " << m.correct << " (PCT's bound " << pct_bound(bug)
            << "); change points that keep the priority " << m.keep << "; no change points " << m.no_change_points << "\n";
  return m;
}

TEST(Pct, FindsADepthOneBugInHalfTheRunsWhicheverProcessItIs) {
  for (std::uint32_t departer : {0u, 1u}) {
    const Bug bug = depth1(departer, 6);
    const Measured m = measure(bug, 200);
    // Measured 0.45 and 0.55; the bound is 1/2; a scheduler that favours one process
    // finds one of the two mirrored bugs never.
    EXPECT_GE(m.correct, 0.35) << bug.name;
    EXPECT_LE(m.correct, 0.65) << bug.name;
    EXPECT_GE(m.correct, pct_bound(bug) * 0.7) << bug.name;
  }
}

// Bugs of depth 2 and 3, found with change points that lower the priority, and not by
// the broken schedulers (change points that keep it, or none).  PCT's bound: 1/(2*8) =
// 0.0625 (measured 0.135) and 1/(3*12^2) = 0.0023 (measured 0.0855); broken: 0.
TEST(Pct, FindsDeeperBugsOnlyWithChangePointsThatLowerThePriority) {
  struct Depth {
    std::uint32_t depth;
    std::uint64_t seeds;
    double floor, broken_below;
  };
  for (const Depth& d : {Depth{2, 200, 0.06, 0.01}, Depth{3, 2000, 0.03, 0.001}}) {
    const Bug bug = lock_cycle(d.depth);
    const Measured m = measure(bug, d.seeds);
    EXPECT_GE(m.correct, d.floor) << bug.name;
    EXPECT_GE(m.correct, pct_bound(bug)) << bug.name;
    EXPECT_LT(m.keep, d.broken_below) << bug.name;
    EXPECT_LT(m.no_change_points, d.broken_below) << bug.name;
  }
}

// check_random's default depth is the documented 3 (kPctDepth, EngineOptions' too): run
// for run, the schedules of depth 3.  Shown to be observable: depth 4 schedules differently.
TEST(Pct, TheDefaultDepthIsTheEnginesThree) {
  const Bug bug = lock_cycle(3);
  EXPECT_EQ(kPctDepth, 3u);
  EXPECT_EQ(EngineOptions{}.depth, kPctDepth);
  const auto schedule = [&](const CheckResult& r) {
    return std::pair{r.verdict, r.cex ? r.cex->trace.size() : std::size_t{0}};
  };
  std::uint64_t same_as_engine = 0, same_as_4 = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const auto by_default = schedule(check_random(bug.sys, 1, seed));
    same_as_engine += by_default == schedule(check_random(bug.sys, 1, seed, 3));
    same_as_4 += by_default == schedule(check_random(bug.sys, 1, seed, 4));
  }
  EXPECT_EQ(same_as_engine, 200u);
  EXPECT_LT(same_as_4, 200u) << "depth 4 must schedule some seed differently, or this test shows nothing";
}

// Random schedules never prove the global property: their line is "broken" (a schedule
// broke it), "not reached" (the failing schedule ended before anyone departed) or "not
// refuted".  A DEPART refused as UNSAFE counts as reached, as one that passed does.
TEST(RandomSchedules, TheGlobalLineIsNotReachedOnlyWhenNobodyDeparted) {
  const auto line = [](const System& s) {
    const CheckResult r = check_random(s, 20, 1);
    EXPECT_TRUE(failing(r.verdict)) << listing(s);
    return r.global;
  };
  // DEADLOCK before any DEPART, and after one.
  EXPECT_EQ(line(make(1, {{arrive(), wait(0), depart()}})), GlobalStatus::NotReached);
  EXPECT_EQ(line(make(1, {{arrive(), depart(), wait(0)}})), GlobalStatus::NotRefuted);
  // UNSAFE in every schedule, the first one included: p0 leaves before p1, in its
  // guarantee, arrives (p1 never can; it is not a participant, so the global property
  // is not broken by it).
  System unsafe = make(1, {{arrive(), depart()}, {wait(0), arrive()}}, {{1}});
  unsafe.procs[1].participant = false;
  EXPECT_EQ(line(unsafe), GlobalStatus::NotRefuted);
}

// Processes of markers only, on no semaphore: nothing is read past the (empty) values.
TEST(RandomSchedules, ASystemWithoutSemaphoresRunsItsMarkers) {
  const System s = make(0, {{arrive(), depart(), arrive(1), depart(1)}}, {}, 2);
  const CheckResult r = check_random(s, 3, 1);
  EXPECT_FALSE(failing(r.verdict)) << note_text(r);
  EXPECT_EQ(r.work().instructions, 3u * 4u);
}

// The instructions executed: a violating instruction counts (it ran), a blocked wait
// that ends a run in a deadlock does not (it never ran).
TEST(RandomSchedules, TheViolatingInstructionCountsABlockedWaitDoesNot) {
  const CheckResult deadlock = check_random(make(1, {{arrive(), wait(0), depart()}}), 1, 1);
  ASSERT_EQ(deadlock.verdict, Verdict::Deadlock) << note_text(deadlock);
  EXPECT_EQ(deadlock.work().instructions, 1u) << "the arrive ran, the wait never did";
  // p0 departs before p1, whom its guarantee names, can arrive (p1 waits first): UNSAFE
  // at p0's depart, the second instruction of the run.
  const CheckResult unsafe = check_random(make(1, {{arrive(), depart()}, {wait(0), arrive()}}, {{0, 1}, {0, 1}}), 1, 1);
  ASSERT_EQ(unsafe.verdict, Verdict::Unsafe) << note_text(unsafe);
  EXPECT_EQ(unsafe.work().instructions, 2u) << "the arrive and the violating depart";
}

// The global property counts the participants' arrivals only: a non-participant that
// arrived first does not stand in for the participant that never does.  p2 (not a
// participant) arrives and lets p0 through; p0 departs before p1, which waits for
// nothing that comes, arrives: every schedule breaks the global property.
TEST(RandomSchedules, ANonParticipantsArrivalDoesNotStandInForAParticipants) {
  System s = make(2, {{wait(1), arrive(), depart()}, {wait(0), arrive(), depart()}, {arrive(), inc(1)}});
  s.procs[2].participant = false;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const CheckResult r = check_random(s, 4, seed);
    EXPECT_EQ(r.verdict, Verdict::Deadlock) << "seed " << seed;
    EXPECT_EQ(r.global, GlobalStatus::Broken) << "seed " << seed;
    ASSERT_TRUE(r.global_finding.has_value()) << "seed " << seed;
    EXPECT_TRUE(replay(s, *r.global_finding));
  }
}

}  // namespace
}  // namespace neffbar::model
