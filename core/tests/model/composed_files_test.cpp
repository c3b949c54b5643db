// compose's files (composed_files.h): the manifest reads back what was written, the
// files make the composition they came from at every topology of the full table, and the
// scenario decided from them is the one decided from the topology (on the reference
// topologies here; on the whole full-scale table in the slow label).
#include <gtest/gtest.h>

#include "hand_made.h"

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "neffbar/model/scenarios/composed_files.h"
#include "neffbar/model/scenarios/matrix.h"

namespace neffbar::model {
namespace {

// The manifest and the content of each file it names, as compose wrote them.
struct Written {
  Manifest manifest;
  std::vector<std::string> bytes;
};

Written write(const Scenario& s, bool logs = false) {
  const Result<std::vector<NamedFile>> files = composed_files(s, logs);
  EXPECT_TRUE(files.ok());
  if (!files.ok()) return {};
  EXPECT_EQ(files->back().name, kManifestName);
  const Result<Manifest> m = read_manifest(files->back().bytes);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message());
  if (!m.ok()) return {};
  Written w{*m, {}};
  for (const ManifestEntry& e : m->entries) {
    const auto f = std::find_if(files->begin(), files->end(), [&](const NamedFile& n) { return n.name == e.file; });
    EXPECT_NE(f, files->end()) << e.file;
    w.bytes.push_back(f == files->end() ? std::string() : f->bytes);
  }
  return w;
}

void expect_same_composition(const Composition& a, const Composition& b, const std::string& what) {
  EXPECT_EQ(a.topo, b.topo) << what;
  EXPECT_EQ(a.configs, b.configs) << what;
  EXPECT_EQ(a.guarantee, b.guarantee) << what;
  ASSERT_EQ(a.contexts.size(), b.contexts.size()) << what;
  for (std::size_t c = 0; c < a.contexts.size(); ++c) EXPECT_EQ(a.contexts[c].bytes, b.contexts[c].bytes) << what << " chip " << c;
}

// The topologies of the full table (leaders 1..4 x fabric x host-CC x lowering x wiring)
// at the chip counts where the tiers change (each side of every power of two, 1..64),
// with the options of its manifest: written, read back, the same composition.  The
// contexts make a 64-chip set 1.8 MB, so every chip count would cost 20 s for nothing
// more.  Under ASan the extremes only.
TEST(ComposedFiles, TheFilesMakeTheCompositionTheyCameFrom) {
  const std::vector<std::uint32_t> chip_counts =
      hand_made::kSanitized ? std::vector<std::uint32_t>{1, 2, 3, 64}
                            : std::vector<std::uint32_t>{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64};
  std::uint32_t n = 0;
  for (const std::uint32_t chips : chip_counts) {
    for (std::uint32_t leaders = 1; leaders <= 4; ++leaders) {
      for (Fabric f : {Fabric::Default, Fabric::Switch}) {
        for (bool host_cc : {false, true}) {
          for (Lowering low : {Lowering::Table, Lowering::ArriveWait, Lowering::Hierarchical}) {
            for (Wiring w : {Wiring::PerPeer, Wiring::Counting}) {
              Scenario s;
              s.topo = Topology{chips, leaders, f, host_cc, 1 + (n % 3) * 7, w, low};
              s.hyp.compare = n % 2 ? Compare::Gt : Compare::Ge;
              s.hyp.proxy = n % 5 != 0;
              s.run.check.guarantee = n % 7 ? GuaranteeMode::Global : GuaranteeMode::Declared;
              const std::string what = scenario_title(s.topo, s.hyp);
              const Written wr = write(s, n % 4 == 0);
              EXPECT_EQ(wr.manifest.topo, s.topo) << what;
              EXPECT_EQ(wr.manifest.hyp, s.hyp) << what;
              EXPECT_EQ(wr.manifest.guarantee, s.run.check.guarantee) << what;
              EXPECT_EQ(wr.manifest.entries.size(), std::size_t{chips} * (leaders + 1)) << what;
              const Result<Composition> from_files = composition_of(wr.manifest, wr.bytes);
              ASSERT_TRUE(from_files.ok()) << what << ": " << from_files.error().message();
              const Result<Composition> direct = compose(s.topo);
              ASSERT_TRUE(direct.ok()) << what;
              expect_same_composition(*from_files, *direct, what);
              ++n;
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(n, chip_counts.size() * 96);
}

// check's scenario and check-configs' (the same with the composition from the files)
// decide alike: verdict, kinds, global line, broke-in-round, counterexample.
void expect_decided_alike(const Scenario& topology, Scenario from_files, const std::string& what) {
  const Result<ScenarioResult> a = run_scenario(topology), b = run_scenario(from_files);
  ASSERT_TRUE(a.ok() && b.ok()) << what;
  EXPECT_EQ(b->result.verdict, a->result.verdict) << what;
  EXPECT_EQ(b->result.found_mask, a->result.found_mask) << what;
  EXPECT_EQ(b->result.global, a->result.global) << what;
  EXPECT_EQ(b->result.broke_in_round, a->result.broke_in_round) << what;
  EXPECT_EQ(b->result.cex.has_value(), a->result.cex.has_value()) << what;
  if (a->result.cex && b->result.cex) {
    EXPECT_EQ(b->result.cex->trace.size(), a->result.cex->trace.size()) << what;
    EXPECT_EQ(b->result.cex->what, a->result.cex->what) << what;
  }
}

// The reference topologies under every lowering, host-addrs and both guarantee modes,
// at 1 and 3 rounds: check-configs' scenario (the composition from the files) and
// check's decide the same, with the same counterexample.
TEST(ComposedFiles, TheScenarioFromTheFilesIsDecidedAsTheTopology) {
  std::uint32_t n = 0;
  for (const auto& [chips, leaders] : reference_topologies(/*small=*/false)) {
    for (Lowering low : {Lowering::Table, Lowering::ArriveWait, Lowering::Hierarchical}) {
      for (HostAddrs ha : {HostAddrs::Ctx, HostAddrs::Config}) {
        for (std::uint32_t rounds : {1u, 3u}) {
          Scenario s;
          s.topo = Topology{chips, leaders, Fabric::Default, (n % 2) == 0, rounds, Wiring::PerPeer, low};
          s.hyp.host_addrs = ha;
          s.run.check.guarantee = n % 3 ? GuaranteeMode::Global : GuaranteeMode::Declared;
          s.run.check.max_states = 2'000'000;
          const std::string what = scenario_title(s.topo, s.hyp);
          const Written wr = write(s);
          Result<Composition> comp = composition_of(wr.manifest, wr.bytes);
          ASSERT_TRUE(comp.ok()) << what;
          Scenario from_files = s;
          from_files.composition = std::move(*comp);
          expect_decided_alike(s, std::move(from_files), what);
          ++n;
        }
      }
    }
  }
  EXPECT_EQ(n, 48u);  // 4 reference topologies x 3 lowerings x 2 host-addrs x 2 round counts
}

// Every scenario of the full-scale table (every chips 1..64 x leaders 1..4 x fabric x
// host-CC x lowering x wiring, and its rounds sample up to 1000) under both host-addrs:
// what check-configs decides from compose's files is what check decides on the
// topology.  Minutes, so label slow (core/tests/CMakeLists.txt): ./scripts/test --slow
// and the campaign run it.
TEST(ComposedFilesFullTable, EveryScenarioFromItsFilesIsDecidedAsTheTopology) {
  std::size_t n = 0;
  for (const Scenario& base : full_scenarios()) {
    for (HostAddrs ha : {HostAddrs::Ctx, HostAddrs::Config}) {
      Scenario s = base;
      s.hyp.host_addrs = ha;
      const std::string what = scenario_title(s.topo, s.hyp);
      const Written wr = write(s);
      Result<Composition> comp = composition_of(wr.manifest, wr.bytes);
      ASSERT_TRUE(comp.ok()) << what << ": " << comp.error().message();
      Scenario from_files = s;
      from_files.composition = std::move(*comp);
      expect_decided_alike(s, std::move(from_files), what);
      if (::testing::Test::HasFailure()) return;  // the first disagreement, not thousands
      ++n;
    }
  }
  EXPECT_EQ(n, 2 * full_scenarios().size());
}

// A changed file is what is decided: the files are read, not the topology recomposed.
TEST(ComposedFiles, AChangedImageIsWhatIsDecided) {
  Scenario s;
  s.topo = Topology{4, 2, Fabric::Default, false, 1, Wiring::PerPeer, Lowering::Table};
  Written wr = write(s);
  wr.bytes[1][0x40] = 0;  // chip 0 leader 1 signals another semaphore on its tier lane to chip 2
  Result<Composition> comp = composition_of(wr.manifest, wr.bytes);
  ASSERT_TRUE(comp.ok());
  EXPECT_EQ(comp->configs[1][0x40], 0);
  Scenario changed = s;
  changed.composition = std::move(*comp);
  const Result<ScenarioResult> a = run_scenario(s), b = run_scenario(changed);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(b->result.verdict, a->result.verdict);
  EXPECT_NE(b->system.semas.size(), a->system.semas.size());
}

// Each way a manifest can fail to describe a topology, named by its key.
TEST(ComposedFiles, AManifestThatIsNoTopologyIsNamedByItsKey) {
  Scenario s;
  s.topo = Topology{2, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table};
  const Result<std::vector<NamedFile>> files = composed_files(s, true);
  ASSERT_TRUE(files.ok());
  const nlohmann::json good = nlohmann::json::parse(files->back().bytes);
  ASSERT_TRUE(read_manifest(good.dump()).ok());
  const std::vector<std::pair<std::function<void(nlohmann::json&)>, std::string>> cases = {
      {[](nlohmann::json& j) { j["format"] = "neffbar-compose/2"; }, "$.format"},
      {[](nlohmann::json& j) { j.erase("options"); }, "$.options"},
      {[](nlohmann::json& j) { j["options"]["chips"] = 65; }, "$.options.chips"},
      {[](nlohmann::json& j) { j["options"]["chips"] = -1; }, "$.options.chips"},
      {[](nlohmann::json& j) { j["options"]["leaders"] = "2"; }, "$.options.leaders"},
      {[](nlohmann::json& j) { j["options"]["fabric"] = "trn2"; }, "$.options.fabric"},
      {[](nlohmann::json& j) { j["options"]["host_cc"] = 1; }, "$.options.host_cc"},
      {[](nlohmann::json& j) { j["options"].erase("guarantee"); }, "$.options.guarantee"},
      {[](nlohmann::json& j) { j["files"][1]["leader"] = 0; }, "$.files[1]"},
      {[](nlohmann::json& j) { j["files"][1]["leader"] = 2; }, "$.files[1].leader"},
      {[](nlohmann::json& j) { j["files"][1]["chip"] = 2; }, "$.files[1].chip"},
      {[](nlohmann::json& j) { j["files"][1]["file"] = "../x.bin"; }, "$.files[1].file"},
      {[](nlohmann::json& j) { j["files"][1]["file"] = "a/b.bin"; }, "$.files[1].file"},
      {[](nlohmann::json& j) { j["files"][1]["file"] = j["files"][0]["file"]; }, "$.files[1].file"},
      {[](nlohmann::json& j) { j["files"][1]["log"] = j["files"][0]["file"]; }, "$.files[1].log"},
      {[](nlohmann::json& j) { j["files"][1]["role"] = "host"; }, "$.files[1].role"},
      {[](nlohmann::json& j) { j["files"][1]["role"] = ""; }, "$.files[1].role"},
      {[](nlohmann::json& j) { j["files"][1]["guarantee"] = {0, 4}; }, "$.files[1].guarantee[1]: expected a leader 0..3, got 4"},
      {[](nlohmann::json& j) { j["files"][1]["guarantee"] = {0.5}; }, "$.files[1].guarantee[0]: expected a leader 0..3, got 0.5"},
      {[](nlohmann::json& j) { j["files"][1]["guarantee"] = {"1"}; }, "$.files[1].guarantee[0]"},
      {[](nlohmann::json& j) { j["files"][1]["guarantee"] = {-1}; }, "$.files[1].guarantee[0]"},
      {[](nlohmann::json& j) { j.erase("format"); }, "$.format: expected neffbar-compose/1, got nothing"},
      {[](nlohmann::json& j) { j["format"] = 1; }, "$.format: expected neffbar-compose/1, got 1"},
      {[](nlohmann::json& j) { j["files"].erase(j["files"].begin()); }, "none for chip 0 leader 0"},
      {[](nlohmann::json& j) { j["files"][1].erase("guarantee"); }, "$.files[1].guarantee: expected an array of leaders, got nothing"},
      {[](nlohmann::json& j) { j["files"].erase(j["files"].begin() + 3); }, "none for chip 1 leader 1"},
      {[](nlohmann::json& j) { j["files"][5]["chip"] = 0; }, "$.files[5]"},
      {[](nlohmann::json& j) { j["files"] = 3; }, "$.files"},
      {[](nlohmann::json& j) { j["files"][0] = 3; }, "$.files[0]"},
  };
  for (const auto& [mutate, where] : cases) {
    nlohmann::json j = good;
    mutate(j);
    const Result<Manifest> m = read_manifest(j.dump());
    ASSERT_FALSE(m.ok()) << j.dump();
    EXPECT_NE(m.error().message().find(where), std::string::npos) << m.error().message() << " (wanted " << where << ")";
  }
  EXPECT_EQ(read_manifest("{not json").error().code, Errc::BadJson);
  EXPECT_EQ(read_manifest("[]").error().code, Errc::WrongType);
  // The files themselves: an image of the wrong length, a chip without its context.
  Written wr = write(s);
  wr.bytes[0].pop_back();
  const Result<Composition> short_image = composition_of(wr.manifest, wr.bytes);
  ASSERT_FALSE(short_image.ok());
  EXPECT_NE(short_image.error().message().find("chip00_leader0.bin"), std::string::npos) << short_image.error().message();
  for (std::uint32_t chip : {0u, 1u}) {  // the contexts follow the 4 images, by chip
    wr = write(s);
    wr.manifest.entries.erase(wr.manifest.entries.begin() + 4 + chip);
    wr.bytes.erase(wr.bytes.begin() + 4 + chip);
    const Result<Composition> no_context = composition_of(wr.manifest, wr.bytes);
    ASSERT_FALSE(no_context.ok());
    EXPECT_NE(no_context.error().message().find("none for chip " + std::to_string(chip)), std::string::npos)
        << no_context.error().message();
  }
}

// The directory users keep and diff: the files named by chip (two digits) and leader,
// and the manifest's text exactly, so that two composes of one topology are one text.
TEST(ComposedFiles, TheFilesAndTheManifestAsWritten) {
  Scenario s;
  s.topo = Topology{11, 1, Fabric::Default, false, 1, Wiring::PerPeer, Lowering::Table};
  const Result<std::vector<NamedFile>> files = composed_files(s, true);
  ASSERT_TRUE(files.ok());
  std::vector<std::string> names;
  for (const NamedFile& f : *files) names.push_back(f.name);
  ASSERT_EQ(names.size(), 11u * 3 + 1);
  EXPECT_EQ(names[0], "chip00_leader0.bin");
  EXPECT_EQ(names[1], "chip00_leader0.json");
  EXPECT_EQ(names[18], "chip09_leader0.bin");
  EXPECT_EQ(names[20], "chip10_leader0.bin");
  EXPECT_EQ(names[22], "chip00_context.bin");
  EXPECT_EQ(names[32], "chip10_context.bin");
  EXPECT_EQ(names[33], "manifest.json");
  s.topo = Topology{1, 1, Fabric::Default, false, 1, Wiring::PerPeer, Lowering::Table};
  const Result<std::vector<NamedFile>> one = composed_files(s, false);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->back().bytes, R"({
  "format": "neffbar-compose/1",
  "options": {
    "chips": 1,
    "leaders": 1,
    "fabric": "default",
    "host_cc": false,
    "rounds": 1,
    "compare": "ge",
    "dec": "one",
    "wiring": "per_peer",
    "lowering": "table",
    "roles": "code",
    "host_addrs": "ctx",
    "proxy": true,
    "guarantee": "global"
  },
  "files": [
    {
      "file": "chip00_leader0.bin",
      "role": "leader",
      "chip": 0,
      "leader": 0,
      "guarantee": [
        0
      ]
    },
    {
      "file": "chip00_context.bin",
      "role": "driver_context",
      "chip": 0
    }
  ]
}
)");
}

}  // namespace
}  // namespace neffbar::model
