#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "neffbar/driver_context.h"
#include "neffbar/sema_address.h"
#include "neffbar/sema_ids.h"
#include "neffbar/semaphore.h"

namespace neffbar {
namespace {

TEST(SemaIds, IsHostCcIsExactlyOneForAll256Bytes) {
  DriverContext ctx;
  for (int v = 0; v < 256; ++v) {
    ctx.set_host_cc(static_cast<std::uint8_t>(v));
    EXPECT_EQ(*is_host_cc(ctx.bytes), v == 1) << v;
  }
  EXPECT_EQ(is_host_cc(std::vector<std::uint8_t>(0x231)).error().code, Errc::ShortContext);
}

TEST(SemaIds, LeaderDoneArithmeticForAll256AlValues) {
  for (int al = 0; al < 256; ++al) {
    // Independent reading of cmp/sbb/and/add: CF = (al < 1); edi = -CF & ~3; edi + 6.
    const std::uint32_t expect = al == 0 ? 2u : 6u;
    EXPECT_EQ(leader_done_sema_id_from_al(static_cast<std::uint8_t>(al)), expect) << al;
  }
  EXPECT_EQ(leader_done_sema_id(true), SemaId::HostBarrierId0);
  EXPECT_EQ(leader_done_sema_id(false), SemaId::BarrierId0);
}

TEST(SemaIds, LeaderDoneIncAddrs) {
  DriverContext ctx;
  ctx.set_leader_count(3);
  for (std::uint32_t i = 0; i < 3; ++i) ctx.set_sp_sema_base(i, 0x10000000ull + i * 0x400000ull);
  ctx.set_host_cc(1);
  auto a = leader_done_inc_addrs(ctx.bytes);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, (std::vector<std::uint64_t>{0x10001818, 0x10401818, 0x10801818}));  // inc window, id 6
  ctx.set_host_cc(2);  // not host-CC: id 2
  a = leader_done_inc_addrs(ctx.bytes);
  EXPECT_EQ(a->at(0), 0x10001808u);
  SemaMapping m;
  m.inc_offset = 0x800;
  EXPECT_EQ(leader_done_inc_addrs(ctx.bytes, m)->at(1), 0x10400808u);
  ctx.set_leader_count(5);
  EXPECT_EQ(leader_done_inc_addrs(ctx.bytes).error().code, Errc::TooManyLeaders);
  ctx.set_leader_count(4);
  EXPECT_EQ(leader_done_inc_addrs(std::span(ctx.bytes).first(ctx.bytes.size() - 1)).error().code,
            Errc::ShortContext);
  EXPECT_TRUE(leader_done_inc_addrs(ctx.bytes).ok());
}

// The driver-context offsets (core/neffbar/README.md "The driver context"), pinned as
// absolute byte positions: leader count u32 at 0x90, SP record stride 0x138, semaphore
// base u64 at +0x6820 (libnrt @0x240d40, OBSERVED; the u32 width ASSUMED).
TEST(SemaIds, DriverContextOffsetsAreTheObservedOnes) {
  DriverContext ctx;
  std::fill(ctx.bytes.begin(), ctx.bytes.end(), std::uint8_t{0xEE});
  ctx.set_leader_count(0x01020304);
  EXPECT_EQ(ctx.bytes[0x8F], 0xEE);
  EXPECT_EQ((std::vector<std::uint8_t>(ctx.bytes.begin() + 0x90, ctx.bytes.begin() + 0x95)),
            (std::vector<std::uint8_t>{0x04, 0x03, 0x02, 0x01, 0xEE}));
  ctx.set_sp_sema_base(2, 0x1122334455667788ull);
  EXPECT_EQ(ctx.bytes[0x6820 + 2 * 0x138], 0x88);
  EXPECT_EQ(ctx.bytes[0x6820 + 2 * 0x138 + 7], 0x11);
  EXPECT_EQ(ctx.bytes[0x6820 + 2 * 0x138 + 8], 0xEE);
  EXPECT_EQ(*sp_sema_base(ctx.bytes, 2), 0x1122334455667788ull);
  EXPECT_EQ(ctx.bytes.size(), 0x6820u + 3 * 0x138 + 8);  // exactly what MAX_LEADERS = 4 leaders need
}

// The ENCD_*_SEMA_ID slot numbers (OBSERVED, core/neffbar/README.md "Semaphores").
static_assert(static_cast<int>(SemaId::Trigger) == 0 && static_cast<int>(SemaId::Completion) == 1 &&
              static_cast<int>(SemaId::BarrierId0) == 2 && static_cast<int>(SemaId::BarrierId1) == 3 &&
              static_cast<int>(SemaId::BarrierDmaSync) == 4 && static_cast<int>(SemaId::FunctionSwitch) == 5 &&
              static_cast<int>(SemaId::HostBarrierId0) == 6 && static_cast<int>(SemaId::HostBarrierId1) == 7);

// A mapping with no block size or no semaphore size resolves nothing (rather than
// dividing by zero); a block of one byte is a mapping like any other.
TEST(SemaIds, DegenerateMappingsResolveNothing) {
  SemaMapping m;
  m.block_size = 0;
  EXPECT_FALSE(resolve(m, 0x1000));
  m = SemaMapping{};
  m.bytes_per_sema = 0;
  EXPECT_FALSE(resolve(m, 0x1000));
  m = SemaMapping{.block_size = 1, .read_offset = 0, .set_offset = 0, .inc_offset = 0, .dec_offset = 0,
                  .bytes_per_sema = 1, .semas_per_block = 1};
  ASSERT_TRUE(resolve(m, 7));
  EXPECT_EQ(resolve(m, 7)->block_base, 7u);
}

// Each window holds 256 semaphores and ends where the next begins: the first and the last
// of every window resolve to that window, never to the one before it.
TEST(SemaIds, EveryWindowHoldsItsFirstAndLastSemaphore) {
  const SemaMapping m;
  for (Window w : {Window::Read, Window::Set, Window::Inc, Window::Dec}) {
    for (std::uint32_t i : {0u, 255u}) {
      const auto r = resolve(m, 0x400000 + m.window_offset(w) + m.bytes_per_sema * i);
      ASSERT_TRUE(r) << static_cast<int>(w) << " " << i;
      EXPECT_EQ(r->window, w) << i;
      EXPECT_EQ(r->index, i) << static_cast<int>(w);
    }
  }
}

TEST(SemaIds, ResolveStripsTheWindow) {
  const SemaMapping m;
  const auto r = resolve(m, 0x400000 + 0x1800 + 4 * 9);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->index, 9u);
  EXPECT_EQ(r->window, Window::Inc);
  EXPECT_EQ(r->key(), resolve(m, 0x400000 + 0x1000 + 4 * 9)->key());
  EXPECT_FALSE(resolve(m, 0x400000 + 0x10));       // below the windows
  EXPECT_FALSE(resolve(m, 0x400000 + 0x1001));     // not 4-byte aligned
}

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
