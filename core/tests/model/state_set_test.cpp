// The explicit search's memory budget at every growth step: the visited set's bytes()
// + next_growth() is its peak through the next insert, to the byte.  This binary
// replaces the global operator new and delete to count every byte allocated (so it is
// its own executable), and inserts new states one by one into sets of every chunk
// width, comparing the peak each insert reached with what the set said beforehand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <vector>

#include "neffbar/model/engines/common/compiled.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/engines/explicit/state_set.h"

namespace {

// Live bytes and the high-water mark since the last reset, counted by the operators
// below (each block carries its size in a 16-byte header).
std::size_t g_live = 0, g_peak = 0;

void* counted_alloc(std::size_t n) {
  void* p = std::malloc(n + 16);
  if (!p) throw std::bad_alloc();
  *static_cast<std::size_t*>(p) = n;
  g_live += n;
  if (g_live > g_peak) g_peak = g_live;
  return static_cast<char*>(p) + 16;
}

void counted_free(void* q) noexcept {
  if (!q) return;
  void* p = static_cast<char*>(q) - 16;
  g_live -= *static_cast<std::size_t*>(p);
  std::free(p);
}

}  // namespace

void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }

namespace neffbar::model::detail {
namespace {

TEST(StateSetPeak, BytesPlusNextGrowthIsThePeakOfEveryInsertToTheByte) {
  // Widths across the chunk sizes (shift 15, 13, 12, 10, 6) and the parent reserve at
  // the same counts as a table doubling and a new chunk (widths > 64).
  // Chunks of 8 and 64 bytes: the list of chunks grows past what a chunk costs (a
  // list of 2 730 chunks, ~175 MB of states at the real size), the costliest step.
  struct Case {
    std::uint32_t width;
    std::size_t chunk_bytes;
  };
  for (const auto [width, chunk_bytes] : {Case{1, StateSet::kChunkBytes}, Case{4, StateSet::kChunkBytes}, Case{8, StateSet::kChunkBytes},
                                          Case{17, StateSet::kChunkBytes}, Case{257, StateSet::kChunkBytes}, Case{1, 8}, Case{4, 64}}) {
    const std::uint32_t n = width == 257 ? 5'000 : 40'000;
    std::vector<std::uint16_t> pcs(width, 0);
    StateSet set(width, chunk_bytes);
    std::uint32_t growths = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      pcs[0] = static_cast<std::uint16_t>(i);
      pcs[width > 1 ? 1 : 0] = static_cast<std::uint16_t>(width > 1 ? i >> 16 : i);
      const std::uint64_t bytes = set.bytes(), growth = set.next_growth();
      const std::size_t live = g_live;
      g_peak = live;
      ASSERT_TRUE(set.insert(pcs.data(), i, 0).second);
      const std::uint64_t reached = g_peak - live;
      ASSERT_EQ(reached, growth) << "width " << width << ", insert " << i << ": the insert's peak";
      ASSERT_EQ(g_live - live, set.bytes() - bytes) << "width " << width << ", insert " << i << ": what it holds after";
      growths += growth > 0;
    }
    EXPECT_GT(growths, 10u) << "width " << width << ": the inserts grew the set at " << growths << " steps only";
  }
}

TEST(StateSetPeak, AStateAlreadyThereAddsAtMostTheDoubling) {
  StateSet set(4);
  std::vector<std::uint16_t> pcs(4, 0);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    pcs[0] = static_cast<std::uint16_t>(i % 200);
    const std::uint64_t growth = set.next_growth();
    const std::size_t live = g_live;
    g_peak = live;
    set.insert(pcs.data(), i, 0);
    EXPECT_LE(g_peak - live, growth) << "insert " << i;
  }
}

// One process running n increments over k semaphores: value tables of (n + 1) * k
// entries of 8 bytes, and a state space of a few states (the increments are one block).
System long_program(std::uint32_t n, std::uint32_t k = 16) {
  System s;
  for (std::uint32_t i = 0; i < k; ++i) s.semas.push_back(Semaphore{"s" + std::to_string(i), 0, 0});
  Process p;
  p.name = "p0";
  p.participant = true;
  std::vector<Instr> body;
  for (std::uint32_t i = 0; i < n; ++i) body.push_back(Instr{Marker::None, SemaOp{Prim::Inc, i % k, 1, 1}, 0});
  p.program = Program(body);
  s.procs.push_back(std::move(p));
  return s;
}

// The memory budget holds the value tables to the byte: a budget one byte short of them
// refuses them before they are allocated; a budget that holds them and less than one
// byte an entry more (so that an eighth part of it would not) builds them and decides.
TEST(StateSetPeak, TheValueTablesAreBuiltWhenTheBudgetHoldsThemAndNeverAllocatedWhenNot) {
  const System s = long_program(6'000);
  const std::uint64_t entries = Compiled(s, true, true, true).prefix_entries, table_bytes = entries * 8;
  ASSERT_EQ(entries, 6'001u * 16);
  CheckOptions o;
  o.max_memory = table_bytes - 1;
  g_peak = g_live;
  const std::size_t before = g_live;
  const CheckResult refused = check_explicit(s, o);
  EXPECT_EQ(refused.verdict, Verdict::Budget);
  EXPECT_EQ(refused.note.cut->by, Stop::Memory);
  EXPECT_NE(note_text(refused).find("value tables need"), std::string::npos) << note_text(refused);
  EXPECT_LT(g_peak - before, table_bytes / 2) << "the refused tables were allocated";
  o.max_memory = table_bytes + entries - 1;  // max_memory / 9 < entries
  const CheckResult decided = check_explicit(s, o);
  EXPECT_EQ(decided.verdict, Verdict::NotReusable) << note_text(decided);  // the increments stay
  EXPECT_TRUE(decided.exhaustive) << note_text(decided);
  EXPECT_EQ(decided.search().states, check_explicit(s).search().states);
}

// Tables a budget refuses are named with their size in MiB, and nothing of them is
// allocated: past the memory budget (6001 x 160 entries: 7.3 MiB), and past what the
// search ever builds (6001 x 6000 entries: 274.7 MiB, more than 2^25 entries).
TEST(StateSetPeak, RefusedTablesAreNamedByTheirSize) {
  CheckOptions o;
  o.max_memory = 4 << 20;
  const std::size_t before = g_live;
  g_peak = g_live;
  const CheckResult over_budget = check_explicit(long_program(6'000, 160), o);
  EXPECT_EQ(over_budget.note.cut->by, Stop::Memory);
  EXPECT_EQ(note_text(over_budget), "memory budget exhausted: its value tables need 7 MiB, more than the budget");
  const CheckResult too_large = check_explicit(long_program(6'000, 6'000));
  EXPECT_EQ(too_large.note.cut->by, Stop::TooLarge);
  EXPECT_EQ(note_text(too_large), "too large for the explicit search: its value tables would need 274 MiB");
  EXPECT_LT(g_peak - before, std::size_t{4} << 20) << "the refused tables were allocated";
}

}  // namespace
}  // namespace neffbar::model::detail
