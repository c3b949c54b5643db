// Writes the seed corpus of every fuzz target and their dictionaries (and the property
// targets' options):
//   make_corpus OUT_DIR     -> OUT_DIR/<target>/<sha1-to-be>.seed, OUT_DIR/<target>.dict
// (scripts/make-corpus renames the seeds to their sha1 and copies them into corpus/).
// Seeds are real: configs composed for the reference topologies, their logs, the
// shipped table images, composer driver contexts.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "neffbar/arch.h"
#include "neffbar/bytes.h"
#include "neffbar/json_log.h"
#include "neffbar/model/frontend/composer.h"
#include "registry.h"

namespace fs = std::filesystem;
using namespace neffbar;
using namespace neffbar::model;
using Bytes = std::vector<std::uint8_t>;

namespace {

void put(const fs::path& dir, const std::string& name, const Bytes& b) {
  fs::create_directories(dir);
  std::ofstream(dir / (name + ".seed"), std::ios::binary).write(reinterpret_cast<const char*>(b.data()),
                                                                 static_cast<std::streamsize>(b.size()));
}
Bytes of(const ConfigBytes& c) { return Bytes(c.begin(), c.end()); }
Bytes of(const std::string& s) { return Bytes(s.begin(), s.end()); }

std::vector<Composition> compositions() {
  std::vector<Composition> out;
  for (auto [c, l, f] : {std::tuple{1u, 4u, Fabric::Default}, {2u, 4u, Fabric::Default}, {2u, 2u, Fabric::Switch},
                         {4u, 4u, Fabric::Default}, {3u, 1u, Fabric::Switch}}) {
    for (Wiring w : {Wiring::PerPeer, Wiring::Counting}) {
      out.push_back(*compose(Topology{c, l, f, c % 2 == 0, 1, w, Lowering::Table}));
    }
  }
  return out;
}

std::string le_token(std::uint64_t v, int width) {
  std::string s = "\"";
  for (int i = 0; i < width; ++i) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>((v >> (8 * i)) & 0xFF));
    s += buf;
  }
  return s + "\"";
}

// The property targets (props/registry.h): seeds are the bytes of recorded random
// choices (props/source.h RecordingSource), so each decodes to a typical input of the
// property; plus the empty input (every choice the simplest) and all-ones (every choice
// the last).  The dictionary holds the values an 8-byte choice (any64) turns into
// directly: zero, all-ones, the int32 limits and, where random config bytes are drawn,
// mapped semaphore addresses.  max_len is four times the longest seed.
void write_property_targets(const fs::path& out) {
  const SemaMapping m;
  neffbar::props::for_each_property([&](const auto& p) {
    const std::string target = "prop_" + std::string(p.name);
    std::size_t longest = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      neffbar::props::RecordingSource rec(seed);
      (void)p.draw(rec);
      longest = std::max(longest, rec.bytes().size());
      put(out / target, "recorded" + std::to_string(seed), rec.bytes());
    }
    put(out / target, "empty", Bytes{});
    put(out / target, "ones", Bytes(longest, 0xFF));
    std::ofstream dict(out / (target + ".dict"));
    for (std::uint64_t v : {std::uint64_t{0}, ~std::uint64_t{0}, std::uint64_t{INT32_MAX}, std::uint64_t{0x80000000u},
                            std::uint64_t{1}, std::uint64_t{2}}) {
      dict << le_token(v, 8) << "\n";
    }
    if (p.name == "p1_round_trip" || p.name == "p2_overlay") {
      for (std::uint32_t id : {2u, 6u, 7u, 8u, 9u, 12u, 16u}) dict << le_token(m.sp_base(kSpOrigin, 1) + m.sema_offset(id, Window::Read), 8) << "\n";
    }
    std::ofstream(out / (target + ".options")) << "[libfuzzer]\nmax_len = " << std::max<std::size_t>(64, 4 * longest)
                                                << "\ndict = " << target << ".dict\n";
  });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const fs::path out = argv[1];
  const auto comps = compositions();
  int n = 0;
  // decode + json: composed configs, zero, all-ones, and the wrong lengths.
  std::set<ConfigBytes> configs;
  for (const Composition& c : comps) {
    for (const ConfigBytes& b : c.configs) configs.insert(b);
  }
  ConfigBytes ones;
  ones.fill(0xFF);
  configs.insert(ConfigBytes{});
  configs.insert(ones);
  for (const ConfigBytes& b : configs) {
    put(out / "decode", "c" + std::to_string(n), of(b));
    put(out / "json", "full" + std::to_string(n), of(write_log(b, LogMode::Full)));
    put(out / "json", "default" + std::to_string(n), of(write_log(b, LogMode::Default)));
    ++n;
  }
  for (std::size_t len : {0u, 1u, 0x124u, 0x127u, 0x129u}) put(out / "decode", "len" + std::to_string(len), Bytes(len, 0xA5));
  // json: a number field holding what is no u16 (negative, fractional, a string, too big).
  const std::string zero_log = write_log(ConfigBytes{}, LogMode::Full);
  for (const std::string bad : {"-1", "1.5", "\"7\"", "65536", "true", "null"}) {
    std::string text = zero_log;
    text.replace(text.find("\"m2s_val\": 0") + 11, 1, bad);
    put(out / "json", "m2s_val" + std::to_string(std::hash<std::string>{}(bad)), of(text));
  }
  put(out / "json", "notjson", of(std::string("{\"execute_device_barrier\": \"(nil)\", ")));
  put(out / "json", "nil", of(std::string("{\"execute_device_barrier\": \"(nil)\"}")));
  // search: both shipped images with a sweep of queries.
  for (Fabric f : {Fabric::Default, Fabric::Switch}) {
    const TableImage& t = table_for(f);
    Bytes b(t.steps.begin(), t.steps.end());
    b.insert(b.end(), t.sizes.begin(), t.sizes.end());
    for (std::int64_t type = -1; type <= 8; ++type) {
      for (std::int64_t step = -1; step <= 4; ++step) {
        Bytes q(16);
        store_le(q.data(), 8, static_cast<std::uint64_t>(type));
        store_le(q.data() + 8, 8, static_cast<std::uint64_t>(step));
        b.insert(b.end(), q.begin(), q.end());
      }
    }
    put(out / "search", std::string(fabric_name(f)), b);
  }
  // sema: a barrier-like trace, an overflow trace, and every primitive blocked and done.
  put(out / "sema", "barrier", Bytes{0, 0, 1, 1, 0, 0, 0, 1, 2, 1, 1, 0, 0, 0, 1});
  put(out / "sema", "overflow", Bytes{1, 1, 0, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 1, 0, 0, 0, 0});
  for (std::uint8_t cmp = 0; cmp < 2; ++cmp) {
    Bytes all{cmp};
    for (std::uint8_t prim = 0; prim < 6; ++prim) {
      for (std::uint8_t v : {std::uint8_t{0}, std::uint8_t{1}, std::uint8_t{2}}) {
        const Bytes op{prim, 0, v, 0, 0, 0, 1};
        all.insert(all.end(), op.begin(), op.end());
      }
    }
    put(out / "sema", "every_prim" + std::to_string(cmp), all);
  }
  // handshake: composer contexts (host-CC on and off), five leaders, a short blob.
  for (std::size_t i = 0; i < comps.size(); i += 2) put(out / "handshake", "ctx" + std::to_string(i), comps[i].contexts[0].bytes);
  DriverContext five;
  five.set_leader_count(5);
  put(out / "handshake", "five", five.bytes);
  put(out / "handshake", "compact", Bytes{1, 2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0});
  // barrier: composed mode for several topologies; configs mode from composed configs.
  // composed: [mode, chips, leaders, topology flags, check flags, seed x4 ... leader, fault]
  for (std::uint8_t c = 0; c < 4; ++c) {
    for (std::uint8_t flags : {std::uint8_t{0x00}, std::uint8_t{0x02}, std::uint8_t{0x0B}, std::uint8_t{0x1A}}) {
      for (std::uint8_t check : {std::uint8_t{0x00}, std::uint8_t{0x07}, std::uint8_t{0x18}}) {
        if (check == 0x07 && c >= 2) continue;  // the unreduced search only on 1-2 chips
        for (std::uint8_t fault = 0; fault < 4; ++fault) {
          put(out / "barrier", "composed" + std::to_string(c) + "_" + std::to_string(flags) + "_" + std::to_string(check) + "_" + std::to_string(fault),
              Bytes{0, c, static_cast<std::uint8_t>(c + 1u), flags, check, 7, 0, 1, fault});
        }
      }
    }
  }
  // scenario: every 17th row of the small hypothesis matrix; topologies under mixed
  // hypotheses and lowerings; raw topologies out of range and too big to search.
  // [mode, chips, leaders, topology flags, hypotheses, check flags, rounds]
  for (std::uint16_t row = 0; row < 768; row += 17) {
    put(out / "barrier", "matrix" + std::to_string(row), Bytes{0x0A, static_cast<std::uint8_t>(row), static_cast<std::uint8_t>(row >> 8)});
  }
  std::uint32_t mix = 1;
  for (std::uint8_t lowering = 0; lowering < 3; ++lowering) {
    for (const int hyp : {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F}) {
      mix = mix * 1103515245u + 12345u;
      const auto chips = static_cast<std::uint8_t>((mix >> 16) % 2), leaders = static_cast<std::uint8_t>((mix >> 18) % 4);
      const auto flags = static_cast<std::uint8_t>((lowering << 4) | ((mix >> 20) & 0x0F));
      put(out / "barrier", "scenario" + std::to_string(lowering) + "_" + std::to_string(hyp),
          Bytes{0x02, chips, leaders, flags, static_cast<std::uint8_t>(hyp), static_cast<std::uint8_t>((mix >> 24) & 1), 0});
    }
  }
  for (auto [chips, leaders, rounds] : {std::tuple{0, 1, 1}, {65, 1, 1}, {1, 0, 1}, {1, 5, 1}, {1, 1, 0},
                                        {8, 4, 1}, {2, 2, 200}, {1, 1, 3}}) {
    put(out / "barrier", "raw" + std::to_string(chips) + "_" + std::to_string(leaders) + "_" + std::to_string(rounds),
        Bytes{0x06, static_cast<std::uint8_t>(chips), static_cast<std::uint8_t>(leaders), 0x02, 0, 0, static_cast<std::uint8_t>(rounds)});
  }
  for (std::size_t i = 0; i < comps.size(); ++i) {
    Bytes b{static_cast<std::uint8_t>(1 | ((i % 8) << 1) | (i % 3 == 0 ? 0x10 : 0))};  // GT, dec, fabric, rounds vary
    for (std::size_t k = 0; k < std::min<std::size_t>(3, comps[i].configs.size()); ++k) {
      b.insert(b.end(), comps[i].configs[k].begin(), comps[i].configs[k].end());
    }
    put(out / "barrier", "configs" + std::to_string(i), b);
  }
  // names: every accepted spelling, the v5 names, ids in both bases, near misses.
  std::set<std::string> names{"v2", "v3", "v4", "v4+", "v4_plus", "v5", "maverick", "MAVERICK", "0x05", "5", "12",
                              "0x1c", "0x99", "99", "0x", "", "default", "switch", "Switch", "BARRIER_", "7", "-1"};
  for (Arch a : kArchs) names.insert(std::string(arch_name(a)));
  for (std::uint32_t t = 0; t <= std::uint32_t{kTypeCount}; ++t) names.insert(std::string(type_name(t)));
  names.insert("barrier_intra_chip");
  std::ofstream names_dict(out / "names.dict");
  for (const std::string& name : names) {
    put(out / "names", "name" + std::to_string(std::hash<std::string>{}(name)), of(name));
    if (!name.empty()) names_dict << "\"" << name << "\"\n";
  }
  // cli: command lines (argv words one per line, then a 0 byte and stdin) of every
  // command, their help, and inputs on stdin; the dictionary has every command,
  // option and option value.
  const ConfigBytes some = *comps[1].configs.begin();
  const std::string cfg(some.begin(), some.end());
  const std::string log = write_log(some, LogMode::Full);
  // argv words, the 0 byte, then stdin.  (The first seeds were written with one 0 byte
  // too many, so none of them reached a command's success on stdin; they stay, with_stdin
  // writes the format as fuzz_cli reads it.)
  const auto with_stdin = [](std::string words, const std::string& in) { return (words += '\0') + in; };
  const std::vector<std::string> lines = {
      "--help", "--version", "--help-all", "bogus", "check\n--help",
      std::string("decode\n-\0", 10) + cfg, std::string("decode\n--full\n-\0", 17) + cfg,
      std::string("decode\n-\0", 10) + "short",
      std::string("encode\n-\0", 10) + log, std::string("encode\n-\0", 10) + "{\"execute_device_barrier\": \"0x2\"}",
      std::string("lint\n-\0", 8) + cfg, "table\n--fabric\nswitch", "table\n--raw", "search\n3\n1", "search\n9\n-1",
      "check\n--chips\n2\n--leaders\n2", "check\n--chips\n64\n--leaders\n4\n--host-cc\n--lowering\nhierarchical",
      "check\n--chips\n2\n--leaders\n2\n--engine\nexplicit\n--json", "check\n--chips\n1\n--leaders\n2\n--random\n5",
      "check\n--chips\n2\n--leaders\n1\n--compare\ngt\n--dec\ntarget\n--rounds\n2",
      "check\n--chips\n65", "check\n--engine\npersistent\n--no-por", std::string("check-configs\n-\0", 17) + cfg,
      "promela\n--chips\n1\n--leaders\n2", "hypotheses\n--small", "hypotheses\n--small\n--json",
      // Each command's success on stdin, and its refusals.
      with_stdin("decode\n-", cfg), with_stdin("decode\n--full\n--arch\nv4\n-", cfg), with_stdin("decode\n--arch\nv9\n-", cfg),
      with_stdin("encode\n-", log), with_stdin("lint\n-", cfg), with_stdin("lint\n--json\n-", cfg),
      with_stdin("check-configs\n-", cfg), with_stdin("check-configs\n--json\n-", cfg), with_stdin("check-configs\n-", "short"),
      // search: by number and by name, fast and faithful, found and not; each argument refused.
      "search\n--fabric\ndefault\n3\n1", "search\n--fabric\nswitch\n0x2\n-1\n--faithful",
      "search\n--fabric\ndefault\nINTRA_CHIP\n0", "search\n--fabric\nswitch\n-0x1\n9", "search\n--fabric\nmesh\n1\n1",
      "search\n--fabric\ndefault\nNOT_A_TYPE\n1", "search\n--fabric\ndefault\n1\n0x", "search\n--fabric\ndefault\n1\nstep",
      // check: the memory budget's spellings, options of another engine, out-of-range counts,
      // a budget that runs out (after a violation and without one), a finding under declared.
      "check\n--max-memory\n512M", "check\n--max-memory\n4GiB", "check\n--max-memory\nauto", "check\n--max-memory\n64k",
      "check\n--max-memory\n1T", "check\n--max-memory\n0", "check\n--max-memory\n12X", "check\n--max-memory\nM",
      "check\n--seed\n3", "check\n--random\n5\n--engine\nexplicit", "check\n--engine\npersistent\n--max-states\n9",
      "check\n--chips\n0", "check\n--leaders\n9", "check\n--rounds\n0",
      "check\n--chips\n4\n--leaders\n2\n--engine\nexplicit\n--max-states\n50",
      "check\n--chips\n2\n--leaders\n2\n--engine\nexplicit\n--max-states\n50\n--no-proxy",
      "check\n--chips\n2\n--leaders\n2\n--engine\nexplicit\n--max-states\n50\n--no-proxy\n--json",
      "check\n--chips\n4\n--leaders\n2\n--guarantee\ndeclared", "check\n--chips\n4\n--leaders\n2\n--guarantee\ndeclared\n--engine\nexplicit",
      "check\n--chips\n2\n--leaders\n2\n--no-proxy\n--engine\npersistent", "check\n--chips\n2\n--leaders\n2\n--random\n3\n--json"};
  std::ofstream cli_dict(out / "cli.dict");
  for (std::size_t i = 0; i < lines.size(); ++i) put(out / "cli", "line" + std::to_string(i), of(lines[i]));
  for (const char* w : {"decode", "encode", "table", "search", "lint", "check", "check-configs", "promela", "hypotheses",
                        "--help", "--full", "--json", "--raw", "--arch", "--fabric", "--chips", "--leaders", "--host-cc",
                        "--no-proxy", "--wiring", "--roles", "--host-addrs", "--rounds", "--compare", "--dec", "--lowering",
                        "--guarantee", "--engine", "--random", "--seed", "--max-states", "--max-seconds", "--no-reduce",
                        "--no-symmetry", "--no-por", "--small", "default", "switch", "per_peer", "counting", "code",
                        "narrative", "ctx", "config", "ge", "gt", "one", "target", "table", "arrive_wait", "hierarchical",
                        "global", "declared", "auto", "explicit", "persistent", "random", "v4", "v5", "-", "64", "1000"}) {
    cli_dict << "\"\\x0A" << w << "\"\n";  // libFuzzer dictionaries know only \\xNN escapes
  }

  // Dictionaries: JSON keys from the schema; addresses and thresholds as LE bytes.
  std::ofstream json_dict(out / "json.dict");
  std::set<std::string> keys{"addr", "soc_addr", "host_barrier", "(nil)", "0x1", "0x0"};
  for (const Leaf& l : config_leaves()) keys.insert(std::string(l.field->name));
  for (const Field& f : kDeviceFields) keys.insert(std::string(f.name));
  for (const Field& f : kConfigFields) keys.insert(std::string(f.name));
  for (const Field& f : kHostFields) keys.insert(std::string(f.name));
  for (const std::string& k : keys) json_dict << "\"\\\"" << k << "\\\"\"\n";
  std::ofstream bin_dict(out / "decode.dict");
  const SemaMapping m;
  const auto le = le_token;
  for (std::uint32_t id : {2u, 6u, 7u, 8u, 9u, 12u, 16u}) bin_dict << le(m.sp_base(kSpOrigin, 1) + m.sema_offset(id, Window::Read), 8) << "\n";
  for (std::uint32_t t : {1u, 2u, 3u, 4u, 0xFFFFFFFFu}) bin_dict << le(t, 4) << "\n";
  write_property_targets(out);
  return 0;
}
