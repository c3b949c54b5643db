// Writes every generated file of the fuzz targets, each under the path it is committed
// at, so that scripts/make-corpus copies what it finds and a test
// (generated_files_test.py) can compare the committed files with these:
//   make_corpus OUT_DIR -> OUT_DIR/corpus/<target>/<name>.seed (make-corpus names each by its sha1),
//                          OUT_DIR/corpus/regressions/<target>/.keep,
//                          OUT_DIR/fuzz/<target>.{dict,options},
//                          OUT_DIR/fuzz/properties/prop_<name>.{dict,options},
//                          OUT_DIR/corpus/vectors/<operation>.json (the module ABI's test vectors)
// One function per target family.  Seeds are real: configs composed for the reference
// topologies, their logs, the shipped table images, composer driver contexts, recorded
// property choices.  Dictionaries come from the tables: JSON keys from the logs the
// schema writes, names from the EnumNames tables, command words from the CLI's own help.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <iostream>
#include <limits>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app.h"
#include "barrier_input.h"
#include "cli_objects.h"
#include "neffbar/arch.h"
#include "neffbar/bytes.h"
#include "neffbar/driver_context.h"
#include "neffbar/hex.h"
#include "neffbar/json_log.h"
#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/frontend/hypothesis_params.h"
#include "neffbar/model/system/verdict.h"
#include "neffbar/module/vectors.h"
#include "registry.h"

namespace fs = std::filesystem;
using namespace neffbar;
using namespace neffbar::model;
using Bytes = std::vector<std::uint8_t>;

namespace {

void put(const fs::path& out, const std::string& target, const std::string& name, const Bytes& b) {
  const fs::path dir = out / "corpus" / target;
  fs::create_directories(dir);
  std::ofstream(dir / (name + ".seed"), std::ios::binary).write(reinterpret_cast<const char*>(b.data()),
                                                                 static_cast<std::streamsize>(b.size()));
}
Bytes of(const ConfigBytes& c) { return Bytes(c.begin(), c.end()); }
Bytes of(const std::string& s) { return Bytes(s.begin(), s.end()); }

// A target's options (max_len: what the target reads; extra: more libFuzzer flags),
// dictionary and empty regression folder.  `folder` is fuzz/ or fuzz/properties/.
void write_target_files(const fs::path& out, const fs::path& folder, const std::string& target, std::size_t max_len,
                        const std::set<std::string>& tokens, const std::string& extra = "") {
  fs::create_directories(out / folder);
  std::ofstream(out / folder / (target + ".options")) << "[libfuzzer]\nmax_len = " << max_len << "\ndict = " << target
                                                      << ".dict\n" << extra;
  std::ofstream dict(out / folder / (target + ".dict"));
  for (const std::string& t : tokens) dict << t << "\n";
  fs::create_directories(out / "corpus" / "regressions" / target);
  std::ofstream(out / "corpus" / "regressions" / target / ".keep");
}

// A dictionary token: text as libFuzzer reads it (escapes: \" \\ and \xNN only).
std::string token(std::string_view text) {
  std::string s = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      s += '\\';
      s += c;
    } else if (u >= 0x20 && u < 0x7F) {
      s += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", u);
      s += buf;
    }
  }
  return s + "\"";
}
// A little-endian value of `width` bytes, every byte as \xNN.
std::string le_token(std::uint64_t v, std::size_t width) {
  std::string s = "\"";
  for (std::size_t i = 0; i < width; ++i) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>((v >> (8 * i)) & 0xFF));
    s += buf;
  }
  return s + "\"";
}

template <class E>
void add_enum_names(std::set<std::string>& words) {
  for (const auto& [v, n] : EnumNames<E>::table) words.insert(std::string(n));
}

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

// A config's semaphore addresses (the ids the composed configs use, in the read window
// of SP 1) and thresholds, as the bytes a config holds them in.
std::set<std::string> sema_address_tokens() {
  const SemaMapping m;
  std::set<std::string> t;
  for (std::uint32_t id : {2u, 6u, 7u, 8u, 9u, 12u, 16u}) t.insert(le_token(m.sp_base(kSpOrigin, 1) + m.sema_offset(id, Window::Read), 8));
  return t;
}
std::set<std::string> config_tokens() {
  std::set<std::string> t = sema_address_tokens();
  for (std::uint32_t v : {1u, 2u, 3u, 4u, 0xFFFFFFFFu}) t.insert(le_token(v, 4));
  return t;
}

// Every key of `j` and every string value, recursively.
void json_words(const nlohmann::json& j, std::set<std::string>& keys, std::set<std::string>& values) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      keys.insert(k);
      json_words(v, keys, values);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) json_words(v, keys, values);
  } else if (j.is_string()) {
    values.insert(j.get<std::string>());
  }
}

// decode, json (and barrier's dictionary): composed configs, zero, all-ones, the wrong
// lengths, and their logs; JSON keys and the short string values are what the logs of
// those configs hold.
void write_codec_targets(const fs::path& out, const std::vector<Composition>& comps) {
  std::set<ConfigBytes> configs;
  for (const Composition& c : comps) configs.insert(c.configs.begin(), c.configs.end());
  ConfigBytes ones;
  ones.fill(0xFF);
  configs.insert(ConfigBytes{});
  configs.insert(ones);
  std::set<std::string> keys, values;
  int n = 0;
  for (const ConfigBytes& b : configs) {
    put(out, "decode", "c" + std::to_string(n), of(b));
    for (const LogMode mode : {LogMode::Full, LogMode::Default}) {
      const std::string log = write_log(b, mode);
      put(out, "json", (mode == LogMode::Full ? "full" : "default") + std::to_string(n), of(log));
      json_words(nlohmann::json::parse(log), keys, values);
    }
    ++n;
  }
  for (std::size_t len : {0u, 1u, 0x124u, 0x127u, 0x129u}) put(out, "decode", "len" + std::to_string(len), Bytes(len, 0xA5));
  // json: a number field holding what is no u16 (negative, fractional, a string, too big).
  const std::string zero_log = write_log(ConfigBytes{}, LogMode::Full);
  for (const std::string bad : {"-1", "1.5", "\"7\"", "65536", "true", "null"}) {
    std::string text = zero_log;
    text.replace(text.find("\"m2s_val\": 0") + 11, 1, bad);
    put(out, "json", "m2s_val" + std::to_string(std::hash<std::string>{}(bad)), of(text));
  }
  put(out, "json", "notjson", of(std::string("{\"execute_device_barrier\": \"(nil)\", ")));
  put(out, "json", "nil", of(std::string("{\"execute_device_barrier\": \"(nil)\"}")));
  // "(nil)": how the reader also takes a null pointer (glibc's %p of 0, which the writer never prints).
  std::set<std::string> json_dict{token("\"(nil)\"")};
  for (const std::string& k : keys) json_dict.insert(token("\"" + k + "\""));
  for (const std::string& v : values) {
    if (v.size() <= 5) json_dict.insert(token("\"" + v + "\""));  // "(nil)", "0x0", "0x1": not the addresses
  }
  write_target_files(out, "fuzz", "decode", 512, config_tokens());
  write_target_files(out, "fuzz", "json", 8192, json_dict);
}

// search: both shipped images with a sweep of queries; the dictionary holds every type
// and op value of the tables as a u32, the pad entry whole and the query -1.
void write_search(const fs::path& out) {
  std::set<std::string> dict{le_token(~std::uint64_t{0}, 8)};
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
    put(out, "search", std::string(fabric_name(f)), b);
    for (int step = 0; step < kSteps; ++step) {
      for (int e = 0; e < kEntries; ++e) {
        const TableEntry entry = entry_at(t, step, e);
        dict.insert(le_token(entry.type, 4));
        dict.insert(le_token(entry.op, 4));
        if (entry.op == static_cast<std::uint32_t>(BarrierOp::OpTypeMax)) dict.insert(le_token(entry.type | std::uint64_t{entry.op} << 32, 8));
      }
    }
  }
  write_target_files(out, "fuzz", "search", 2048, dict);
}

// sema: a barrier-like trace, an overflow trace, and every primitive blocked and done;
// the dictionary holds the int32 edges as an op's 4-byte value.
void write_sema(const fs::path& out) {
  put(out, "sema", "barrier", Bytes{0, 0, 1, 1, 0, 0, 0, 1, 2, 1, 1, 0, 0, 0, 1});
  put(out, "sema", "overflow", Bytes{1, 1, 0, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 1, 0, 0, 0, 0});
  for (std::uint8_t cmp = 0; cmp < 2; ++cmp) {
    Bytes all{cmp};
    for (std::uint8_t prim = 0; prim < 6; ++prim) {
      for (std::uint8_t v : {std::uint8_t{0}, std::uint8_t{1}, std::uint8_t{2}}) {
        const Bytes op{prim, 0, v, 0, 0, 0, 1};
        all.insert(all.end(), op.begin(), op.end());
      }
    }
    put(out, "sema", "every_prim" + std::to_string(cmp), all);
  }
  std::set<std::string> dict;
  for (std::int32_t v : {std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min(), 1, -1}) {
    dict.insert(le_token(static_cast<std::uint32_t>(v), 4));
  }
  write_target_files(out, "fuzz", "sema", 1401, dict);  // the compare byte and 200 ops of 7 bytes
}

// handshake: composer contexts (host-CC on and off), one leader too many, a short blob;
// the dictionary holds the host-CC byte's values and the leader counts at the limit.
void write_handshake(const fs::path& out, const std::vector<Composition>& comps) {
  for (std::size_t i = 0; i < comps.size(); i += 2) put(out, "handshake", "ctx" + std::to_string(i), comps[i].contexts[0].bytes);
  DriverContext five;
  five.set_leader_count(kMaxLeaders + 1);
  put(out, "handshake", "five", five.bytes);
  put(out, "handshake", "compact", Bytes{1, 2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0});
  const std::set<std::string> dict{le_token(1, 1), le_token(2, 1), le_token(kMaxLeaders, 4), le_token(kMaxLeaders + 1, 4)};
  write_target_files(out, "fuzz", "handshake", 28000, dict);
}

// barrier (barrier_input.h): composed topologies with each reduction, random schedules
// and faults; every 17th row of the small hypothesis matrix; topologies under mixed
// hypotheses and lowerings; raw topologies out of range and too big to search; the
// composed configs.  Its dictionary is decode's (its configs are configs).
void write_barrier(const fs::path& out, const std::vector<Composition>& comps) {
  using fuzz::ComposedInput, fuzz::ScenarioInput, fuzz::ConfigsInput, fuzz::encode;
  namespace bi = fuzz::barrier_input;
  for (std::uint8_t c = 0; c < 4; ++c) {
    for (std::uint8_t flags : {std::uint8_t{0x00}, std::uint8_t{0x02}, std::uint8_t{0x0B}, std::uint8_t{0x1A}}) {
      for (std::uint8_t check : {std::uint8_t{0x00}, std::uint8_t{0x07}, std::uint8_t{0x18}}) {
        if (check == 0x07 && c >= 2) continue;  // the unreduced search only on 1-2 chips
        for (std::uint8_t fault = 0; fault < 4; ++fault) {
          ComposedInput in{bi::composed_topology(c, static_cast<std::uint8_t>(c + 1u), flags), (check & 1) == 0, (check & 2) == 0,
                           (check & 4) == 0, (check & 8) != 0, static_cast<std::uint8_t>(1 + (check >> 4) % 4), 7, 1, fault};
          put(out, "barrier", "composed" + std::to_string(c) + "_" + std::to_string(flags) + "_" + std::to_string(check) + "_" + std::to_string(fault),
              encode(in));
        }
      }
    }
  }
  for (std::uint16_t row = 0; row < 768; row += 17) {
    ScenarioInput in;
    in.matrix = true;
    in.row = row;
    put(out, "barrier", "matrix" + std::to_string(row), encode(in));
  }
  std::uint32_t mix = 1;
  for (std::uint8_t lowering = 0; lowering < 3; ++lowering) {
    for (const int hyp : {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F}) {
      mix = mix * 1103515245u + 12345u;
      const std::uint8_t d[6] = {static_cast<std::uint8_t>((mix >> 16) % 2), static_cast<std::uint8_t>((mix >> 18) % 4),
                                 static_cast<std::uint8_t>((lowering << 4) | ((mix >> 20) & 0x0F)), static_cast<std::uint8_t>(hyp),
                                 static_cast<std::uint8_t>((mix >> 24) & 1), 0};
      put(out, "barrier", "scenario" + std::to_string(lowering) + "_" + std::to_string(hyp), encode(*bi::decode_scenario(bi::kScenario, d)));
    }
  }
  for (auto [chips, leaders, rounds] : {std::tuple{0u, 1u, 1u}, {65u, 1u, 1u}, {1u, 0u, 1u}, {1u, 5u, 1u}, {1u, 1u, 0u},
                                        {8u, 4u, 1u}, {2u, 2u, 200u}, {1u, 1u, 3u}}) {
    ScenarioInput in;
    in.raw = true;
    in.topo = Topology{chips, leaders, Fabric::Default, true, rounds};
    put(out, "barrier", "raw" + std::to_string(chips) + "_" + std::to_string(leaders) + "_" + std::to_string(rounds), encode(in));
  }
  for (std::size_t i = 0; i < comps.size(); ++i) {  // GT, dec, fabric, rounds vary
    ConfigsInput in{i % 2 ? Compare::Gt : Compare::Ge, (i >> 1) % 2 ? DecMode::Target : DecMode::One,
                    (i >> 2) % 2 ? Fabric::Switch : Fabric::Default, i % 3 == 0 ? 2u : 1u, {}};
    in.configs.assign(comps[i].configs.begin(), comps[i].configs.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, comps[i].configs.size())));
    put(out, "barrier", "configs" + std::to_string(i), encode(in));
  }
  write_target_files(out, "fuzz", "barrier", 1024, config_tokens());
}

// names: every spelling the parsers take (the aliases are parse_arch's), the v5 names,
// ids in both bases, near misses; the dictionary holds the names of the tables.
void write_names(const fs::path& out) {
  std::set<std::string> seeds{"v2", "v3", "v4", "v4+", "v4_plus", "v5", "maverick", "MAVERICK", "0x05", "5", "12",
                              "0x1c", "0x99", "99", "0x", "", "Switch", "BARRIER_", "7", "-1", "barrier_intra_chip"};
  std::set<std::string> names;
  for (Arch a : kArchs) names.insert(std::string(arch_name(a)));
  for (std::uint32_t t = 0; t <= std::uint32_t{kTypeCount}; ++t) names.insert(std::string(type_name(t)));
  add_enum_names<Fabric>(names);
  seeds.insert(names.begin(), names.end());
  for (const std::string& name : seeds) put(out, "names", "name" + std::to_string(std::hash<std::string>{}(name)), of(name));
  std::set<std::string> dict;
  for (const std::string& n : names) dict.insert(token(n));
  for (Arch a : kArchs) dict.insert(token(hex(static_cast<std::uint64_t>(a))));  // the ids, as arch_from_id's message prints them
  write_target_files(out, "fuzz", "names", 64, dict);
}

// The words of the command line, as the CLI prints them in `--help-all`: the commands
// (a line of one word under "Subcommands:") and every --option; plus the values of every
// option that takes a name (EnumNames), the range limits, stdin and the fuzz target's
// `@` words (cli_objects.h).
std::set<std::string> cli_words() {
  std::ostringstream help;
  std::streambuf* saved = std::cout.rdbuf(help.rdbuf());
  char prog[] = "neffbar", all[] = "--help-all";
  char* argv[] = {prog, all, nullptr};
  neffbar::cli::run(2, argv);
  std::cout.rdbuf(saved);
  std::set<std::string> words;
  const std::string text = help.str();
  const std::regex option("--[a-z][a-z-]*"), command("^[a-z][a-z-]*$");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), option); it != std::sregex_iterator(); ++it) words.insert(it->str());
  std::istringstream in(text.substr(text.find("Subcommands:")));
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, command)) words.insert(line);
  }
  add_enum_names<Fabric>(words);
  add_enum_names<Wiring>(words);
  add_enum_names<Lowering>(words);
  add_enum_names<Roles>(words);
  add_enum_names<HostAddrs>(words);
  add_enum_names<Compare>(words);
  add_enum_names<DecMode>(words);
  add_enum_names<GuaranteeMode>(words);
  add_enum_names<Engine>(words);
  add_enum_names<fuzz::CliObject>(words);  // the target's own words for hostile files
  for (const Range r : {kChipRange, kLeaderRange, kRoundRange}) words.insert(std::to_string(r.hi));
  words.insert("-");  // stdin
  return words;
}

// The manifest.json of `compose --chips 2 --leaders 2 --host-cc` (fuzz_cli's @compose),
// run in process into a temporary folder.
std::string reference_manifest() {
  const fs::path dir = fs::temp_directory_path() / ("neffbar_make_corpus_" + std::to_string(::getpid()));
  std::string words[] = {"neffbar", "compose", "--chips", "2", "--leaders", "2", "--host-cc", "-o", dir.string()};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::ostringstream said;
  std::streambuf* saved = std::cout.rdbuf(said.rdbuf());
  const int rc = neffbar::cli::run(static_cast<int>(argv.size() - 1), argv.data());
  std::cout.rdbuf(saved);
  std::ifstream in(dir / "manifest.json");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  fs::remove_all(dir);
  if (rc != 0 || text.empty()) {
    std::fprintf(stderr, "make_corpus: compose into %s failed (exit %d)\n", dir.c_str(), rc);
    std::exit(1);
  }
  return text;
}

// cli: command lines (argv words one per line, then a 0 byte and stdin) of every
// command, their help, and inputs on stdin; the dictionary has each word of cli_words
// after the line break that starts an argv word.
void write_cli(const fs::path& out, const std::vector<Composition>& comps) {
  const ConfigBytes some = *comps[1].configs.begin();
  const std::string cfg(some.begin(), some.end());
  const std::string log = write_log(some, LogMode::Full);
  const std::string manifest = reference_manifest();
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
      "check\n--chips\n2\n--leaders\n2\n--no-proxy\n--engine\npersistent", "check\n--chips\n2\n--leaders\n2\n--random\n3\n--json",
      // @fifo: the stdin bytes come slowly through a FIFO: each reader's success, a short,
      // an empty and a too long input, and the FIFO named twice (the second read gets the
      // rest of the stream: here nothing).
      with_stdin("decode\n@fifo", cfg), with_stdin("encode\n@fifo", log), with_stdin("lint\n@fifo", cfg),
      with_stdin("check-configs\n@fifo", cfg), with_stdin("decode\n@fifo", "short"), with_stdin("decode\n@fifo", ""),
      with_stdin("decode\n@fifo", cfg + cfg), with_stdin("check-configs\n@fifo\n@fifo", cfg),
      // diff: stdin beside the FIFO (the same bytes: equal, nothing printed), as JSON, the
      // FIFO twice (the second read is empty), an image beside a directory, two directories.
      with_stdin("diff\n-\n@fifo", cfg), with_stdin("diff\n--json\n-\n@fifo", cfg),
      with_stdin("diff\n@fifo\n@fifo", cfg), with_stdin("diff\n-\n@dir", cfg), "diff\n@dir\n@dir",
      // The reference's files (cli_objects.h): the engines; diff of compose directories,
      // manifests and image folders, equal and not, spoilt ones among them; check-configs
      // of a compose directory (its charts too) and of interchangeable images (the
      // symmetry nauty finds); compose into every kind of output; the charts and the grid.
      // conform: the C11 port (agrees), a trap (disagrees), as JSON and a page, its vectors
      // from a folder that holds none, not a module at all, none at all.
      "conform\n@module", "conform\n@module-trap", "conform\n@module-trap\n--json", "conform\n@module\n--html\n@out-file",
      "conform\n@module\n--vectors\n@dir", "conform\n@module\n--vectors\n@compose", "conform\n@config", "conform\n@missing",
      "conform\n@module\n--seed\n7\n--json\n--html\n@out-full", "conform\n@module-crash", "conform\n@module-hang",
      "conform\n@module-exit\n--json", "conform\n@module\n--vectors\n@vectors", "conform\n@module-trap\n--vectors\n@vectors",
      "engines", "engines\n--json", "decode\n@config", "lint\n@config", "encode\n@log", "diff\n@config\n@config",
      "diff\n@compose\n@compose2", "diff\n--json\n@compose\n@compose2", "diff\n@compose\n@compose-logs",
      "diff\n@manifest\n@compose", "diff\n@images\n@compose", "diff\n--json\n@images\n@compose2", "diff\n@compose\n@config",
      "diff\n@compose\n@manifest-missing", "diff\n@manifest-dup\n@compose", "diff\n@manifest-deep\n@compose",
      "diff\n--json\n@images-non-utf8\n@images", "check-configs\n@compose", "check-configs\n--json\n@compose",
      "check-configs\n@compose\n--html\n@out-file", "check-configs\n@manifest\n--engine\nexplicit", "check-configs\n@compose2",
      "check-configs\n@compose-logs\n--guarantee\ndeclared", "check-configs\n@manifest-fewer", "check-configs\n@manifest-missing",
      "check-configs\n@manifest-deep", "check-configs\n@manifest-dup", "check-configs\n@images",
      "check-configs\n@config\n@config\n@config", "check-configs\n@config\n@config\n@config\n@config\n--engine\nexplicit",
      "check-configs\n@config\n@config\n--json\n--html\n@out-file", "check-configs\n@config\n@config\n@config\n--no-symmetry",
      "compose\n--chips\n2\n--leaders\n2\n@out-dir", "compose\n--chips\n1\n--leaders\n4\n--logs\n@out-file",
      "compose\n--chips\n2\n--leaders\n2\n@out-busy", "compose\n--chips\n2\n--leaders\n2\n@out-existing",
      "compose\n--chips\n2\n--leaders\n2\n--host-cc\n@out-compose", "compose\n--chips\n2\n--leaders\n2\n@out-full",
      "compose\n--chips\n3\n--leaders\n1\n--fabric\nswitch\n--logs\n@out-dir", "compose\n--chips\n2",
      "check\n--chips\n2\n--leaders\n2\n--host-cc\n--html\n@out-file", "check\n--chips\n2\n--leaders\n2\n--html\n@out-full",
      "check\n--chips\n1\n--leaders\n4\n--host-cc\n--html\n@out-file", "check\n--chips\n4\n--leaders\n2\n--html\n@out-existing",
      "check\n--chips\n2\n--leaders\n2\n--html\n@out-dir", "check\n--chips\n2\n--leaders\n2\n@out-file\n--html\n@out-file",
      "check\n--chips\n8\n--leaders\n3\n--host-cc\n--lowering\nhierarchical\n--html\n@out-file",
      "hypotheses\n--small\n--html\n@out-file", "hypotheses\n--small\n--json\n--html\n@out-full",
      // The explicit search cut by each budget and too large for it, with progress lines
      // (the time budget is the target's: 2 s in the replay, 0.05 s while fuzzing).
      "check\n--chips\n4\n--leaders\n4\n--rounds\n2\n--engine\nexplicit\n--no-por\n--no-symmetry\n--no-reduce\n--progress",
      "check\n--chips\n8\n--leaders\n3\n--host-cc\n--engine\nexplicit\n--max-memory\n1M",
      "check\n--chips\n64\n--leaders\n4\n--rounds\n1000\n--engine\nexplicit",
      // An output through a symbolic link; a word of every UTF-8 length, and bytes that
      // are not UTF-8 or are C1 controls, which the error line escapes.
      "decode\n-\n@out-link", "compose\n--chips\n1\n@out-link", "check\n--chips\n2\n--leaders\n2\n--html\n@out-link",
      "d\xC3\xA9" "code\xE2\x82\xAC\xF0\x9F\x98\x80\xE0\x80x\xED\xA0x\xF0\x80x\xF4\x90x\xC2\x9Bx\xE2x\xF0\x9Fx\xFF",
      // A manifest on stdin, the compose files beside it: the manifest reader on every mutant.
      with_stdin("check-configs\n@fifo-compose", manifest), with_stdin("diff\n@fifo-compose\n@compose", manifest),
      with_stdin("check-configs\n@fifo-compose", "{}")};
  for (std::size_t i = 0; i < lines.size(); ++i) put(out, "cli", "line" + std::to_string(i), of(lines[i]));
  std::set<std::string> dict;
  for (const std::string& w : cli_words()) dict.insert(token("\n" + w));
  write_target_files(out, "fuzz", "cli", 4096, dict, "timeout = 10\n");
}

// The property targets (props/registry.h): seeds are the bytes of recorded random
// choices (props/source.h RecordingSource), so each decodes to a typical input of the
// property; plus the empty input (every choice the simplest) and all-ones (every choice
// the last).  The dictionary holds the values an 8-byte choice (any64) turns into
// directly: zero, all-ones, the int32 limits and, where random config bytes are drawn,
// a config's semaphore addresses.  max_len is four times the longest seed.
void write_property_targets(const fs::path& out) {
  neffbar::props::for_each_property([&](const auto& p) {
    const std::string target = "prop_" + std::string(p.name);
    std::size_t longest = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      neffbar::props::RecordingSource rec(seed);
      (void)p.draw(rec);
      longest = std::max(longest, rec.bytes().size());
      put(out, target, "recorded" + std::to_string(seed), rec.bytes());
    }
    put(out, target, "empty", Bytes{});
    put(out, target, "ones", Bytes(longest, 0xFF));
    std::set<std::string> dict;
    for (std::uint64_t v : {std::uint64_t{0}, ~std::uint64_t{0}, std::uint64_t{INT32_MAX}, std::uint64_t{0x80000000u},
                            std::uint64_t{1}, std::uint64_t{2}}) {
      dict.insert(le_token(v, 8));
    }
    if (p.name == "p1_round_trip" || p.name == "p2_overlay") dict.merge(sema_address_tokens());
    write_target_files(out, "fuzz/properties", target, std::max<std::size_t>(64, 4 * longest), dict);
  });
}

}  // namespace

// The test vectors of every operation of the module ABI (neffbar/module/vectors.h).
void write_vectors(const fs::path& out) {
  const fs::path dir = out / "corpus" / "vectors";
  fs::create_directories(dir);
  for (const std::string_view op : kOperations)
    std::ofstream(dir / (std::string(op) + ".json")) << make_vectors(op).dump(1) << "\n";
}

// module (fuzz/module_fuzzer.h): every test vector as one input of a module's
// differential target, so the committed seeds reach each fact the vectors pin; and the
// same inputs for the modules target (fuzz_modules.cpp), a module byte before each.
void write_module_seeds(const fs::path& out) {
  std::size_t n = 0;
  auto i32 = [](Bytes& b, std::int64_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (8 * i)));
  };
  for (const std::string_view op : kOperations) {
    const auto vectors = make_vectors(op);  // kept: the loop below walks into it
    for (const auto& t : vectors["tests"]) {
      const auto& in = t["input"];
      Bytes b;
      if (op == "decode_log") {
        b.push_back(in["full"].get<bool>() ? 0x80 : 0x00);
        const std::string hex = in["image"].get<std::string>();
        for (std::size_t i = 0; i + 1 < hex.size(); i += 2) b.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
      } else if (op == "encode_log") {
        b.push_back(1);
        const std::string log = in["log"].get<std::string>();
        b.insert(b.end(), log.begin(), log.end());
      } else if (op == "search") {
        b = {2, static_cast<std::uint8_t>(in["fabric"].get<std::uint32_t>()), static_cast<std::uint8_t>(in["type"].get<std::int64_t>()),
             static_cast<std::uint8_t>(in["step"].get<std::int64_t>())};
      } else if (op == "table_bytes") {
        b = {3, static_cast<std::uint8_t>(in["fabric"].get<std::uint32_t>())};
      } else {
        const auto file = in["file"].get<std::vector<std::int64_t>>();
        b = {4, static_cast<std::uint8_t>(file.size() - 1)};
        for (const std::int64_t v : file) i32(b, v);
        b.push_back(static_cast<std::uint8_t>(in["op"]["prim"].get<std::uint32_t>()));
        b.push_back(static_cast<std::uint8_t>(in["op"]["sema"].get<std::uint32_t>()));
        i32(b, in["op"]["value"].get<std::int64_t>());
        i32(b, in["op"]["dec"].get<std::int64_t>());
        b.push_back(static_cast<std::uint8_t>(in["compare"].get<std::uint32_t>()));
      }
      put(out, "module", std::string(op) + "_" + std::to_string(t["tcId"].get<int>()), b);
      // modules (fuzz_modules.cpp): the same input for one of its 16 modules in turn, every
      // 16th with bit 7 (conform() too, in the replay), the C11 port's
      Bytes m{static_cast<std::uint8_t>(n % 16 | (n % 16 == 1 ? 0x80 : 0))};
      m.insert(m.end(), b.begin(), b.end());
      put(out, "modules", std::string(op) + "_" + std::to_string(t["tcId"].get<int>()), m);
      ++n;
    }
  }
  write_target_files(out, "fuzz", "modules", 8192,
                     {token("\"execute_device_barrier\": "), token("\"0x0\""), token("\"0x1\""), token("\"(nil)\""),
                      token("\"soc_addr\": \"0x"), token("\"total_desc_n\": "), token("\"__reserved0\": ")});
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_corpus OUT_DIR\n");
    return 2;
  }
  const fs::path out = argv[1];
  const auto comps = compositions();
  write_codec_targets(out, comps);
  write_search(out);
  write_sema(out);
  write_handshake(out, comps);
  write_barrier(out, comps);
  write_names(out);
  write_cli(out, comps);
  write_property_targets(out);
  write_vectors(out);
  write_module_seeds(out);
  return 0;
}
