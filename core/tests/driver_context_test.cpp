// driver_context.h: the blob's fields at the offsets observed in libnrt.
#include <gtest/gtest.h>

#include <vector>
#include <algorithm>

#include "neffbar/driver_context.h"

namespace neffbar {
namespace {

// The driver-context offsets (core/neffbar/README.md "The driver context"), pinned as
// absolute byte positions: leader count u32 at 0x90, SP record stride 0x138, semaphore
// base u64 at +0x6820 (libnrt @0x240d40, OBSERVED; the u32 width ASSUMED).
TEST(DriverContext, OffsetsAreTheObservedOnes) {
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

}  // namespace
}  // namespace neffbar
