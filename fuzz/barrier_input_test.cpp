// The barrier target's input codec (barrier_input.h): decode(encode(x)) == x for inputs
// in range, any bytes decode to an input whose encoding decodes to it again, and the
// byte layout is the one the committed seeds of corpus/barrier/ were written in (pinned
// byte by byte here, since a codec wrong the same way both ways would round-trip).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "barrier_input.h"

namespace neffbar::fuzz {
namespace {

using model::DecMode;
using model::Lowering;
using model::Wiring;
using Bytes = std::vector<std::uint8_t>;

template <class In>
In decoded_as(const Bytes& b) {
  const std::optional<BarrierInput> in = decode(b);
  EXPECT_TRUE(in.has_value());
  EXPECT_TRUE(in && std::holds_alternative<In>(*in));
  return in && std::holds_alternative<In>(*in) ? std::get<In>(*in) : In{};
}

void expect_round_trip(const BarrierInput& x) {
  const Bytes b = encode(x);
  const std::optional<BarrierInput> y = decode(b);
  ASSERT_TRUE(y.has_value());
  EXPECT_TRUE(*y == x) << "mode byte " << int(b[0]) << ", " << b.size() << " bytes";
}

TEST(BarrierInput, EveryComposedInputRoundTrips) {
  std::mt19937 rng(1);
  for (std::uint32_t chips = 1; chips <= 4; ++chips) {
    for (std::uint32_t leaders = 1; leaders <= 4; ++leaders) {
      for (unsigned bits = 0; bits < 256; ++bits) {
        ComposedInput c;
        c.topo = model::Topology{chips, leaders, bits & 1 ? Fabric::Switch : Fabric::Default, (bits & 2) != 0, 1 + ((bits >> 2) & 1),
                                 bits & 8 ? Wiring::Counting : Wiring::PerPeer, bits & 16 ? Lowering::Hierarchical : Lowering::Table};
        c.reduce = bits & 32;
        c.por = bits & 64;
        c.symmetry = bits & 128;
        c.random = rng() & 1;
        c.random_runs = static_cast<std::uint8_t>(1 + rng() % 4);
        c.seed_low = static_cast<std::uint16_t>(rng());
        c.fault_leader = static_cast<std::uint8_t>(rng());
        c.fault = static_cast<std::uint8_t>(rng());
        expect_round_trip(c);
      }
    }
  }
}

TEST(BarrierInput, EveryScenarioConfigsAndArbitraryInputRoundTrips) {
  for (unsigned bits = 0; bits < 1024; ++bits) {
    ScenarioInput s;
    s.raw = bits & 1;
    s.topo = model::Topology{s.raw ? bits * 7 % 256 : 1 + (bits >> 1) % 4, s.raw ? bits % 7 : 1 + (bits >> 3) % 4,
                             bits & 32 ? Fabric::Switch : Fabric::Default, (bits & 64) != 0,
                             s.raw ? bits * 13 % 256 : 1 + ((bits >> 7) & 1), bits & 256 ? Wiring::Counting : Wiring::PerPeer,
                             static_cast<Lowering>(bits % 3)};
    s.hyp = model::Hypotheses{bits & 2 ? Compare::Gt : Compare::Ge, bits & 4 ? DecMode::Target : DecMode::One,
                              bits & 8 ? model::Roles::Narrative : model::Roles::Code,
                              bits & 16 ? model::HostAddrs::Config : model::HostAddrs::Ctx, (bits & 512) != 0};
    s.global = bits & 128;
    s.persistent = bits & 64;
    expect_round_trip(s);
    ScenarioInput row;
    row.matrix = true;
    row.full_table = bits & 1;
    row.row = static_cast<std::uint16_t>(bits * 977);
    expect_round_trip(row);
  }
  for (unsigned bits = 0; bits < 48; ++bits) {
    ConfigsInput c{bits & 1 ? Compare::Gt : Compare::Ge, bits & 2 ? DecMode::Target : DecMode::One,
                   bits & 4 ? Fabric::Switch : Fabric::Default, 1 + ((bits >> 3) & 1), {}};
    for (unsigned k = 0; k <= (bits >> 4); ++k) {
      ConfigBytes cfg{};
      cfg[k] = static_cast<std::uint8_t>(bits);
      c.configs.push_back(cfg);
    }
    expect_round_trip(c);
  }
  expect_round_trip(ArbitraryInput{{0x40, 1, 2, 3}});
  expect_round_trip(ArbitraryInput{});
}

// Any bytes: what they decode to encodes to canonical bytes that decode to it again.
TEST(BarrierInput, AnyBytesDecodeToACanonicalInput) {
  std::mt19937 rng(7);
  for (int i = 0; i < 4000; ++i) {
    Bytes b(rng() % 12 + (i % 5 == 0 ? kConfigSize : 0));
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    const std::optional<BarrierInput> in = decode(b);
    if (!in) continue;
    const std::optional<BarrierInput> again = decode(encode(*in));
    ASSERT_TRUE(again.has_value());
    EXPECT_TRUE(*again == *in) << "input " << i;
  }
}

// The layout of the committed seeds, field by field.
TEST(BarrierInput, TheLayoutOfTheCommittedSeeds) {
  const auto c = decoded_as<ComposedInput>({0x00, 1, 2, 0x0B, 0x18, 7, 0, 1, 3});
  EXPECT_EQ(c.topo, (model::Topology{2, 3, Fabric::Switch, true, 1, Wiring::PerPeer, Lowering::Hierarchical}));
  EXPECT_TRUE(c.reduce && c.por && c.symmetry && c.random);
  EXPECT_EQ(c.random_runs, 2);
  EXPECT_EQ(c.seed(), 7u | 1u << 16 | 3u << 24);
  EXPECT_EQ(c.fault_leader, 1);
  EXPECT_EQ(c.fault_kind(), static_cast<model::Fault>(3));
  EXPECT_EQ(decoded_as<ComposedInput>({0x00, 0, 0, 0x14, 0x07, 0, 0, 0, 0}).topo,
            (model::Topology{1, 1, Fabric::Default, false, 2, Wiring::Counting, Lowering::Table}));

  const auto s = decoded_as<ScenarioInput>({0x02, 1, 3, 0x1D, 0x15, 1, 9, 1});
  EXPECT_EQ(s.topo, (model::Topology{2, 4, Fabric::Switch, false, 2, Wiring::Counting, Lowering::ArriveWait}));
  EXPECT_EQ(s.hyp, (model::Hypotheses{Compare::Gt, DecMode::One, model::Roles::Narrative, model::HostAddrs::Ctx, false}));
  EXPECT_TRUE(s.global && s.persistent && !s.raw && !s.matrix);
  const auto raw = decoded_as<ScenarioInput>({0x06, 65, 0, 0x02, 0, 0, 200});
  EXPECT_EQ(raw.topo, (model::Topology{65, 0, Fabric::Default, true, 200}));
  EXPECT_TRUE(raw.raw && !raw.persistent && raw.hyp == model::Hypotheses{});
  const auto row = decoded_as<ScenarioInput>({0x1A, 0x11, 0x01});
  EXPECT_TRUE(row.matrix && row.full_table);
  EXPECT_EQ(row.row, 0x111);

  Bytes configs{0x1B};
  configs.resize(1 + 2 * kConfigSize + 5, 0xAB);
  const auto k = decoded_as<ConfigsInput>(configs);
  EXPECT_EQ(k.compare, Compare::Gt);
  EXPECT_EQ(k.dec, DecMode::One);
  EXPECT_EQ(k.fabric, Fabric::Switch);
  EXPECT_EQ(k.rounds, 2u);
  EXPECT_EQ(k.configs.size(), 2u);
  EXPECT_EQ(barrier_input::kConfigsAt, 1u);

  const auto a = decoded_as<ArbitraryInput>({0x81, 0x40, 5});
  EXPECT_EQ(a.choices, (Bytes{0x40, 5}));
  EXPECT_FALSE(a.persistent_only());
}

// Too short for its mode: nothing to do.
TEST(BarrierInput, ShortInputsAreNothing) {
  EXPECT_FALSE(decode({}));
  EXPECT_FALSE(decode(Bytes{0x00, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_FALSE(decode(Bytes{0x02, 1, 2, 3, 4, 5}));
  EXPECT_FALSE(decode(Bytes{0x0A, 1}));
  EXPECT_FALSE(decode(Bytes(kConfigSize, 0x01)));
  EXPECT_TRUE(decode(Bytes{0x80}));
}

}  // namespace
}  // namespace neffbar::fuzz
