// Program (program.h): a round body and how many times it runs, read as the program
// written out.  The round-body tests compare whole systems through same_instructions;
// here the pieces they rely on, each able to fail on its own.
#include <gtest/gtest.h>

#include "hand_made.h"

#include "neffbar/model/system/program.h"

namespace neffbar::model {
namespace {

using namespace hand_made;

TEST(Program, AnInstructionWithoutARoundIsInTheFirstOne) {
  const Instr in{};
  EXPECT_EQ(in.round, 0u);
  EXPECT_EQ(in.marker, Marker::None);
  EXPECT_EQ(in.step, 0xFF);
  EXPECT_EQ(in.lane, 0xFF);
}

TEST(Program, EmptyIsNoInstructionWhateverTheCount) {
  EXPECT_TRUE(Program{}.empty());
  EXPECT_EQ(Program{}.size(), 0u);
  EXPECT_FALSE(Program({inc(0)}).empty());
  EXPECT_FALSE(Program::repeated({inc(0), arrive()}, 3).empty());
  EXPECT_EQ(Program::repeated({inc(0), arrive()}, 3).size(), 6u);
  EXPECT_TRUE(Program::repeated({}, 5).empty());
  EXPECT_TRUE(Program::repeated({inc(0)}, 0).empty());
}

// A program built from a vector runs its body once, one round of body.
TEST(Program, AVectorIsABodyRunOnce) {
  const Program p({arrive(0), inc(0, 0), depart(0)});
  EXPECT_EQ(p.repeat(), 1u);
  EXPECT_EQ(p.body_rounds(), 1u);
  EXPECT_EQ(Program{}.repeat(), 1u);
  EXPECT_EQ(Program{}.body_rounds(), 1u);
  EXPECT_EQ(Program::repeated({inc(0)}, 4).body_rounds(), 1u) << "the default: each run one round on";
}

// Cut to nothing, a repeated body is the empty program run once; cut to whole runs, it
// stays a body; cut inside a run, it is written out.
TEST(Program, TruncateKeepsWholeRunsAsABody) {
  Program p = Program::repeated({arrive(0), inc(0), depart(0)}, 4);
  p.truncate(0);
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.repeat(), 1u);
  EXPECT_TRUE(p.body().empty());
  Program q = Program::repeated({arrive(0), inc(0), depart(0)}, 4);
  q.truncate(6);
  EXPECT_EQ(q.repeat(), 2u);
  EXPECT_EQ(q.body().size(), 3u);
  Program r = Program::repeated({arrive(0), inc(0), depart(0)}, 4);
  r.truncate(5);
  EXPECT_EQ(r.repeat(), 1u);
  EXPECT_EQ(r.size(), 5u);
  EXPECT_EQ(r[4].round, 1u);
}

TEST(Program, SameInstructionsComparesEveryOneHoweverHeld) {
  const Program body = Program::repeated({arrive(0), inc(0), depart(0)}, 3);
  EXPECT_TRUE(same_instructions(body, Program(body.written_out())));
  EXPECT_TRUE(same_instructions(Program{}, Program::repeated({}, 4)));
  // Another length, another first instruction, another last one, another round.
  std::vector<Instr> w = body.written_out();
  EXPECT_FALSE(same_instructions(body, Program(std::vector<Instr>(w.begin(), w.end() - 1))));
  EXPECT_FALSE(same_instructions(Program(std::vector<Instr>(w.begin(), w.end() - 1)), body));
  for (const std::size_t pc : {std::size_t{0}, w.size() - 1}) {
    std::vector<Instr> changed = w;
    changed[pc].op.value += 1;
    EXPECT_FALSE(same_instructions(body, Program(changed))) << pc;
  }
  std::vector<Instr> later = w;
  later[4].round = 7;
  EXPECT_FALSE(same_instructions(body, Program(later)));
  EXPECT_FALSE(same_instructions(body, Program::repeated({arrive(0), inc(0), depart(0)}, 3, 2))) << "two rounds a run";
}

}  // namespace
}  // namespace neffbar::model
