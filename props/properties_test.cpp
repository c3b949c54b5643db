// P1..P11 (props/README.md) against the real implementation: every property of the
// registry (registry.h) under rapidcheck, the driver CI runs.  The same entries run from
// bytes in the fuzz targets prop_<name>.  Budget: RC_PARAMS (max_success, seed);
// ./scripts/props --cases N --seed S for long runs.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"
#include "case_judge.h"
#include "rc_driver.h"
#include "registry.h"

namespace neffbar::props {
namespace {

// As the CLI does: `reductions` with its hints dropped finds the symmetry with nauty.
[[maybe_unused]] const bool kNautyRegistered = (model::use_nauty_automorphisms(), true);

class Props : public ::testing::TestWithParam<std::string_view> {};

TEST_P(Props, Holds) {
  bool found = false;
  for_each_property([&](const auto& p) {
    if (p.name != GetParam()) return;
    found = true;
    EXPECT_TRUE(rc::check(std::string(p.name), [p] { rc_run(p.draw, p.law); }));
  });
  EXPECT_TRUE(found);
}

INSTANTIATE_TEST_SUITE_P(, Props, ::testing::ValuesIn(property_names()),
                         [](const ::testing::TestParamInfo<std::string_view>& i) { return std::string(i.param); });

// The topology properties (draw_topology(s, 4, 2)) draw from 256 topologies: each law
// holds on every one with the persistent engine's verdicts (exact; the explicit search's
// agreement is rapidcheck's sample above; the laws are not thorough here), so that half of their verdict is exact, not
// sampled, and the fuzz driver may decide each topology once a process
// (fuzz/property_fuzzer.h).  That the 256 are what the generator draws is checked on
// 20,000 random byte strings.
TEST(TopologyProperties, HoldOnEveryTopologyTheyDraw) {
  std::vector<Topology> all;
  for (std::uint32_t chips = 1; chips <= 4; ++chips) {
    for (std::uint32_t leaders = 1; leaders <= 4; ++leaders) {
      for (Fabric f : {Fabric::Default, Fabric::Switch}) {
        for (bool hcc : {false, true}) {
          for (std::uint32_t rounds = 1; rounds <= 2; ++rounds) {
            for (Lowering low : {Lowering::Table, Lowering::Hierarchical}) {
              all.push_back(Topology{chips, leaders, f, hcc, rounds, Wiring::PerPeer, low});
            }
          }
        }
      }
    }
  }
  std::set<decltype(topology_key(all[0]))> listed, drawn;
  for (const Topology& t : all) listed.insert(topology_key(t));
  std::mt19937_64 rng(20261201);
  for (int i = 0; i < 20'000; ++i) {
    std::vector<std::uint8_t> bytes(1 + rng() % 12);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
    ByteSource src(bytes);
    for (const TopologyInput& in : {draw_p4(src), draw_p5(src)}) drawn.insert(topology_key(in.topo));
  }
  EXPECT_EQ(drawn, listed) << "the generator draws exactly the topologies listed here";
  int decided = 0;
  for (const Topology& t : all) {
    const std::string where = std::to_string(t.chips) + "x" + std::to_string(t.leaders) + " " +
                              std::string(fabric_name(t.fabric)) + (t.host_cc ? " host-CC " : " ") +
                              std::to_string(t.rounds) + " rounds " + std::string(name(t.lowering));
    for (const auto& law : {+[](const TopologyInput& in, Judge& j) { p4_fabrics_agree(in, real_compose, j); },
                            +[](const TopologyInput& in, Judge& j) { p5_deadlock_freedom(in, real_compose, j); }}) {
      decided += holds_on(where, [&](Judge& j) { law(TopologyInput{t}, j); }) ? 1 : 0;
    }
  }
  EXPECT_EQ(decided, 512) << "every topology decided by both laws, none discarded";
}

}  // namespace
}  // namespace neffbar::props
