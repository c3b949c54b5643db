// context_diff.h: two driver contexts compared by their known fields, then byte runs.
#include "neffbar/context_diff.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "neffbar/driver_context.h"

namespace neffbar {
namespace {

std::vector<std::uint8_t> blob() { return DriverContext{}.bytes; }

TEST(ContextDiff, IdenticalBlobsHaveNoDifference) {
  EXPECT_TRUE(diff_contexts(blob(), blob()).empty());
  EXPECT_TRUE(diff_contexts({}, {}).empty());
}

TEST(ContextDiff, EachKnownFieldIsOneDifferenceWithBothValues) {
  for (const ContextField& f : context_fields()) {
    for (std::size_t k = 0; k < f.size; ++k) {  // any byte of it: the field, whole
      std::vector<std::uint8_t> b = blob();
      b[f.offset + k] = 0x5A;
      const std::vector<ContextDiff> d = diff_contexts(blob(), b);
      ASSERT_EQ(d.size(), 1U) << f.name << " byte " << k;
      EXPECT_EQ(d[0].field, &f);
      EXPECT_EQ(d[0].offset, f.offset);
      EXPECT_EQ(d[0].a, 0U);
      EXPECT_EQ(d[0].b, std::uint64_t{0x5A} << (8 * k));
    }
  }
  DriverContext c;
  c.set_leader_count(4);
  EXPECT_EQ(diff_contexts(blob(), c.bytes).at(0).line(), "0x90 leader_count: 0 -> 4 (ASSUMED)");
  c = DriverContext{};
  c.set_sp_sema_base(1, 0x2400001);
  EXPECT_EQ(diff_contexts(blob(), c.bytes).at(0).line(), "0x6958 sp[1].sema_base: 0x0 -> 0x2400001 (OBSERVED)");
}

TEST(ContextDiff, OtherBytesAreRunsThatStopAtAField) {
  std::vector<std::uint8_t> b = blob();
  for (std::size_t i = 0x80; i < 0x98; ++i) b[i] = 1;  // 0x80..0x8F, the count 0x90..0x93, 0x94..0x97
  const std::vector<ContextDiff> d = diff_contexts(blob(), b);
  ASSERT_EQ(d.size(), 3U);
  EXPECT_EQ(d[0].line(), "0x80..0x8F: 16 bytes differ");
  EXPECT_STREQ(std::string(d[1].field->name).c_str(), "leader_count");
  EXPECT_EQ(d[2].line(), "0x94..0x97: 4 bytes differ");
  b = blob();
  b[0x10] = 1;
  EXPECT_EQ(diff_contexts(blob(), b).at(0).line(), "0x10..0x10: 1 byte differs");
}

TEST(ContextDiff, LengthsThatDifferAreDifferences) {
  const std::vector<std::uint8_t> whole = blob();
  const std::vector<std::uint8_t> shorter(whole.begin(), whole.begin() + 0x92);  // cut inside the count
  const std::vector<ContextDiff> d = diff_contexts(shorter, whole);
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].field->name, "leader_count");  // whole in one of them: a field with a missing value
  EXPECT_FALSE(d[0].a.has_value());
  EXPECT_EQ(d[0].b, 0U);
  // Cut inside a field in both: its bytes are compared as bytes, never "(absent) -> (absent)".
  std::vector<std::uint8_t> x = shorter, y = shorter;
  y[0x91] = 7;
  const std::vector<ContextDiff> cut = diff_contexts(x, y);
  ASSERT_EQ(cut.size(), 1U);
  EXPECT_EQ(cut[0].field, nullptr);
  EXPECT_EQ(cut[0].line(), "0x91..0x91: 1 byte differs");
}

// The plain rule: the blobs differ exactly when some difference is reported, and every
// differing byte lies in a reported one.
TEST(ContextDiff, EveryDifferingByteIsInADifferenceAndNoneElse) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::uint8_t> a = blob(), b = blob();
    a.resize(rng() % 2 ? a.size() : rng() % a.size());
    b.resize(rng() % 2 ? b.size() : rng() % b.size());
    for (auto k = rng() % 6; k > 0; --k) {
      if (!b.empty()) b[rng() % b.size()] ^= static_cast<std::uint8_t>(1 + rng() % 255);
    }
    const std::vector<ContextDiff> d = diff_contexts(a, b);
    EXPECT_EQ(d.empty(), a == b);
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      const bool differs = i >= a.size() || i >= b.size() || a[i] != b[i];
      bool covered = false;
      for (const ContextDiff& c : d) covered = covered || (i >= c.offset && i < c.offset + c.length);
      EXPECT_TRUE(!differs || covered) << "byte " << i;
    }
  }
}

TEST(ContextDiff, FirstDifference) {
  EXPECT_EQ(first_difference("abc", "abc"), std::nullopt);
  EXPECT_EQ(first_difference("abc", "abd"), 2U);
  EXPECT_EQ(first_difference("ab", "abc"), 2U);
  EXPECT_EQ(first_difference("", "x"), 0U);
}

}  // namespace
}  // namespace neffbar
