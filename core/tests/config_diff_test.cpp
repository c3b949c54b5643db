// diff_configs (config_diff.h): equal images have no difference, and a change of any one
// leaf -- every leaf of the schema, reserved and padding ones and the gate byte's bits
// included -- is named alone, with both values.
#include <gtest/gtest.h>

#include "neffbar/config_diff.h"

namespace neffbar {
namespace {

// A value of the leaf's width other than the one in `img`.
std::uint64_t other_value(const ConfigBytes& img, const Leaf& l) {
  const std::uint64_t v = field_value(img.data() + l.offset, *l.field);
  return v == l.field->max_value() ? 0 : v + 1;
}

void put(ConfigBytes& img, const Leaf& l, std::uint64_t v) {
  const Field& f = *l.field;
  if (f.kind == Kind::Bits) {
    const auto mask = static_cast<std::uint8_t>(f.max_value() << f.bit_shift);
    img[l.offset] = static_cast<std::uint8_t>((img[l.offset] & ~mask) | ((v << f.bit_shift) & mask));
    return;
  }
  for (std::uint32_t i = 0; i < f.elem_size(); ++i) img[l.offset + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

TEST(ConfigDiff, AnImageEqualsItself) {
  ConfigBytes img{};
  for (std::size_t i = 0; i < img.size(); ++i) img[i] = static_cast<std::uint8_t>(i * 37 + 11);
  EXPECT_TRUE(diff_configs(img, img).empty());
}

TEST(ConfigDiff, EveryLeafChangedAloneIsNamedAloneWithBothValues) {
  std::size_t leaves = 0, reserved = 0;
  for (const int fill : {0x00, 0xA5, 0xFF}) {
    ConfigBytes a{};
    a.fill(static_cast<std::uint8_t>(fill));
    for (const Leaf& l : config_leaves()) {
      ConfigBytes b = a;
      const std::uint64_t v = other_value(a, l);
      put(b, l, v);
      const std::vector<FieldDiff> d = diff_configs(a, b);
      ASSERT_EQ(d.size(), 1u) << leaf_path(l) << " fill " << int{fill};
      EXPECT_EQ(d[0].leaf, &l) << leaf_path(l);
      EXPECT_EQ(d[0].a, field_value(a.data() + l.offset, *l.field));
      EXPECT_EQ(d[0].b, v);
      EXPECT_EQ(diff_configs(b, a)[0].a, v) << "the order of the images is kept";
      ++leaves;
      reserved += d[0].reserved();
    }
  }
  EXPECT_EQ(leaves, 3 * config_leaves().size());
  EXPECT_EQ(reserved, 3u * 5) << "__pad, the gate byte's __reserved0 and the three __reserved bytes";
}

TEST(ConfigDiff, ALineNamesOffsetPathValuesAndTag) {
  ConfigBytes a{}, b{};
  const Leaf* sema = nullptr;
  for (const Leaf& l : config_leaves()) {
    if (leaf_path(l) == "device_barrier.barrier_step_config[1].barrier_sema[1]") sema = &l;
  }
  ASSERT_NE(sema, nullptr);
  put(b, *sema, 0x1020);
  b[0x123] = 7;                     // __pad
  b[kGateOffset] = 0x03;            // the gate and a reserved bit
  const std::vector<FieldDiff> d = diff_configs(a, b);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].line(),
            "0x40 device_barrier.barrier_step_config[1].barrier_sema[1]: 0x0000000000000000 -> 0x0000000000001020 (OBSERVED)");
  EXPECT_EQ(d[1].line(), "0x123 device_barrier.__pad: 0 -> 7 (reserved, OBSERVED)");
  EXPECT_EQ(d[2].line(), "0x124 execute_device_barrier: 0 -> 1 (OBSERVED)");
  EXPECT_EQ(d[3].line(), "0x124 __reserved0: 0 -> 1 (reserved, OBSERVED)");
}

}  // namespace
}  // namespace neffbar
