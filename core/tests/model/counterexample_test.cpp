// replay() is the oracle every engine's counterexample is checked with, so it must say
// no: for each verdict kind, a valid counterexample it accepts (so that a replay
// rejecting everything fails here) beside corrupted ones it must reject -- a DEADLOCK
// where someone can still move, a NOT_REUSABLE that stops before everyone finished or
// ends at the initial values, an UNSAFE whose culprit had arrived, a GLOBAL_UNSAFE with
// everybody arrived, an OVERFLOW that does not overflow, steps that cannot run, and
// step numbers that do not count 1, 2, ...
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "hand_made.h"
#include "neffbar/model/system/counterexample.h"

namespace neffbar::model {
namespace {

using namespace hand_made;

// A trace of (process, pc) steps; values are not read by replay().
Counterexample cex(Verdict kind, std::vector<std::pair<std::uint32_t, std::uint32_t>> steps) {
  Counterexample c;
  c.kind = kind;
  std::uint32_t n = 0;
  for (const auto& [p, pc] : steps) c.trace.push_back(TraceEntry{++n, p, pc});
  return c;
}

TEST(Replay, DeadlockMustLeaveNobodyAbleToMove) {
  // p0 waits on s0 forever; p1 arrives, departs and increments s1.
  const System sys = make(2, {{wait(0)}, {arrive(), depart(), inc(1)}});
  EXPECT_TRUE(replay(sys, cex(Verdict::Deadlock, {{1, 0}, {1, 1}, {1, 2}})));
  EXPECT_FALSE(replay(sys, cex(Verdict::Deadlock, {{1, 0}, {1, 1}}))) << "p1 can still increment";
  EXPECT_FALSE(replay(sys, cex(Verdict::Deadlock, {{1, 0}}))) << "p1 can still depart";
  EXPECT_FALSE(replay(sys, cex(Verdict::Deadlock, {}))) << "p1 can still arrive";
  // Everybody finished is no deadlock.
  const System done = make(1, {{inc(0)}, {wait(0)}});
  EXPECT_FALSE(replay(done, cex(Verdict::Deadlock, {{0, 0}, {1, 0}})));
  EXPECT_FALSE(replay(done, cex(Verdict::Deadlock, {}))) << "p0 can increment";
}

TEST(Replay, DeadlockAfterABrokenGuaranteeIsStillADeadlock) {
  // The run departs against its guarantee on the way into the dead state: a DEPART as the
  // last entry claims UNSAFE or GLOBAL_UNSAFE only when the counterexample is one.
  const System sys = make(1, {{arrive(), depart(), wait(0)}, {wait(0)}}, {{1}, {}});
  EXPECT_TRUE(replay(sys, cex(Verdict::Deadlock, {{0, 0}, {0, 1}})));
  EXPECT_TRUE(replay(sys, cex(Verdict::Unsafe, {{0, 0}, {0, 1}})));
}

TEST(Replay, NotReusableMustFinishEverybodyOffTheInitialValues) {
  const System sys = make(1, {{inc(0)}, {arrive(), depart()}});
  EXPECT_TRUE(replay(sys, cex(Verdict::NotReusable, {{0, 0}, {1, 0}, {1, 1}})));
  EXPECT_FALSE(replay(sys, cex(Verdict::NotReusable, {{0, 0}, {1, 0}}))) << "p1 has not finished";
  EXPECT_FALSE(replay(sys, cex(Verdict::NotReusable, {{0, 0}}))) << "p1 has not started";
  // Finished, and every value back: nothing left over.
  const System back = make(1, {{inc(0)}, {wait(0)}});
  EXPECT_FALSE(replay(back, cex(Verdict::NotReusable, {{0, 0}, {1, 0}})));
}

// A NOT_REUSABLE's text names each semaphore off its initial value with its own value
// and initial, in order, and none that is back.
TEST(Residue, NamesEachSemaphoreOffItsInitialValueWithItsOwnValues) {
  System sys = make(4, {{inc(1)}});
  for (std::size_t i = 0; i < sys.semas.size(); ++i) sys.semas[i].initial = static_cast<std::int32_t>(10 * i);
  const std::vector<std::int32_t> vals = {0, 11, 20, 33};
  EXPECT_EQ(residue_what(sys, vals),
            "all processes finished but semaphores are not back to their initial values: s1 = 11 (initial 10), s3 = 33 (initial 30)");
  const std::vector<std::int32_t> first = {-1, 10, 20, 30};
  EXPECT_EQ(residue_what(sys, first),
            "all processes finished but semaphores are not back to their initial values: s0 = -1 (initial 0)");
}

TEST(Replay, UnsafeMustEndAtADepartBeforeTheCulpritArrived) {
  // p0 departs with p1 in its guarantee; p1 arrives whenever it likes.
  const System sys = make(0, {{arrive(), depart()}, {arrive()}}, {{1}, {}});
  EXPECT_TRUE(replay(sys, cex(Verdict::Unsafe, {{0, 0}, {0, 1}})));
  EXPECT_FALSE(replay(sys, cex(Verdict::Unsafe, {{1, 0}, {0, 0}, {0, 1}}))) << "the culprit had arrived";
  EXPECT_FALSE(replay(sys, cex(Verdict::Unsafe, {{0, 0}}))) << "no DEPART at the end";
  EXPECT_FALSE(replay(sys, cex(Verdict::Unsafe, {{0, 0}, {0, 1}, {1, 0}}))) << "the DEPART is not the last step";
  // The last of several ARRIVEs of a round is the one that counts.
  const System twice = make(0, {{arrive(), depart()}, {arrive(), arrive()}}, {{1}, {}});
  EXPECT_TRUE(replay(twice, cex(Verdict::Unsafe, {{1, 0}, {0, 0}, {0, 1}})));
  EXPECT_FALSE(replay(twice, cex(Verdict::Unsafe, {{1, 0}, {1, 1}, {0, 0}, {0, 1}})));
}

TEST(Replay, GlobalUnsafeMustLeaveAParticipantOutsideAHeldGuarantee) {
  // p0 guarantees nothing; p1 is a participant.
  const System sys = make(0, {{arrive(), depart()}, {arrive()}});
  EXPECT_TRUE(replay(sys, cex(Verdict::GlobalUnsafe, {{0, 0}, {0, 1}})));
  EXPECT_FALSE(replay(sys, cex(Verdict::GlobalUnsafe, {{1, 0}, {0, 0}, {0, 1}}))) << "everybody had arrived";
  EXPECT_FALSE(replay(sys, cex(Verdict::Unsafe, {{0, 0}, {0, 1}}))) << "no guarantee was broken";
  // A process that is no participant does not count.
  System outsider = sys;
  outsider.procs[1].participant = false;
  EXPECT_FALSE(replay(outsider, cex(Verdict::GlobalUnsafe, {{0, 0}, {0, 1}})));
  // A broken guarantee is UNSAFE, not GLOBAL_UNSAFE.
  const System held = make(0, {{arrive(), depart()}, {arrive()}}, {{1}, {}});
  EXPECT_FALSE(replay(held, cex(Verdict::GlobalUnsafe, {{0, 0}, {0, 1}})));
}

TEST(Replay, OverflowMustOverflow) {
  System sys = make(1, {{inc_val(0, 2)}});
  sys.semas[0].initial = std::numeric_limits<std::int32_t>::max() - 1;
  EXPECT_TRUE(replay(sys, cex(Verdict::Overflow, {{0, 0}})));
  sys.semas[0].initial = std::numeric_limits<std::int32_t>::max() - 2;
  EXPECT_FALSE(replay(sys, cex(Verdict::Overflow, {{0, 0}}))) << "max - 2 + 2 fits";
  // Below the minimum too, and an overflow is the last step.
  System low = make(1, {{wait(0, std::numeric_limits<std::int32_t>::min(), 2), inc(0)}});
  low.semas[0].initial = std::numeric_limits<std::int32_t>::min() + 1;
  EXPECT_TRUE(replay(low, cex(Verdict::Overflow, {{0, 0}})));
  EXPECT_FALSE(replay(low, cex(Verdict::Overflow, {{0, 0}, {0, 1}})));
  low.semas[0].initial = std::numeric_limits<std::int32_t>::min() + 2;
  EXPECT_FALSE(replay(low, cex(Verdict::Overflow, {{0, 0}})));
}

TEST(Replay, EveryStepMustBeTheNextRunnableInstruction) {
  // p1 departs once p0's increment let it through.
  const System sys = make(1, {{inc(0), arrive()}, {wait(0), arrive(), depart()}}, {{}, {}});
  EXPECT_TRUE(replay(sys, cex(Verdict::GlobalUnsafe, {{0, 0}, {1, 0}, {1, 1}, {1, 2}})));
  EXPECT_FALSE(replay(sys, cex(Verdict::GlobalUnsafe, {{1, 0}, {1, 1}, {1, 2}}))) << "the wait cannot run at 0";
  EXPECT_FALSE(replay(sys, cex(Verdict::GlobalUnsafe, {{0, 0}, {1, 1}, {1, 2}}))) << "p1 skipped its wait";
  EXPECT_FALSE(replay(sys, cex(Verdict::GlobalUnsafe, {{0, 0}, {1, 0}, {1, 0}, {1, 2}}))) << "a step twice";
  EXPECT_FALSE(replay(sys, cex(Verdict::GlobalUnsafe, {{0, 0}, {2, 0}, {1, 2}}))) << "no process 2";
  EXPECT_FALSE(replay(sys, cex(Verdict::GlobalUnsafe, {{0, 0}, {0, 1}, {0, 2}}))) << "past the end of p0";
  // A wait_ge_and_dec that took what another's wait needed.
  const System two = make(1, {{inc(0)}, {wait(0)}, {wait(0), arrive(), depart()}});
  EXPECT_FALSE(replay(two, cex(Verdict::GlobalUnsafe, {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}})));
  // An OK verdict is no counterexample, whatever the trace.
  EXPECT_FALSE(replay(sys, cex(Verdict::Ok, {{0, 0}})));
}

TEST(Replay, StepsAreNumberedFromOneWithoutGaps) {
  // p1 departs once p0's increment let it through; the entries of one atomic step share it.
  const System sys = make(1, {{inc(0), arrive()}, {wait(0), arrive(), depart()}}, {{}, {}});
  Counterexample c = cex(Verdict::GlobalUnsafe, {{0, 0}, {1, 0}, {1, 1}, {1, 2}});
  ASSERT_TRUE(replay(sys, c));
  c.trace[2].step = c.trace[3].step = 2;  // p1's wait, ARRIVE and DEPART as one block
  c.trace[1].step = 2;
  EXPECT_TRUE(replay(sys, c)) << "one atomic step's entries share its number";
  for (const auto& [entry, step] : {std::pair{0, 0u}, {0, 2u}, {1, 3u}, {2, 1u}, {3, 5u}}) {
    Counterexample bad = cex(Verdict::GlobalUnsafe, {{0, 0}, {1, 0}, {1, 1}, {1, 2}});
    bad.trace[static_cast<std::size_t>(entry)].step = step;
    EXPECT_FALSE(replay(sys, bad)) << "entry " << entry << " numbered " << step;
  }
}

// The one printer of a system (failure messages of the tests and of rapidcheck): every
// semaphore's initial value, every process with its guarantee, every instruction.
TEST(Listing, ShowsEverySemaphoreProcessGuaranteeAndInstruction) {
  System sys = make(2, {{wait(0)}, {arrive(), depart(), inc(1)}}, {{0, 1}, {1}}, 2);
  sys.semas[1].initial = 5;
  sys.procs[1].participant = false;
  EXPECT_EQ(listing(sys),
            "rounds 2, compare ge, initial: s0=0 s1=5\n"
            "p0 (participant) guarantee: 0 1\n"
            "  0: " + describe(sys, 0, 0) + "\n"
            "p1 guarantee: 1\n"
            "  0: " + describe(sys, 1, 0) + "\n"
            "  1: " + describe(sys, 1, 1) + "\n"
            "  2: " + describe(sys, 1, 2) + "\n");
}

}  // namespace
}  // namespace neffbar::model
