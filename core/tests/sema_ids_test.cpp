// sema_ids.h: is_host_cc, the leader-done id arithmetic and addresses, the slot numbers.
#include <gtest/gtest.h>

#include "neffbar/driver_context.h"
#include "neffbar/sema_ids.h"

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

// The ENCD_*_SEMA_ID slot numbers (OBSERVED, core/neffbar/README.md "Semaphores").
static_assert(static_cast<int>(SemaId::Trigger) == 0 && static_cast<int>(SemaId::Completion) == 1 &&
              static_cast<int>(SemaId::BarrierId0) == 2 && static_cast<int>(SemaId::BarrierId1) == 3 &&
              static_cast<int>(SemaId::BarrierDmaSync) == 4 && static_cast<int>(SemaId::FunctionSwitch) == 5 &&
              static_cast<int>(SemaId::HostBarrierId0) == 6 && static_cast<int>(SemaId::HostBarrierId1) == 7);

}  // namespace
}  // namespace neffbar
