// AtomicBlocks (atomic_blocks.h), held per round body, against the plain scan over the
// program written out: the same block end and the same movers-only answer at every pc,
// for bodies of every mix of right movers, left movers and non-movers, run 1 to 5
// times, with and without the reduction.
#include <gtest/gtest.h>

#include <random>

#include "neffbar/model/engines/common/atomic_blocks.h"
#include "testing/program_ops.h"

namespace neffbar::model::detail {
namespace {

// The classification travels in the instruction's lane: 0 right, 1 left, 2 neither.
bool right(const Instr& in) { return in.lane == 0; }
bool left(const Instr& in) { return in.lane == 1; }

// The block from pc over the whole program: R* N? L*, cut at the end.
std::pair<std::uint32_t, bool> plain(const std::vector<Instr>& w, std::uint32_t pc, bool reduce) {
  const auto n = static_cast<std::uint32_t>(w.size());
  std::uint32_t e = pc;
  if (reduce) {
    while (e < n && right(w[e])) ++e;
    if (e < n && !left(w[e])) ++e;
    while (e < n && left(w[e])) ++e;
  }
  e = std::max(e, pc + 1);
  bool movers = true;
  for (std::uint32_t i = pc; i < e; ++i) movers = movers && (right(w[i]) || left(w[i]));
  return {e, movers};
}

TEST(AtomicBlocks, AgreeWithThePlainScanOverTheWrittenOutProgramAtEveryPc) {
  std::mt19937 rng(7);
  int bodies = 0, spanning = 0, to_end = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const auto n = static_cast<std::uint32_t>(1 + rng() % 7);
    const auto repeat = static_cast<std::uint32_t>(1 + rng() % 5);
    const std::uint32_t mix = rng() % 4;  // 0: any; 1: rights only; 2: lefts only; 3: no non-mover
    std::vector<Instr> body(n);
    for (Instr& in : body) {
      in.lane = static_cast<std::uint8_t>(mix == 1 ? 0 : mix == 2 ? 1 : mix == 3 ? rng() % 2 : rng() % 3);
    }
    const Program prog = Program::repeated(body, repeat);
    const std::vector<Instr> w = written_out(prog);
    for (const bool reduce : {true, false}) {
      const AtomicBlocks blocks(prog, reduce, right, left);
      for (std::uint32_t pc = 0; pc < w.size(); ++pc) {
        const auto [end, movers] = plain(w, pc, reduce);
        ASSERT_EQ(blocks.end(pc), end) << "pc " << pc << " body " << n << " x" << repeat << " reduce " << reduce;
        ASSERT_EQ(blocks.movers_only(pc), movers) << "pc " << pc << " body " << n << " x" << repeat;
        spanning += end / n != pc / n && end % n != 0;
        to_end += end == w.size() && pc + n < w.size();
      }
    }
    ++bodies;
  }
  // The generator reaches blocks that cross a body's end and blocks that run to the
  // program's end from more than a body away (a body of movers only).
  EXPECT_GT(spanning, 1000);
  EXPECT_GT(to_end, 1000);
  EXPECT_EQ(bodies, 3000);
}

}  // namespace
}  // namespace neffbar::model::detail
