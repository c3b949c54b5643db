#include <gtest/gtest.h>

#include <set>

#include "neffbar/config.h"
#include "neffbar/schema.h"

namespace neffbar {
namespace {

// core/neffbar/README.md "Layout" restated as data, checked against the leaves the schema produces.
struct Expect { const char* path; std::uint32_t offset; std::uint32_t size; bool logged; };
constexpr Expect kExpected[] = {
    {"device_barrier.barrier_step_config[0].m2s_val", 0x000, 2, true},
    {"device_barrier.barrier_step_config[0].s2m_val", 0x002, 2, true},
    {"device_barrier.barrier_step_config[0].barrier_sema[0]", 0x004, 8, true},
    {"device_barrier.barrier_step_config[0].barrier_sema[3]", 0x01C, 8, true},
    {"device_barrier.barrier_step_config[0].target_sema_val[0]", 0x024, 4, true},
    {"device_barrier.barrier_step_config[1].m2s_val", 0x034, 2, true},
    {"device_barrier.barrier_step_config[3].target_sema_val[3]", 0x0CC, 4, true},
    {"device_barrier.dma_sync_sema[0]", 0x0D0, 8, true},
    {"device_barrier.dma_sync_sema[3]", 0x0E8, 8, true},
    {"device_barrier.dma_apb_bcast.m2s_tail_ptr", 0x0F0, 8, true},
    {"device_barrier.dma_apb_bcast.s2m_tail_ptr", 0x0F8, 8, true},
    {"device_barrier.dma_apb_bcast.mask", 0x100, 4, true},
    {"device_barrier.start_network_proxy", 0x104, 8, true},
    {"device_barrier.dma_sync_sema_value", 0x10C, 4, true},
    {"device_barrier.tdrbp_low", 0x110, 4, true},
    {"device_barrier.tdrbp_high", 0x114, 4, true},
    {"device_barrier.desc_count", 0x118, 4, true},
    {"device_barrier.total_desc_n", 0x11C, 4, false},
    {"device_barrier.dma_engines_bitmap", 0x120, 2, true},
    {"device_barrier.queue_id", 0x122, 1, true},
    {"device_barrier.__pad", 0x123, 1, false},
    {"execute_device_barrier", 0x124, 1, true},
    {"__reserved0", 0x124, 1, false},
    {"__reserved[0]", 0x125, 1, false},
    {"__reserved[2]", 0x127, 1, false},
};

// The compile-time self-check refuses what it says it refuses (the shipped schema
// passes it, so only made-up schemas can show it has teeth).
namespace bad {
constexpr Field kOverlappingBits[] = {
    Field{"a", 0, 1, Kind::Bits, 1, true, Tag::Observed, nullptr, 0, 2},  // bits 0-1
    Field{"b", 0, 1, Kind::Bits, 1, true, Tag::Observed, nullptr, 1, 2},  // bits 1-2: overlaps a
};
constexpr Field kSideBySideBits[] = {
    Field{"a", 0, 1, Kind::Bits, 1, true, Tag::Observed, nullptr, 0, 2},  // bits 0-1
    Field{"b", 0, 1, Kind::Bits, 1, true, Tag::Observed, nullptr, 2, 6},  // bits 2-7
};
constexpr Field kPastTheByte[] = {Field{"a", 0, 1, Kind::Bits, 1, true, Tag::Observed, nullptr, 4, 5}};
}  // namespace bad
static_assert(!schema_is_consistent(StructSchema{"overlap", 1, bad::kOverlappingBits}));
static_assert(schema_is_consistent(StructSchema{"side_by_side", 1, bad::kSideBySideBits}));
static_assert(!schema_is_consistent(StructSchema{"past_the_byte", 1, bad::kPastTheByte}));

TEST(Schema, EveryOffsetOfTheSpec) {
  for (const Expect& e : kExpected) {
    bool found = false;
    for (const Leaf& l : config_leaves()) {
      if (leaf_path(l) != e.path) continue;
      found = true;
      EXPECT_EQ(l.offset, e.offset) << e.path;
      EXPECT_EQ(l.field->elem_size(), e.size) << e.path;
      EXPECT_EQ(l.field->logged, e.logged) << e.path;
    }
    EXPECT_TRUE(found) << e.path;
  }
}

TEST(Schema, LeavesCoverEveryByteExactlyOnce) {
  std::array<int, kConfigSize> cover{};
  for (const Leaf& l : config_leaves()) {
    if (l.field->kind == Kind::Bits && l.field->bit_shift != 0) continue;  // shares the gate byte
    for (std::uint32_t i = 0; i < l.field->elem_size(); ++i) ++cover.at(l.offset + i);
  }
  for (std::size_t i = 0; i < kConfigSize; ++i) EXPECT_EQ(cover[i], 1) << "offset " << i;
  // steps, dma_sync, bcast, proxy, 4 u32, total_desc_n, bitmap, queue, pad, 2 bit-fields, reserved
  EXPECT_EQ(config_leaves().size(), 40u + 4 + 3 + 1 + 4 + 1 + 1 + 1 + 1 + 2 + 3);
}

TEST(Schema, LeafAtAndStepIndex) {
  const Leaf* l = leaf_at(0x4C);  // 0x34 + 0x4 + 2*8 = 0x48, 8 bytes
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(leaf_path(*l), "device_barrier.barrier_step_config[1].barrier_sema[2]");
  EXPECT_EQ(l->step, 1);
  EXPECT_EQ(l->index, 2);
  EXPECT_EQ(leaf_at(0x128), nullptr);
  EXPECT_EQ(leaf_path(*leaf_at(0x124)), "execute_device_barrier");
}

TEST(Schema, SizesAndTags) {
  EXPECT_EQ(kConfigSchema.size, 0x128u);
  EXPECT_EQ(kDeviceSchema.size, 0x124u);
  EXPECT_EQ(kStepSchema.size, 0x34u);
  EXPECT_EQ(kBcastSchema.size, 0x14u);
  EXPECT_EQ(kHostSchema.size, 0x10u);
  EXPECT_EQ(boost::pfr::tuple_size_v<DeviceBarrierConfig>, kDeviceFields.size());
  for (const Leaf& l : config_leaves()) EXPECT_EQ(l.field->tag, Tag::Observed) << leaf_path(l);
  EXPECT_EQ(tag_name(Tag::Assumed), "ASSUMED");
}

}  // namespace
}  // namespace neffbar
