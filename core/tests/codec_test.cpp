#include <gtest/gtest.h>

#include <random>

#include "neffbar/codec.h"

namespace neffbar {
namespace {

ConfigBytes random_bytes(std::uint32_t seed) {
  std::mt19937 rng(seed);
  ConfigBytes b;
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

TEST(Codec, RoundTripIsLosslessOnRandomImages) {
  for (std::uint32_t seed = 0; seed < 500; ++seed) {
    const ConfigBytes b = random_bytes(seed);
    const Result<BarrierConfigs> c = decode(b);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(encode(*c), b) << "seed " << seed;
  }
}

// encode_into overwrites every byte of a buffer that held something else: the gate
// byte's bit-fields are OR-ed in, so the buffer must be cleared first.
TEST(Codec, EncodeIntoOverwritesAUsedBuffer) {
  for (std::uint32_t seed = 0; seed < 50; ++seed) {
    const BarrierConfigs c = *decode(random_bytes(seed));
    ConfigBytes used;
    used.fill(0xFF);
    encode_into(c, used);
    EXPECT_EQ(used, random_bytes(seed)) << "seed " << seed;
    BarrierConfigs into;
    decode_into(random_bytes(seed + 1), into);
    decode_into(random_bytes(seed), into);
    EXPECT_EQ(into, c) << "seed " << seed;
  }
  ConfigBytes used;
  used.fill(0xFF);
  encode_into(BarrierConfigs{}, used);
  EXPECT_EQ(used, ConfigBytes{});
}

TEST(Codec, FieldsLandAtTheirOffsets) {
  BarrierConfigs c;
  c.device_barrier.barrier_step_config[1].barrier_sema[2] = 0x1122334455667788;
  c.device_barrier.total_desc_n = 0xAABBCCDD;
  c.device_barrier.queue_id = 0x7E;
  c.execute_device_barrier = 1;
  c.reserved0 = 0x55;
  c.reserved = {1, 2, 3};
  const ConfigBytes b = encode(c);
  EXPECT_EQ(load_le(b.data() + 0x34 + 0x4 + 2 * 8, 8), 0x1122334455667788u);  // unaligned 0x4C
  EXPECT_EQ(load_le(b.data() + 0x11C, 4), 0xAABBCCDDu);
  EXPECT_EQ(b[0x122], 0x7E);
  EXPECT_EQ(b[0x124], 0x55 << 1 | 1);
  EXPECT_EQ(b[0x125], 1);
  EXPECT_EQ(b[0x127], 3);
  EXPECT_EQ(*decode(b), c);
}

TEST(Codec, BitFieldsAreMaskedToTheirWidth) {
  BarrierConfigs c;
  c.execute_device_barrier = 3;  // only bit 0 exists
  c.reserved0 = 0xFF;            // 7 bits
  const ConfigBytes b = encode(c);
  EXPECT_EQ(b[0x124], 0xFF);
  const BarrierConfigs back = *decode(b);
  EXPECT_EQ(back.execute_device_barrier, 1);
  EXPECT_EQ(back.reserved0, 0x7F);
}

TEST(Codec, WrongLengthIsAnErrorNamingBothLengths) {
  for (std::size_t n : {0u, 1u, 0x124u, 0x127u, 0x129u, 4096u}) {
    const std::vector<std::uint8_t> v(n, 0xAB);
    const Result<BarrierConfigs> r = decode(v);
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_EQ(r.error().code, Errc::WrongLength);
    EXPECT_NE(r.error().message().find("296 bytes (0x128)"), std::string::npos);
    EXPECT_NE(r.error().message().find(std::to_string(n) + " bytes"), std::string::npos);
  }
}

// Overlay laws (core/neffbar/README.md "Layout") on hand-made vectors.
TEST(Codec, OverlayLawsOnHandMadeVectors) {
  ConfigBytes b{};
  // m2s=0x1234 s2m=0xABCD sema0=0x8877665544332211 sema1=0x00FFEEDDCCBBAA99
  const std::uint8_t head[] = {0x34, 0x12, 0xCD, 0xAB, 0x11, 0x22, 0x33, 0x44,
                               0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC};
  std::copy(std::begin(head), std::end(head), b.begin());
  const HostBarrierConfig h = decode_host(b);
  EXPECT_EQ(h.barrier_start, 0x44332211ABCD1234u);
  EXPECT_EQ(h.barrier_done, 0xCCBBAA9988776655u);
  const BarrierConfigs c = *decode(b);
  EXPECT_EQ(c.device_barrier.barrier_step_config[0].m2s_val, 0x1234);
  EXPECT_EQ(c.device_barrier.barrier_step_config[0].barrier_sema[0], 0x8877665544332211u);
  EXPECT_EQ(host_view_by_overlay(c.device_barrier), h);
  for (std::uint32_t seed = 0; seed < 200; ++seed) {
    const ConfigBytes r = random_bytes(seed);
    EXPECT_EQ(host_view_by_overlay(decode(r)->device_barrier), decode_host(r));
  }
}

}  // namespace
}  // namespace neffbar
