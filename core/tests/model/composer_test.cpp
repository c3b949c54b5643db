#include <gtest/gtest.h>

#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/frontend/faults.h"
#include "neffbar/model/frontend/lowering.h"

namespace neffbar::model {
namespace {

TEST(Composer, ValidatesTheTopology) {
  EXPECT_EQ(compose(Topology{0, 1}).error().where, "chips");
  EXPECT_EQ(compose(Topology{65, 1}).error().where, "chips");
  EXPECT_EQ(compose(Topology{1, 0}).error().where, "leaders");
  EXPECT_EQ(compose(Topology{1, 5}).error().where, "leaders");
  Topology t{1, 1};
  t.rounds = 0;
  EXPECT_FALSE(compose(t).ok());
  EXPECT_TRUE(compose(Topology{64, 4}).ok());
}

TEST(Composer, ConfigsFollowTheSpecWiring) {
  const Composition c = *compose(Topology{2, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table});
  ASSERT_EQ(c.configs.size(), 4u);
  const BarrierConfigs l1 = *decode(c.configs[1]);  // chip 0, leader 1
  const auto& st = l1.device_barrier.barrier_step_config;
  EXPECT_EQ(l1.execute_device_barrier, 1);
  // step 0, lane j increments leader j's semaphore 8+l
  EXPECT_EQ(st[0].barrier_sema[0], c.sp_base(0, 0) + c.mapping.sema_offset(9, Window::Read));
  EXPECT_EQ(st[0].barrier_sema[1], c.sp_base(0, 1) + c.mapping.sema_offset(9, Window::Read));
  // step 3 waits its own 8+j
  EXPECT_EQ(st[3].barrier_sema[0], c.sp_base(0, 1) + c.mapping.sema_offset(8, Window::Read));
  EXPECT_EQ(st[3].target_sema_val[1], 1u);
  // tier lane 0 (INTRA_POD's index) links to chip 1, leader 1
  EXPECT_EQ(st[1].barrier_sema[0], c.sp_base(1, 1) + c.mapping.sema_offset(12, Window::Read));
  EXPECT_EQ(st[1].barrier_sema[1], 0u);  // chip 0 ^ 2 does not exist
  EXPECT_EQ(c.guarantee[1], (std::vector<std::uint32_t>{0, 1, 3}));
  EXPECT_EQ(*is_host_cc(c.contexts[0].bytes), true);
  EXPECT_EQ(leader_done_inc_addrs(c.contexts[1].bytes)->size(), 2u);
}

// 12+i on every tier lane i, not only the first: chip 0 of 8 reaches chip 1 (i = 0),
// chip 2 (i = 1) and chip 4 (i = 2); step 2 waits on its own 12+i.  Counting wiring
// uses the single counters 8 and 12.
TEST(Composer, TierIdsAre12PlusI) {
  const Composition c = *compose(Topology{8, 1, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table});
  const BarrierConfigs c0 = *decode(c.configs[0]);
  const auto& st = c0.device_barrier.barrier_step_config;
  for (std::uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(st[1].barrier_sema[i], c.sp_base(1u << i, 0) + c.mapping.sema_offset(12 + i, Window::Read)) << i;
    EXPECT_EQ(st[2].barrier_sema[i], c.sp_base(0, 0) + c.mapping.sema_offset(12 + i, Window::Read)) << i;
  }
  const Composition k = *compose(Topology{2, 2, Fabric::Default, true, 1, Wiring::Counting, Lowering::Table});
  const BarrierConfigs k1 = *decode(k.configs[1]);  // chip 0, leader 1
  const auto& ks = k1.device_barrier.barrier_step_config;
  EXPECT_EQ(ks[0].barrier_sema[0], k.sp_base(0, 0) + k.mapping.sema_offset(8, Window::Read));
  EXPECT_EQ(ks[3].barrier_sema[0], k.sp_base(0, 1) + k.mapping.sema_offset(8, Window::Read));
  EXPECT_EQ(ks[1].barrier_sema[0], k.sp_base(1, 1) + k.mapping.sema_offset(12, Window::Read));
  EXPECT_EQ(ks[0].target_sema_val[0], 1u);  // each leader adds 1 to the counter ...
  EXPECT_EQ(ks[3].target_sema_val[0], 2u);  // ... that waits for L = 2
}

TEST(Composer, Names) {
  EXPECT_EQ(name(Lowering::Table), "table");
  EXPECT_EQ(name(Lowering::ArriveWait), "arrive_wait");
  EXPECT_EQ(name(Lowering::Hierarchical), "hierarchical");
  EXPECT_EQ(name(Wiring::PerPeer), "per_peer");
  EXPECT_EQ(name(Wiring::Counting), "counting");
  EXPECT_EQ(name(HostAddrs::Ctx), "ctx");
  EXPECT_EQ(name(HostAddrs::Config), "config");
  EXPECT_EQ(name(DecMode::One), "one");
  EXPECT_EQ(name(DecMode::Target), "target");
  EXPECT_EQ(name(Roles::Code), "code");
  EXPECT_EQ(name(Roles::Narrative), "narrative");
  EXPECT_EQ(name(Compare::Ge), "ge");
  EXPECT_EQ(name(Compare::Gt), "gt");
}

// inject's default leader is leader 0 (c0.l0); the others keep their configs.
TEST(Composer, FaultsGoToLeaderZeroByDefault) {
  const Composition clean = *compose(Topology{1, 2});
  Composition c = clean;
  ASSERT_TRUE(inject(c, Fault::RaiseThreshold));
  EXPECT_NE(c.configs[0], clean.configs[0]);
  EXPECT_EQ(c.configs[1], clean.configs[1]);
}

// The ids neffbar assumes (8+j intra, 12+i tiers above; 16+j for hierarchical's closing
// intra round here), pinned: moving one fails this test.
TEST(Lowering, HierarchicalClosingRoundUsesIds16PlusJ) {
  const System sys =
      *lower(*compose(Topology{1, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Hierarchical}), {});
  const Process& l1 = sys.procs[1];
  ASSERT_EQ(l1.name, "c0.l1");
  std::vector<std::string> tail;  // the closing round: the last four device-step instructions
  for (std::uint32_t pc = 0; pc < l1.program.size(); ++pc) {
    if (l1.program[pc].step != 0xFF) tail.push_back(sys.semas[l1.program[pc].op.sema].name + " " +
                                                    std::string(prim_name(l1.program[pc].op.prim)));
  }
  ASSERT_GE(tail.size(), 4u);
  tail.erase(tail.begin(), tail.end() - 4);
  EXPECT_EQ(tail, (std::vector<std::string>{"c0.l0#17 inc", "c0.l1#17 inc", "c0.l1#16 wait_ge_and_dec",
                                            "c0.l1#17 wait_ge_and_dec"}));
}

TEST(Composer, TierLanesComeFromSearch) {
  EXPECT_EQ(tier_lanes(Fabric::Default), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(tier_lanes(Fabric::Switch), (std::vector<int>{0, 1}));
  EXPECT_EQ(tier_partner(4, 1, 1), 3u);
  EXPECT_FALSE(tier_partner(3, 1, 1));
}

TEST(Lowering, HostCcMergesTheDoneSemaphores) {  // P7 by hand
  for (bool hcc : {true, false}) {
    const Composition c = *compose(Topology{1, 2, Fabric::Default, hcc});
    const System s = *lower(c, {});
    const Process& host = s.procs[2];
    const Process& leader = s.procs[0];
    const std::uint32_t leader_done = leader.program[leader.program.size() - 1].op.sema;
    const std::uint32_t host_waits = host.program[2].op.sema;
    EXPECT_EQ(leader_done == host_waits, hcc);
    EXPECT_EQ(s.procs.size(), hcc ? 3u : 5u);  // + two proxies without host-CC
  }
}

}  // namespace
}  // namespace neffbar::model

namespace neffbar::model {
namespace {

// check-configs' lowering takes the compare and the rounds it is given.
TEST(Lowering, ConfigsTakeTheCompareAndTheRounds) {
  const Composition c = *compose(Topology{1, 2});
  Hypotheses h;
  h.compare = Compare::Gt;
  const System s = *lower_configs(c.configs, Fabric::Default, Lowering::Table, 2, h);
  EXPECT_EQ(s.compare, Compare::Gt);
  EXPECT_EQ(s.rounds, 2u);
  EXPECT_EQ(lower_configs(c.configs, Fabric::Default, Lowering::Table, 1, Hypotheses{})->compare, Compare::Ge);
}

}  // namespace
}  // namespace neffbar::model

namespace neffbar::model {
namespace {

// Every window of a mapped semaphore is one semaphore; an unmapped address is one of its
// own, whatever its bits -- even one whose bits equal a mapped semaphore's key with
// the top bit set (the old key scheme took it for that semaphore).
TEST(Lowering, SemaphoreSpaceKeepsUnmappedAddressesApart) {
  const SemaMapping m;
  SemaSpace space(m);
  System sys;
  const std::uint64_t base = m.sp_base(kSpOrigin, 1);
  const std::uint32_t a = space.intern(base + m.sema_offset(8, Window::Read), sys);
  EXPECT_EQ(space.intern(base + m.sema_offset(8, Window::Inc), sys), a);
  const SemaRef ref = *resolve(m, base + m.sema_offset(8, Window::Read));
  std::size_t unmapped = 0;
  for (std::uint64_t bits : {0x8000'0000'0000'0001ull, 0x8000'0000'0000'0000ull, 0ull}) {
    const std::uint64_t odd = ref.key() ^ bits;
    ASSERT_FALSE(resolve(m, odd)) << std::hex << odd;
    EXPECT_NE(space.intern(odd, sys), a) << std::hex << odd;
    ++unmapped;
  }
  EXPECT_EQ(sys.semas.size(), 1u + unmapped);
  EXPECT_NE(sys.semas.back().name.find("unmapped:"), std::string::npos);
}

}  // namespace
}  // namespace neffbar::model
