#include <gtest/gtest.h>

#include "neffbar/lint.h"

namespace neffbar {
namespace {

bool has(const std::vector<LintWarning>& ws, std::uint32_t offset, const std::string& needle) {
  for (const auto& w : ws) {
    if (w.offset == offset && w.line().find(needle) != std::string::npos) return true;
  }
  return false;
}

TEST(Lint, CleanConfigHasNoWarnings) { EXPECT_TRUE(lint(ConfigBytes{}).empty()); }

TEST(Lint, EachCheckFiresWithItsOffset) {
  BarrierConfigs c;
  auto& d = c.device_barrier;
  c.execute_device_barrier = 1;
  d.barrier_step_config[0].barrier_sema[0] = 0x401820;
  d.barrier_step_config[0].target_sema_val[0] = 1;
  c.reserved0 = 2;
  c.reserved[1] = 5;
  d.desc_count = 3;
  d.total_desc_n = 2;
  d.barrier_step_config[1].target_sema_val[2] = 4;          // zero address, non-zero target
  d.barrier_step_config[2].barrier_sema[1] = 0x401024;      // address, target 0
  d.barrier_step_config[3].barrier_sema = {0x401028, 0x401028, 0, 0};
  d.barrier_step_config[3].target_sema_val = {1, 1, 0, 0};
  const auto ws = lint(encode(c));
  EXPECT_TRUE(has(ws, 0x124, "aliases barrier_step_config[0]"));
  EXPECT_TRUE(has(ws, 0x124, "__reserved0"));
  EXPECT_TRUE(has(ws, 0x126, "reserved byte"));
  EXPECT_TRUE(has(ws, 0x118, "desc_count 3 > total_desc_n 2"));
  EXPECT_TRUE(has(ws, 0x120, "no DMA engine"));
  EXPECT_TRUE(has(ws, 0x34 + 0x24 + 8, "unused lane"));
  EXPECT_TRUE(has(ws, 0x68 + 0x4 + 8, "target 0"));
  EXPECT_TRUE(has(ws, 0x9C + 0x4 + 8, "same semaphore"));
  EXPECT_EQ(ws.size(), 8u);
}

TEST(Lint, GateWithZeroOverlayIsFine) {
  BarrierConfigs c;
  c.execute_device_barrier = 1;
  EXPECT_TRUE(lint(encode(c)).empty());
}

}  // namespace
}  // namespace neffbar
