// system_graph.h: the coloured graph nauty reads.  Vertices of different kinds
// (process, instruction, semaphore, guarantee set, member) never share a colour, colour
// ids are dense, the graph is undirected, a guarantee is a set (order, repeats and
// members out of range do not count), and preserves() checks every vertex and edge.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "hand_made.h"
#include "neffbar/model/engines/common/compiled.h"
#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"
#include "neffbar/model/engines/explicit/symmetry.h"
#include "neffbar/model/engines/explicit/system_graph.h"

namespace neffbar::model {
namespace {

using namespace hand_made;

// Two processes with one program on s2, both guaranteeing {p0, p1}: written {0, 1} and
// {1, 0, 0, 2, 7} (2 and 7 name no process).  Vertices, in the order they are made: p0, p1; p0's
// four instructions with s2's vertex after its first use; p1's four; the set; its two
// members.
System twins() {
  const std::vector<Instr> prog = {arrive(), inc(2), wait(2, 2), depart()};
  return make(3, {prog, prog}, {{0, 1}, {1, 0, 0, 2, 7}});
}

TEST(SystemGraph, KindsNeverShareAColourAndIdsAreDense) {
  const System sys = twins();
  const ColouredGraph g = system_graph(sys, blocks_of(sys));
  ASSERT_EQ(g.size(), 14u);
  ASSERT_EQ(g.sema_vertex, (std::vector<std::int64_t>{-1, -1, 4}));
  const std::vector<std::vector<std::uint32_t>> kinds = {{0, 1}, {2, 3, 5, 6, 7, 8, 9, 10}, {4}, {11}, {12, 13}};
  std::vector<std::set<std::uint32_t>> colours;
  for (const auto& vertices : kinds) {
    std::set<std::uint32_t> c;
    for (std::uint32_t v : vertices) c.insert(g.colour[v]);
    colours.push_back(c);
  }
  for (std::size_t a = 0; a < kinds.size(); ++a) {
    for (std::size_t b = a + 1; b < kinds.size(); ++b) {
      for (std::uint32_t c : colours[a]) EXPECT_FALSE(colours[b].contains(c)) << "kinds " << a << " and " << b;
    }
  }
  EXPECT_EQ(colours[0].size(), 1u) << "the two processes are alike";
  EXPECT_EQ(colours[4].size(), 1u) << "members are alike";
  const std::set<std::uint32_t> all(g.colour.begin(), g.colour.end());
  EXPECT_EQ(*all.rbegin() + 1, all.size()) << "colour ids 0..k-1";
  EXPECT_EQ(*all.begin(), 0u);
}

TEST(SystemGraph, IsUndirectedAndAGuaranteeIsOneSet) {
  const System sys = twins();
  const ColouredGraph g = system_graph(sys, blocks_of(sys));
  for (std::uint32_t v = 0; v < g.size(); ++v) {
    for (std::uint32_t w : g.out[v]) {
      EXPECT_TRUE(std::binary_search(g.out[w].begin(), g.out[w].end(), v)) << v << " - " << w;
    }
  }
  // Both processes hang off the one set vertex 11, whose members 12 and 13 lead to p0 and p1.
  for (std::uint32_t p : {0u, 1u}) EXPECT_TRUE(std::binary_search(g.out[p].begin(), g.out[p].end(), 11u)) << p;
  EXPECT_EQ(g.out[11], (std::vector<std::uint32_t>{0, 1, 12, 13}));
  EXPECT_EQ(g.out[12], (std::vector<std::uint32_t>{0, 11}));
  EXPECT_EQ(g.out[13], (std::vector<std::uint32_t>{1, 11}));
}

TEST(SystemGraph, PreservesChecksEveryVertexAndEdge) {
  const System sys = twins();
  const ColouredGraph g = system_graph(sys, blocks_of(sys));
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> id(n);
  for (std::uint32_t v = 0; v < n; ++v) id[v] = v;
  EXPECT_TRUE(preserves(g, id));
  // The swap of the twins: processes, instructions and members swap, the rest stays.
  std::vector<std::uint32_t> swap = id;
  for (const auto& [a, b] : {std::pair{0u, 1u}, {2u, 7u}, {3u, 8u}, {5u, 9u}, {6u, 10u}, {12u, 13u}}) std::swap(swap[a], swap[b]);
  EXPECT_TRUE(preserves(g, swap));
  EXPECT_FALSE(preserves(g, std::vector<std::uint32_t>(id.begin(), id.end() - 1))) << "one vertex short";
  std::vector<std::uint32_t> twice = id;
  twice[13] = 12;
  EXPECT_FALSE(preserves(g, twice)) << "not a bijection";
  std::vector<std::uint32_t> out_of_range = id;
  out_of_range[0] = n;  // the first vertex onto none
  EXPECT_FALSE(preserves(g, out_of_range));
  std::vector<std::uint32_t> kinds_mixed = id;
  std::swap(kinds_mixed[0], kinds_mixed[2]);  // a process onto an instruction
  EXPECT_FALSE(preserves(g, kinds_mixed));
  // Colour-preserving, but the edges of the first and of the last vertex broken: the
  // processes swapped alone, the members swapped alone.
  std::vector<std::uint32_t> first = id;
  std::swap(first[0], first[1]);
  EXPECT_FALSE(preserves(g, first));
  std::vector<std::uint32_t> last = id;
  std::swap(last[12], last[13]);
  EXPECT_FALSE(preserves(g, last));
}

// Inside an atomic block the order of the instructions is not observable unless a
// semaphore repeats in it (is_automorphism compares such a block in order): two
// identical increments of one semaphore in one block keep their positions apart, two of
// different semaphores share the block's position.
TEST(SystemGraph, ABlockThatRepeatsASemaphoreKeepsItsOrder) {
  const System sys = make(3, {{arrive(), inc(0), inc(0), wait(0, 2), depart()}, {arrive(), inc(1), inc(2), wait(1, 1), depart()}});
  const auto blocks = blocks_of(sys);
  ASSERT_GE(blocks[0].end(1), 3u) << "the two increments are one block";
  ASSERT_GE(blocks[1].end(1), 3u) << "the two increments are one block";
  const ColouredGraph g = system_graph(sys, blocks);
  // Vertices: p0, p1; p0's arrive (2), inc (3), s0 (4), inc (5), wait (6), depart (7);
  // p1's arrive (8), inc s1 (9), s1 (10), inc s2 (11), s2 (12), wait (13), depart (14).
  ASSERT_EQ(g.sema_vertex, (std::vector<std::int64_t>{4, 10, 12}));
  EXPECT_NE(g.colour[3], g.colour[5]) << "s0 repeats: the increments keep their order";
  EXPECT_EQ(g.colour[9], g.colour[11]) << "no repeat: the increments share the block's position";
}

// The repeat that orders a block may involve the block's first instruction: here the
// wait on s0 that opens [1,5) and the increment of s0 that closes it.
TEST(SystemGraph, ARepeatOfTheBlocksFirstSemaphoreOrdersIt) {
  const System sys = make(3, {{arrive(), wait(0, 1), inc(1), inc(2), inc(0), depart()}, {inc(0)}});
  const auto blocks = blocks_of(sys);
  ASSERT_EQ(blocks[0].end(0), 1u);
  ASSERT_EQ(blocks[0].end(1), 5u);
  const ColouredGraph g = system_graph(sys, blocks);
  // p0, p1; p0's arrive (2), wait s0 (3), s0 (4), inc s1 (5), s1 (6), inc s2 (7), s2 (8),
  // inc s0 (9), depart (10); p1's inc s0 (11).
  ASSERT_EQ(g.sema_vertex, (std::vector<std::int64_t>{4, 6, 8}));
  EXPECT_NE(g.colour[5], g.colour[7]) << "s0 repeats from the block's first instruction: pcs 2 and 3 stay apart";
}

// An unordered block's instructions share a position that is no pc: not even pc 0 of an
// ordered block with the same boundaries.
TEST(SystemGraph, AnUnorderedBlocksPositionIsNoPc) {
  const System sys = make(3, {{inc(0), inc(0), depart()}, {inc(1), inc(2), depart()}});
  const auto blocks = blocks_of(sys);
  ASSERT_EQ(blocks[0].end(0), blocks[1].end(0));
  ASSERT_GE(blocks[0].end(0), 2u);
  const ColouredGraph g = system_graph(sys, blocks);
  // p0, p1; p0's inc s0 (2), s0 (3), inc s0 (4), ...; p1's instructions follow p0's.
  const std::uint32_t p1_first = g.out[1].front();
  ASSERT_EQ(g.sema_vertex[0], 3);
  EXPECT_NE(g.colour[2], g.colour[p1_first]) << "p0's ordered pc 0 and p1's unordered increment";
}

// The instructions' colours tell apart what is_automorphism tells apart (here a wait's
// decrement), or nauty would hand it a generator it refuses, and with it the system's
// real symmetry would be lost: p0 and p1 are alike, p2 and p3 are not.
// An ordered block's instruction is coloured by the block's start and end as well as its
// pc: is_automorphism() maps a block only onto one with the same boundaries.
TEST(SystemGraph, AnOrderedBlockKeepsItsBoundaries) {
  const System sys = make(4, {{arrive(), inc(0), inc(0), wait(3, 1), depart()}, {arrive(), wait(1, 1), inc(2), inc(2), depart()}});
  const auto blocks = blocks_of(sys);
  ASSERT_EQ(blocks[0].end(0), 3u);
  ASSERT_EQ(blocks[1].end(1), 4u);
  const ColouredGraph g = system_graph(sys, blocks);
  // p0's arrive (2), inc s0 (3), s0 (4), inc s0 (5), ...; p1's arrive (9), wait s1 (10),
  // s1 (11), inc s2 (12), s2 (13), inc s2 (14), depart (15).
  ASSERT_EQ(g.sema_vertex, (std::vector<std::int64_t>{4, 11, 13, 7}));
  EXPECT_NE(g.colour[5], g.colour[12]) << "pc 2, blocks of length 3 both, but [0,3) and [1,4)";
  EXPECT_NE(g.colour[12], g.colour[14]) << "s2 repeats: the increments keep their order";
}

TEST(SystemGraph, TheColoursKeepWhatIsAutomorphismCompares) {
  const std::vector<Instr> same = {arrive(), inc(0), wait(0, 2), depart()};
  const System sys = make(2, {same, same, {arrive(), inc(1), wait(1, 2, 1), depart()}, {arrive(), inc(1), wait(1, 2, 2), depart()}});
  const ColouredGraph g = system_graph(sys, blocks_of(sys));
  std::set<std::uint32_t> colours;  // of p2's and p3's instruction vertices (their neighbours)
  for (std::uint32_t p : {2u, 3u}) {
    for (std::uint32_t v : g.out[p]) colours.insert(g.colour[v]);
  }
  EXPECT_EQ(colours.size(), 5u) << "arrive, inc and depart alike; the two waits apart";
  const std::optional<Symmetry> sym = Symmetry::automatic(sys, blocks_of(sys), *nauty_automorphisms());
  ASSERT_TRUE(sym.has_value()) << "p0 and p1 swap";
  EXPECT_EQ(sym->group_size(), 2u);
}


}  // namespace
}  // namespace neffbar::model
