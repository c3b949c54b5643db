#include <gtest/gtest.h>

#include <random>

#include "neffbar/bytes.h"
#include "neffbar/search.h"

namespace neffbar {
namespace {

TEST(Tables, TypedViewAgreesWithTheSpecTables) {
  // The tables of core/neffbar/README.md, restated independently of the byte images.
  const std::uint32_t def[4][4][2] = {{{0, 0}, {7, 2}, {7, 2}, {7, 2}},
                                      {{1, 0}, {2, 0}, {3, 0}, {4, 0}},
                                      {{1, 1}, {2, 1}, {3, 1}, {4, 1}},
                                      {{0, 1}, {7, 2}, {7, 2}, {7, 2}}};
  const std::uint32_t sw[4][4][2] = {{{0, 0}, {7, 2}, {7, 2}, {7, 2}},
                                     {{5, 0}, {6, 0}, {7, 2}, {7, 2}},
                                     {{5, 1}, {6, 1}, {7, 2}, {7, 2}},
                                     {{0, 1}, {7, 2}, {7, 2}, {7, 2}}};
  for (int s = 0; s < 4; ++s) {
    for (int e = 0; e < 4; ++e) {
      EXPECT_EQ(entry_at(kDefaultTable, s, e), (TableEntry{def[s][e][0], def[s][e][1]}));
      EXPECT_EQ(entry_at(kSwitchTable, s, e), (TableEntry{sw[s][e][0], sw[s][e][1]}));
    }
  }
  EXPECT_EQ(kDefaultTable.sizes, (std::array<std::uint8_t, 4>{1, 4, 4, 1}));
  EXPECT_EQ(kSwitchTable.sizes, (std::array<std::uint8_t, 4>{1, 2, 2, 1}));
}

TEST(Search, KnownAnswers) {
  EXPECT_EQ(search_fast(0, 0, Fabric::Default), (SearchHit{0, 0}));
  EXPECT_EQ(search_fast(4, 2, Fabric::Default), (SearchHit{1, 3}));
  EXPECT_EQ(search_fast(6, 1, Fabric::Switch), (SearchHit{0, 1}));
  EXPECT_EQ(search_fast(0, 3, Fabric::Switch), (SearchHit{1, 0}));
  EXPECT_FALSE(search_fast(5, 1, Fabric::Default));  // rack types only on the switch fabric
  EXPECT_FALSE(search_fast(7, 0, Fabric::Default));  // the pad type never matches
  EXPECT_FALSE(search_fast(0, 1, Fabric::Default));
}

TEST(Search, FaithfulEqualsFastExhaustivelyOnBothFabrics) {
  int found = 0;
  for (Fabric f : {Fabric::Default, Fabric::Switch}) {
    for (std::int64_t type = 0; type <= 300; ++type) {
      for (std::int64_t step = -5; step <= 300; ++step) {
        const auto a = search_faithful(type, step, f);
        const auto b = search_fast(type, step, f);
        ASSERT_EQ(a, b) << "type " << type << " step " << step;
        found += a.has_value();
      }
    }
    for (std::int64_t extreme : {INT64_MIN, std::int64_t{INT32_MIN}, std::int64_t{-1},
                                 std::int64_t{UINT32_MAX}, INT64_MAX}) {
      EXPECT_EQ(search_faithful(extreme, 1, f), search_fast(extreme, 1, f));
      EXPECT_EQ(search_faithful(1, extreme, f), search_fast(1, extreme, f));
      EXPECT_FALSE(search_fast(1, extreme, f));
    }
  }
  EXPECT_EQ(found, 10 + 6);  // every active entry, once
}

TEST(Search, ArbitraryImagesDuplicatesAndOversizedRows) {
  TableImage t{};
  auto put = [&](int s, int e, std::uint32_t type, std::uint32_t op) {
    for (int i = 0; i < 4; ++i) {
      t.steps[static_cast<std::size_t>(s * 0x20 + e * 8 + i)] = static_cast<std::uint8_t>(type >> (8 * i));
      t.steps[static_cast<std::size_t>(s * 0x20 + e * 8 + 4 + i)] = static_cast<std::uint8_t>(op >> (8 * i));
    }
  };
  put(1, 0, 3, 9);
  put(1, 1, 3, 1);          // duplicate: the first wins
  put(1, 2, 0xFFFFFFFF, 0); // out-of-range type: never matched
  put(1, 3, 2, 0xDEAD);     // out-of-range op: returned as is
  t.sizes = {0, 200, 4, 1}; // 200 is clamped to 4
  const FastTable fast = FastTable::build(t);
  EXPECT_EQ(fast.find(3, 1), (SearchHit{9, 0}));
  EXPECT_EQ(search_faithful(t, 3, 1), (SearchHit{9, 0}));
  EXPECT_EQ(fast.find(2, 1), (SearchHit{0xDEAD, 3}));
  EXPECT_FALSE(fast.find(0, 0));  // size 0: nothing active even though entry (0,0) is zero
  EXPECT_FALSE(search_faithful(t, 0, 0));
  std::mt19937 rng(1);
  for (int n = 0; n < 2000; ++n) {
    TableImage r{};
    for (auto& b : r.steps) b = static_cast<std::uint8_t>(rng() % 4 == 0 ? rng() : rng() % 8);
    for (auto& s : r.sizes) s = static_cast<std::uint8_t>(rng() % 7);
    const FastTable rf = FastTable::build(r);
    for (std::int64_t type = -1; type <= 8; ++type) {
      for (std::int64_t step = -1; step <= 4; ++step) {
        ASSERT_EQ(search_faithful(r, type, step), rf.find(type, step)) << n;
      }
    }
  }
}

// The guards neffbar defined where the binary has none (search.h), each pinned by an
// input where dropping it changes the answer -- in both variants, so they cannot agree
// on a wrong one.
// barrier_type_t's pad type is 7 (OBSERVED: the (7, _) entries of the tables).
static_assert(static_cast<int>(BarrierType::TypeMax) == 7 && kTypeCount == 7);

TEST(Search, GuardsNeffbarDefined) {
  TableImage t{};
  const auto put = [&](int s, int e, std::uint32_t type, std::uint32_t op) {
    for (int i = 0; i < 4; ++i) {
      t.steps[static_cast<std::size_t>(s * 0x20 + e * 8 + i)] = static_cast<std::uint8_t>(type >> (8 * i));
      t.steps[static_cast<std::size_t>(s * 0x20 + e * 8 + 4 + i)] = static_cast<std::uint8_t>(op >> (8 * i));
    }
  };
  for (int e = 0; e < 4; ++e) put(1, e, 6, 0);  // step 1: four entries of type 6
  put(2, 0, 5, 1);                               // step 2's first entry = step 1's "fifth"
  t.sizes = {4, 5, 1, 4};                        // sizes[1] = 5: clamped to 4
  const FastTable fast = FastTable::build(t);
  // Clamped: type 5 is not in step 1, though an unclamped scan would read it from step 2.
  EXPECT_FALSE(search_faithful(t, 5, 1));
  EXPECT_FALSE(fast.find(5, 1));
  EXPECT_EQ(search_faithful(t, 5, 2), (SearchHit{1, 0}));
  // Type 7 (TYPE_MAX, the pad) and beyond are never matched, even where a row holds them.
  put(3, 0, 7, 1);
  put(3, 1, 8, 1);
  EXPECT_FALSE(search_faithful(t, 7, 3));
  EXPECT_FALSE(search_faithful(t, 8, 3));
  EXPECT_FALSE(FastTable::build(t).find(7, 3));
  // Steps outside 0..3 are not found (the shipped code reads sizes[step] out of bounds).
  for (std::int64_t step : {std::int64_t{-1}, std::int64_t{4}}) {
    EXPECT_FALSE(search_faithful(t, 6, step));
    EXPECT_FALSE(fast.find(6, step));
  }
}

TEST(Tables, Names) {
  EXPECT_EQ(*parse_type("inter_chip"), BarrierType::InterChip);
  EXPECT_EQ(*parse_type("BARRIER_INTRA_RACK"), BarrierType::IntraRack);
  EXPECT_EQ(*parse_type("6"), BarrierType::InterRack);
  EXPECT_FALSE(parse_type("7").ok());
  EXPECT_FALSE(parse_type("bogus").ok());
  EXPECT_FALSE(parse_type("6x").ok()) << "a number must be the whole text";
  EXPECT_FALSE(parse_type("").ok());
  EXPECT_EQ(*parse_fabric("Switch"), Fabric::Switch);
  EXPECT_EQ(parse_fabric("ring").error().code, Errc::InvalidArgument);
  EXPECT_EQ(op_name(1), "EXIT");
  EXPECT_EQ(type_name(99), "?");
}

}  // namespace
}  // namespace neffbar
