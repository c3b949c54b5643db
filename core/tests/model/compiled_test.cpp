// Compiled (compiled.h): the prefix tables the explicit search derives semaphore values
// from, against a plain sum over the program written out, on bodies run 1 to 5 times;
// the table size it reports before allocating, against what it allocates; and its
// division-free pc / n at every 16-bit pc.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "hand_made.h"
#include "neffbar/model/engines/common/compiled.h"

namespace neffbar::model::detail {
namespace {

using hand_made::kSanitized;

TEST(Compiled, BodyRunsIsPcOverNAtEvery16BitPc) {
  EXPECT_EQ(body_divisor(0), 0u);
  std::vector<std::uint32_t> ns;
  for (std::uint32_t n = 1; n <= (kSanitized ? 300u : 2000u); ++n) ns.push_back(n);
  for (const std::uint32_t n : {4095u, 4097u, 10007u, 32767u, 32768u, 40000u, 65521u, 65534u, 65535u}) ns.push_back(n);
  std::uint64_t wrong = 0;
  for (const std::uint32_t n : ns) {
    const std::uint64_t d = body_divisor(n);
    for (std::uint32_t pc = 0; pc <= 0xFFFF; ++pc) wrong += body_runs(pc, d) != pc / n;
    EXPECT_EQ(wrong, 0u) << "n = " << n;
    if (wrong) break;
  }
}

// A random system of round bodies with constant effects (inc, inc_val, wait_ge_and_dec).
System random_system(std::mt19937& rng) {
  const auto semas = 1 + rng() % 4;
  std::vector<std::vector<Instr>> bodies(1 + rng() % 4);
  for (auto& b : bodies) {
    for (std::uint32_t i = 0, n = static_cast<std::uint32_t>(1 + rng() % 6); i < n; ++i) {
      const auto s = static_cast<std::uint32_t>(rng() % semas);
      switch (rng() % 4) {
        case 0: b.push_back(hand_made::inc(s)); break;
        case 1: b.push_back(hand_made::inc_val(s, static_cast<std::int64_t>(rng() % 9) - 4)); break;
        case 2: b.push_back(hand_made::wait(s, 1, 1 + rng() % 3)); break;
        default: b.push_back(rng() % 2 ? hand_made::arrive() : hand_made::depart());
      }
    }
  }
  System sys = hand_made::make(semas, bodies);
  for (Semaphore& m : sys.semas) m.initial = static_cast<std::int32_t>(rng() % 5);
  for (Process& p : sys.procs) p.program = Program::repeated(p.program.body(), static_cast<std::uint32_t>(1 + rng() % 5));
  return sys;
}

TEST(Compiled, ValuesAtEveryPcAreThePlainSumsOverTheWrittenOutProgram) {
  std::mt19937 rng(11);
  int repeated = 0;
  for (int trial = 0; trial < (kSanitized ? 300 : 2000); ++trial) {
    const System sys = random_system(rng);
    const Compiled c(sys, false, true, true);
    repeated += !c.run_once;
    std::vector<std::uint16_t> pcs(sys.procs.size());
    std::vector<std::int32_t> vals;
    for (int k = 0; k < 20; ++k) {
      std::vector<std::int64_t> want(sys.semas.size());
      for (std::size_t i = 0; i < want.size(); ++i) want[i] = sys.semas[i].initial;
      for (std::size_t p = 0; p < pcs.size(); ++p) {
        const Program& prog = sys.procs[p].program;
        pcs[p] = static_cast<std::uint16_t>(rng() % (prog.size() + 1));
        for (std::size_t pc = 0; pc < pcs[p]; ++pc) {
          if (prog[pc].marker == Marker::None) want[prog[pc].op.sema] += effect(prog[pc].op);
        }
      }
      c.values(pcs.data(), vals);
      ASSERT_EQ(vals.size(), want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(vals[i], want[i]) << "trial " << trial << ", semaphore " << i;
      }
    }
  }
  EXPECT_GT(repeated, 100) << "the generator reaches bodies run more than once";
}

TEST(Compiled, TheTableSizeItReportsIsWhatItAllocatesAndABudgetOneShortAllocatesNone) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 500; ++trial) {
    const System sys = random_system(rng);
    std::size_t want = 0;
    for (const Process& p : sys.procs) {
      std::set<std::uint32_t> touched;
      for (const Instr& in : p.program.body()) {
        if (in.marker == Marker::None) touched.insert(in.op.sema);
      }
      want += (p.program.body().size() + 1) * touched.size();
    }
    const auto allocated = [](const Compiled& c) {
      std::size_t n = 0;
      for (const auto& t : c.prefix) n += t.size();
      return n;
    };
    const Compiled whole(sys, false, true, true);
    ASSERT_EQ(whole.prefix_entries, want) << "trial " << trial;
    EXPECT_EQ(allocated(whole), want) << "trial " << trial;
    const Compiled exact(sys, false, true, true, want);
    EXPECT_EQ(allocated(exact), want) << "a budget of exactly the tables' size holds them";
    if (want > 0) {
      const Compiled short_by_one(sys, false, true, true, want - 1);
      EXPECT_EQ(short_by_one.prefix_entries, want) << "the size is reported when refused";
      EXPECT_EQ(allocated(short_by_one), 0u) << "trial " << trial;
    }
    const Compiled none(sys, false, false, true);
    EXPECT_EQ(none.prefix_entries, 0u);
    EXPECT_EQ(allocated(none), 0u);
  }
}

}  // namespace
}  // namespace neffbar::model::detail
