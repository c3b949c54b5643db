// Program (program.h): a round body and how many times it runs, read as the program
// written out.  First the pieces, each able to fail on its own; then round bodies
// against the programs written out in full, which is what lowering made before: every
// engine gives the same verdict, kinds, states or runs, broke-in-round and
// counterexample (each step's process, pc and round) on both, on the composed systems
// and on the arbitrary periodic ones, at 1, 2, 3 and 17 rounds, and with bodies of two
// rounds.
#include <gtest/gtest.h>

#include <random>

#include "hand_made.h"
#include "neffbar/model/engines/engine.h"
#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/frontend/lowering.h"
#include "neffbar/model/system/counterexample.h"
#include "neffbar/model/system/program.h"
#include "testing/arbitrary_system.h"
#include "testing/program_ops.h"
#include "testing/reference_checker.h"

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
  EXPECT_EQ(Program{}.size(), 0u);
  EXPECT_NE(Program({inc(0)}).size(), 0u);
  EXPECT_NE(Program::repeated({inc(0), arrive()}, 3).size(), 0u);
  EXPECT_EQ(Program::repeated({inc(0), arrive()}, 3).size(), 6u);
  EXPECT_EQ(Program::repeated({}, 5).size(), 0u);
  EXPECT_EQ(Program::repeated({inc(0)}, 0).size(), 0u);
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
  p = truncated(p, 0);
  EXPECT_EQ(p.size(), 0u);
  EXPECT_EQ(p.repeat(), 1u);
  EXPECT_TRUE(p.body().empty());
  Program q = Program::repeated({arrive(0), inc(0), depart(0)}, 4);
  q = truncated(q, 6);
  EXPECT_EQ(q.repeat(), 2u);
  EXPECT_EQ(q.body().size(), 3u);
  Program r = Program::repeated({arrive(0), inc(0), depart(0)}, 4);
  r = truncated(r, 5);
  EXPECT_EQ(r.repeat(), 1u);
  EXPECT_EQ(r.size(), 5u);
  EXPECT_EQ(r[4].round, 1u);
}

TEST(Program, SameInstructionsComparesEveryOneHoweverHeld) {
  const Program body = Program::repeated({arrive(0), inc(0), depart(0)}, 3);
  EXPECT_TRUE(same_instructions(body, Program(written_out(body))));
  EXPECT_TRUE(same_instructions(Program{}, Program::repeated({}, 4)));
  // Another length, another first instruction, another last one, another round.
  std::vector<Instr> w = written_out(body);
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


// The reference: every program written out instruction by instruction, each with its
// round, as a program run once.
System written_out(const System& s) {
  System w = s;
  for (Process& p : w.procs) p.program = Program(written_out(p.program));
  return w;
}

// A periodic arbitrary system (each program `rounds` copies of one block, the copy's
// round its index) held as its body run `rounds` times; nullopt when it is not one.
std::optional<System> as_bodies(const System& s) {
  System b = s;
  for (Process& p : b.procs) {
    const std::vector<Instr> all = written_out(p.program);
    if (s.rounds == 0 || all.size() % s.rounds != 0) return std::nullopt;
    const std::size_t n = all.size() / s.rounds;
    std::vector<Instr> body(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    for (const Instr& in : body) {
      if (in.round != 0) return std::nullopt;
    }
    p.program = Program::repeated(body, s.rounds);
    if (!same_instructions(p.program, Program(all))) return std::nullopt;
  }
  return b;
}

// The same body, `rounds` times.
System with_rounds(const System& s, std::uint32_t rounds) {
  System b = s;
  b.rounds = rounds;
  for (Process& p : b.procs) p.program = Program::repeated(p.program.body(), rounds);
  return b;
}

// The same body twice, as rounds 0 and 1 of a body run `rounds` / 2 times, each run two
// rounds on (body_rounds 2: a round of each instruction is its run's times two plus its own).
System with_two_round_bodies(const System& s, std::uint32_t rounds) {
  System b = s;
  b.rounds = rounds;
  for (Process& p : b.procs) {
    std::vector<Instr> two = p.program.body();
    for (Instr in : p.program.body()) {
      in.round = static_cast<std::uint16_t>(in.round + 1);
      two.push_back(in);
    }
    p.program = Program::repeated(two, rounds / 2, 2);
  }
  return b;
}

// A counterexample as its steps: process, pc and the round of the instruction there.
std::vector<std::array<std::uint32_t, 3>> steps(const System& s, const std::optional<Counterexample>& cex) {
  std::vector<std::array<std::uint32_t, 3>> out;
  if (!cex) return out;
  for (const TraceEntry& e : cex->trace) out.push_back({e.proc, e.pc, s.procs[e.proc].program[e.pc].round});
  return out;
}

void expect_same(const System& bodies, const std::string& what, std::uint64_t max_states) {
  const System full = written_out(bodies);
  ASSERT_EQ(instruction_count(full), instruction_count(bodies));
  for (const Engine engine : {Engine::Explicit, Engine::Persistent, Engine::Random}) {
    EngineOptions o;
    o.engine = engine;
    o.check.collect_all = true;
    o.check.max_states = max_states;
    o.random_runs = 20;
    const Result<CheckResult> a = decide(bodies, o), b = decide(full, o);
    ASSERT_EQ(a.ok(), b.ok()) << what << " " << engine_name(engine);
    if (!a) continue;  // the persistent engine refuses both
    const std::string at = what + " " + std::string(engine_name(engine));
    EXPECT_EQ(a->verdict, b->verdict) << at;
    EXPECT_EQ(a->found_mask, b->found_mask) << at;
    EXPECT_EQ(a->stats, b->stats) << at;  // states, or runs and instructions
    EXPECT_EQ(a->broke_in_round, b->broke_in_round) << at;
    EXPECT_EQ(steps(bodies, a->cex), steps(full, b->cex)) << at;
    EXPECT_EQ(steps(bodies, a->global_finding), steps(full, b->global_finding)) << at;
    if (a->cex) {
      EXPECT_TRUE(replay(bodies, *a->cex)) << at << "\n" << format_counterexample(bodies, *a->cex);
    }
  }
  // The round it broke in: the first rounds of each, cut the same way.
  for (std::uint32_t k = 1; k <= std::min<std::uint32_t>(bodies.rounds, 3); ++k) {
    const System a = testing::first_rounds(bodies, k), b = testing::first_rounds(full, k);
    ASSERT_TRUE(same_instructions(a.procs[0].program, b.procs[0].program)) << what << " first " << k << " rounds";
    if (!bodies.procs[0].program.body().empty() && bodies.procs[0].program.body_rounds() == 1) {
      EXPECT_EQ(a.procs[0].program.repeat(), k) << what << ": the first rounds of a body are still a body";
    }
  }
}

TEST(RoundBodies, ComposedSystemsAsWrittenOut) {
  int checked = 0;
  for (const std::uint32_t rounds : {1u, 2u, 3u, 17u}) {
    for (const auto& [C, L] : {std::pair{1u, 2u}, std::pair{2u, 1u}, std::pair{2u, 2u}}) {
      for (const bool hcc : {true, false}) {
        for (const Lowering low : {Lowering::Table, Lowering::Hierarchical}) {
          const Topology t{C, L, Fabric::Default, hcc, rounds, Wiring::PerPeer, low};
          const Result<Composition> comp = compose(t);
          ASSERT_TRUE(comp.ok());
          const Result<System> sys = lower(*comp, {});
          ASSERT_TRUE(sys.ok());
          for (const Process& p : sys->procs) ASSERT_EQ(p.program.repeat(), rounds) << "lowering repeats one body";
          expect_same(*sys, std::to_string(C) + "x" + std::to_string(L) + " rounds=" + std::to_string(rounds), 20'000);
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 48);
}

TEST(RoundBodies, ArbitraryPeriodicSystemsAsWrittenOut) {
  std::mt19937_64 rng(20261202);
  std::uint32_t periodic = 0, failed = 0;
  for (int i = 0; i < 600; ++i) {
    const System s = arbitrary_system([&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); });
    const std::optional<System> b = as_bodies(s);
    if (!b) continue;
    ++periodic;
    for (const std::uint32_t rounds : {b->rounds, 17u}) {
      const System r = with_rounds(*b, rounds);
      expect_same(r, "system " + std::to_string(i) + " rounds=" + std::to_string(rounds), 5'000);
      if (::testing::Test::HasFatalFailure()) return;
    }
    for (const std::uint32_t rounds : {2u, 6u}) {  // bodies of two rounds each
      expect_same(with_two_round_bodies(*b, rounds), "system " + std::to_string(i) + " two-round bodies, rounds=" + std::to_string(rounds), 5'000);
      if (::testing::Test::HasFatalFailure()) return;
    }
    EngineOptions o;
    o.engine = Engine::Explicit;
    const Result<CheckResult> v = decide(*b, o);
    failed += v && failing(v->verdict);
  }
  EXPECT_GT(periodic, 100u) << "the generator draws periodic systems";
  EXPECT_GT(failed, 10u) << "and failing ones among them";
}

// The old expansion's size against the body's: what lowering no longer writes.
TEST(RoundBodies, ALoweredProgramHoldsOneRound) {
  const Result<Composition> comp = compose(Topology{64, 4, Fabric::Default, true, 1000, Wiring::PerPeer, Lowering::Hierarchical});
  ASSERT_TRUE(comp.ok());
  const Result<System> sys = lower(*comp, {});
  ASSERT_TRUE(sys.ok());
  std::size_t held = 0;
  for (const Process& p : sys->procs) held += p.program.body().size();
  EXPECT_EQ(instruction_count(*sys), held * 1000);
  const Program& host = sys->procs.back().program;
  EXPECT_EQ(host[host.size() - 1].round, 999) << "the last instruction is round 999's";
  EXPECT_EQ(host[host.body().size()].round, 1);
}

}  // namespace
}  // namespace neffbar::model
