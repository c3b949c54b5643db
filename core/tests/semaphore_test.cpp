// semaphore.h: the semaphore primitives, an op's defaults, overflow.
#include <gtest/gtest.h>

#include <limits>

#include "neffbar/semaphore.h"

namespace neffbar {
namespace {

TEST(Semaphore, Primitives) {
  std::vector<std::int32_t> f(2, 0);
  EXPECT_EQ(apply(f, {Prim::WaitGeAndDec, 0, 1, 1}, Compare::Ge), Outcome::Blocked);
  EXPECT_EQ(f[0], 0);  // blocked changes nothing
  EXPECT_EQ(apply(f, {Prim::Inc, 0, 1, 1}, Compare::Ge), Outcome::Done);
  EXPECT_EQ(apply(f, {Prim::WaitGeAndDec, 0, 1, 1}, Compare::Gt), Outcome::Blocked);  // C4
  EXPECT_EQ(apply(f, {Prim::WaitGe, 0, 1, 1}, Compare::Ge), Outcome::Done);
  EXPECT_EQ(f[0], 1);
  EXPECT_EQ(apply(f, {Prim::WaitGeAndDec, 0, 1, 1}, Compare::Ge), Outcome::Done);
  EXPECT_EQ(f[0], 0);
  EXPECT_EQ(apply(f, {Prim::IncVal, 1, 5, 1}, Compare::Ge), Outcome::Done);
  EXPECT_EQ(apply(f, {Prim::WaitEqAndInc, 1, 4, 1}, Compare::Ge), Outcome::Blocked);
  EXPECT_EQ(apply(f, {Prim::WaitEqAndInc, 1, 5, 1}, Compare::Ge), Outcome::Done);
  EXPECT_EQ(f[1], 6);
  EXPECT_EQ(apply(f, {Prim::WaitEqAndClear, 1, 6, 1}, Compare::Ge), Outcome::Done);
  EXPECT_EQ(f[1], 0);
  EXPECT_EQ(apply(f, {Prim::IncVal, 1, 2, 1}, Compare::Ge), Outcome::Done);
  EXPECT_EQ(apply(f, {Prim::WaitGeAndDec, 1, 2, 2}, Compare::Ge), Outcome::Done);  // dec by target
  EXPECT_EQ(f[1], 0);
}

// SemaOp's defaults: a wait_ge_and_dec with no decrement given removes 1 (the shipped
// libnrt reading, C5's "1"), and an op with no value adds or waits for 1.
TEST(Semaphore, DefaultsOfAnOp) {
  std::vector<std::int32_t> f{1};
  EXPECT_EQ(apply(f, SemaOp{.prim = Prim::WaitGeAndDec}, Compare::Ge), Outcome::Done);
  EXPECT_EQ(f[0], 0);
  EXPECT_EQ(apply(f, SemaOp{.prim = Prim::IncVal}, Compare::Ge), Outcome::Done);
  EXPECT_EQ(f[0], 1);
}

TEST(Semaphore, OverflowIsReportedNotWrapped) {
  std::vector<std::int32_t> f{std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min()};
  EXPECT_EQ(apply(f, {Prim::Inc, 0, 1, 1}, Compare::Ge), Outcome::Overflow);
  EXPECT_EQ(f[0], std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(apply(f, {Prim::IncVal, 1, -1, 1}, Compare::Ge), Outcome::Overflow);
  EXPECT_EQ(apply(f, {Prim::WaitGeAndDec, 1, std::numeric_limits<std::int32_t>::min(), 1}, Compare::Ge),
            Outcome::Overflow);
  EXPECT_EQ(f[1], std::numeric_limits<std::int32_t>::min());
}

}  // namespace
}  // namespace neffbar
