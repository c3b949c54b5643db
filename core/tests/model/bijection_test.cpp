// bijection.h: a map is a bijection of 0..n-1 only when it has n entries, each in range,
// none twice; the ends of the range (0, n-1, n, -1) decide.
#include "neffbar/model/engines/explicit/bijection.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace neffbar::model {
namespace {

TEST(Bijection, EveryValueInRangeOnce) {
  using V = std::vector<std::uint32_t>;
  EXPECT_TRUE(is_bijection<std::uint32_t>(V{}, 0));
  EXPECT_TRUE(is_bijection<std::uint32_t>(V{0}, 1));
  EXPECT_TRUE(is_bijection<std::uint32_t>(V{2, 0, 1}, 3));
  EXPECT_FALSE(is_bijection<std::uint32_t>(V{0, 1}, 3)) << "short";
  EXPECT_FALSE(is_bijection<std::uint32_t>(V{0, 1, 2, 3}, 3)) << "long";
  EXPECT_FALSE(is_bijection<std::uint32_t>(V{0}, 0)) << "long, from nothing";
  EXPECT_FALSE(is_bijection<std::uint32_t>(V{1, 1, 0}, 3)) << "twice";
  EXPECT_FALSE(is_bijection<std::uint32_t>(V{0, 1, 3}, 3)) << "n is out of range";
  EXPECT_FALSE(is_bijection<std::uint32_t>(V{1, 2, 3}, 3)) << "0 missing";
  EXPECT_FALSE(is_bijection<std::uint32_t>(V{1, 1, 2}, 3)) << "0 missing, 1 twice";
}

TEST(Bijection, NegativeValuesAreOutOfRange) {
  using V = std::vector<std::int64_t>;
  EXPECT_TRUE(is_bijection<std::int64_t>(V{1, 0}, 2));
  EXPECT_FALSE(is_bijection<std::int64_t>(V{-1, 0}, 2));
  EXPECT_FALSE(is_bijection<std::int64_t>(V{0, -1}, 2));
  EXPECT_FALSE(is_bijection<std::int64_t>(V{-1, 1}, 2));
}

}  // namespace
}  // namespace neffbar::model
