// The fuzzing machinery itself: the schema-driven mutator is deterministic per seed,
// keeps to its image, and always changes it; the crossover takes every leaf from one
// parent; the slow-oracle sample draws about one distinct input in 1024; the property
// driver crashes, naming the check, on a broken implementation, and runs the laws'
// expensive checks on every input of the replay.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "config_mutator.h"
#include "fuzz_check.h"
#include "neffbar/schema.h"
#include "property_fuzzer.h"
#include "registry.h"

namespace neffbar::fuzz {
namespace {

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

// Without libFuzzer (this build) every mutation is a field mutation.
TEST(ConfigMutator, DeterministicPerSeedAndAlwaysChanges) {
  std::set<std::vector<std::uint8_t>> children;
  const auto parent = random_bytes(kConfigSize, 9);
  for (unsigned seed = 0; seed < 200; ++seed) {
    auto a = parent, b = parent;
    a.resize(kConfigSize + 64);
    b.resize(kConfigSize + 64);
    ASSERT_EQ(mutate_config(a.data(), kConfigSize, a.size(), 0, seed), kConfigSize);
    ASSERT_EQ(mutate_config(b.data(), kConfigSize, b.size(), 0, seed), kConfigSize);
    EXPECT_EQ(a, b) << "seed " << seed;
    a.resize(kConfigSize);
    EXPECT_NE(a, parent) << "seed " << seed << ": a mutation that changes nothing";
    children.insert(a);
  }
  EXPECT_GT(children.size(), 180u) << "the seed picks the mutation";
}

TEST(ConfigMutator, KeepsBytesBeforeTheImageAndGrowsShortInputs) {
  for (unsigned seed = 0; seed < 100; ++seed) {
    std::vector<std::uint8_t> in(1 + kConfigSize + 8, 0);
    in[0] = 0x5A;  // the barrier target's mode byte
    const std::size_t n = mutate_config(in.data(), 3, in.size(), 1, seed);
    EXPECT_EQ(n, 1 + kConfigSize);
    EXPECT_EQ(in[0], 0x5A);
  }
  std::vector<std::uint8_t> tiny(16, 0);
  EXPECT_EQ(mutate_config(tiny.data(), 4, tiny.size(), 0, 1), 4u) << "no room for an image: left alone";
}

TEST(ConfigMutator, CrossoverTakesEveryLeafFromAParent) {
  const auto a = random_bytes(kConfigSize, 1), b = random_bytes(kConfigSize, 2);
  int from_b = 0, leaves = 0;
  for (unsigned seed = 0; seed < 50; ++seed) {
    std::vector<std::uint8_t> out(kConfigSize);
    ASSERT_EQ(cross_configs(a.data(), a.size(), b.data(), b.size(), out.data(), out.size(), 0, seed), kConfigSize);
    for (const Leaf& l : config_leaves()) {
      const std::uint32_t n = l.field->elem_size();
      const bool is_a = std::equal(out.begin() + l.offset, out.begin() + l.offset + n, a.begin() + l.offset);
      const bool is_b = std::equal(out.begin() + l.offset, out.begin() + l.offset + n, b.begin() + l.offset);
      if (l.field->kind != Kind::Bits) {
        EXPECT_TRUE(is_a || is_b) << leaf_path(l);
      }
      from_b += is_b && !is_a;
      ++leaves;
    }
  }
  EXPECT_GT(from_b, leaves / 4);
  EXPECT_LT(from_b, 3 * leaves / 4);
  std::vector<std::uint8_t> out(kConfigSize);
  EXPECT_EQ(cross_configs(a.data(), a.size(), a.data(), a.size(), out.data(), out.size(), 0, 7), 0u)
      << "a child equal to its parent is no child";
}

TEST(SlowOracleSample, OneDistinctInputIn1024) {
  unsetenv("NEFFBAR_FUZZ_EVERY");
  SlowOracleSample sample;
  int drawn = 0;
  constexpr int kInputs = 1 << 18;
  for (int i = 0; i < kInputs; ++i) {
    std::array<std::uint8_t, 8> in{};
    std::memcpy(in.data(), &i, sizeof i);
    if (sample(in)) {
      ++drawn;
      EXPECT_FALSE(sample(in)) << "an input already checked is not checked again";
    }
  }
  EXPECT_GT(drawn, kInputs / 1024 / 2);
  EXPECT_LT(drawn, kInputs / 1024 * 2);
}

// The old sampler mixed the last word too little: flips of its high bytes kept the
// sample decision, so mutants of a sampled input were sampled again.
TEST(SlowOracleSample, EveryBitOfEveryByteRedraws) {
  const auto base = random_bytes(kConfigSize, 3);
  const std::uint64_t h = SlowOracleSample::hash(base);
  int same_draw = 0;
  for (std::size_t at = 0; at < base.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      auto v = base;
      v[at] ^= static_cast<std::uint8_t>(1u << bit);
      const std::uint64_t hv = SlowOracleSample::hash(v);
      EXPECT_NE(hv, h) << "byte " << at << " bit " << bit;
      same_draw += hv % SlowOracleSample::kOneIn == h % SlowOracleSample::kOneIn;
    }
  }
  EXPECT_LT(same_draw, 12) << "of 2368 one-bit mutants (2.3 expected by chance)";
}

TEST(SlowOracleSample, EveryInputWhenAsked) {
  setenv("NEFFBAR_FUZZ_EVERY", "1", 1);
  SlowOracleSample sample;
  const auto in = random_bytes(64, 4);
  EXPECT_TRUE(sample(in));
  EXPECT_TRUE(sample(in));
  unsetenv("NEFFBAR_FUZZ_EVERY");
}

// The byte driver has teeth too: P3 bound to a search that returns the last match
// instead of the first crashes on some recorded input, naming the check; a target
// naming no property crashes at once.
TEST(PropertyDriver, ABrokenImplementationCrashesNamingTheCheck) {
  const auto last_match = [](const TableImage& t, std::int64_t type, std::int64_t step) -> std::optional<SearchHit> {
    if (step < 0 || step > 3 || type < 0 || type > 6) return std::nullopt;
    std::optional<SearchHit> last;
    for (int i = 0; i < std::min<int>(t.sizes[static_cast<std::size_t>(step)], 4); ++i) {
      const TableEntry e = entry_at(t, static_cast<int>(step), i);
      if (e.type == static_cast<std::uint32_t>(type)) last = SearchHit{e.op, i};
    }
    return last;
  };
  const auto broken = [&](const props::P3Input& in, props::Judge& j) { props::p3_search_agreement(in, last_match, j); };
  const auto real = [](const props::P3Input& in, props::Judge& j) { props::p3_search_agreement(in, props::real_fast, j); };
  const auto run_all = [](const auto& law) {
    for (std::uint64_t seed = 1; seed <= 500; ++seed) {
      props::RecordingSource rec(seed);
      (void)props::draw_p3(rec);
      run_from_bytes("p3_search", props::draw_p3, law, rec.bytes());
    }
  };
  run_all(real);  // the real one passes on the same inputs
  EXPECT_DEATH(run_all(broken), "neffbar property p3_search failed: faithful search == fast search");
  EXPECT_DEATH(run_property("no_such_property", nullptr, 0), "no property named no_such_property");
}

// A law's expensive checks (Judge::thorough: P4's explicit search, the reductions'
// larger reference budget) run where the sample says: for every input under
// NEFFBAR_FUZZ_EVERY=1 (the ctest replay), so a law broken only there fails every
// replayed input; while fuzzing, for about one distinct input in 1024.
TEST(PropertyDriver, TheThoroughChecksRunOnEveryInputOfTheReplay) {
  std::vector<std::vector<std::uint8_t>> inputs;
  for (std::uint64_t seed = 1; seed <= 256; ++seed) {
    props::RecordingSource rec(seed);
    (void)props::draw_p4(rec);
    inputs.push_back(rec.bytes());
    inputs.back().push_back(static_cast<std::uint8_t>(seed));  // distinct inputs (trailing bytes are not read)
  }
  const auto broken_when_thorough = [](const props::TopologyInput&, props::Judge& j) {
    j.require(!j.thorough(), "the thorough part");
  };
  setenv("NEFFBAR_FUZZ_EVERY", "1", 1);
  SlowOracleSample every;
  EXPECT_DEATH(
      for (const auto& in : inputs) run_from_bytes("p4_fabrics", props::draw_p4, broken_when_thorough, in, every(in)),
      "neffbar property p4_fabrics failed: the thorough part");
  unsetenv("NEFFBAR_FUZZ_EVERY");
  SlowOracleSample sampled;
  const auto drawn = std::count_if(inputs.begin(), inputs.end(), [&](const auto& in) { return sampled(in); });
  EXPECT_LE(drawn, 4) << "of 256 distinct inputs (0.25 expected)";
}

// While fuzzing, a topology already decided is skipped, and decided once more the first
// time the sample asks for the thorough checks; other inputs and the replay
// (NEFFBAR_FUZZ_EVERY=1) are never skipped.
TEST(PropertyDriver, ATopologyIsDecidedOnceAndOnceMoreThoroughly) {
  const props::TopologyInput a{model::Topology{2, 3, Fabric::Default, true, 1, model::Wiring::PerPeer, model::Lowering::Table}};
  props::TopologyInput b = a;
  b.topo.lowering = model::Lowering::Hierarchical;
  DecidedTopologies memo(/*every=*/false);
  EXPECT_FALSE(memo.decided(a, false));
  EXPECT_TRUE(memo.decided(a, false));
  EXPECT_FALSE(memo.decided(b, false)) << "another field, another topology";
  EXPECT_FALSE(memo.decided(a, true)) << "first thorough sight";
  EXPECT_TRUE(memo.decided(a, true));
  EXPECT_TRUE(memo.decided(a, false));
  EXPECT_FALSE(memo.decided(props::P3Input{}, false));
  EXPECT_FALSE(memo.decided(props::P3Input{}, false));
  DecidedTopologies every(/*every=*/true);
  EXPECT_FALSE(every.decided(a, false));
  EXPECT_FALSE(every.decided(a, false));
  // Through the driver: the law runs for the first input of a topology only.
  int ran = 0;
  const auto count = [&](const props::TopologyInput&, props::Judge&) { ++ran; };
  DecidedTopologies fresh(/*every=*/false);
  props::RecordingSource rec(7);
  (void)props::draw_p4(rec);
  const std::vector<std::uint8_t> bytes = rec.bytes();
  std::vector<std::uint8_t> longer = bytes;
  longer.push_back(0);  // another byte string, the same topology (trailing bytes are not read)
  run_from_bytes("p4_fabrics", props::draw_p4, count, bytes, false, fresh);
  run_from_bytes("p4_fabrics", props::draw_p4, count, longer, false, fresh);
  EXPECT_EQ(ran, 1);
  run_from_bytes("p4_fabrics", props::draw_p4, count, longer, true, fresh);
  EXPECT_EQ(ran, 2);
}

}  // namespace
}  // namespace neffbar::fuzz
