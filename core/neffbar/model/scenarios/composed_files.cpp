// Composed configs as files (composed_files.h).
#include "neffbar/model/scenarios/composed_files.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "neffbar/driver_context.h"
#include "neffbar/json_log.h"
#include "neffbar/strict_json.h"
#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/scenarios/options_json.h"

namespace neffbar::model {
namespace {

std::string two_digits(std::uint32_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }

// A value as an error line shows it: its JSON, cut to 64 bytes (a 1 MiB string would be
// a 1 MiB error line).
std::string shown(const nlohmann::json& v) {
  // A string as its own characters, quoted: whoever prints the error escapes what needs
  // it (the CLI's error line), and JSON's escapes under that would show twice.
  std::string s = v.is_string() ? '"' + v.get<std::string>() + '"' : v.dump();
  if (s.size() > 64) s = s.substr(0, 61) + "...";
  return s;
}

// Reads the keys of one JSON object; the first error is kept (naming its key, e.g.
// $.files[3].leader) and every read after it gives a default.
class KeyReader {
 public:
  KeyReader(const nlohmann::json& o, std::string at) : o_(o), at_(std::move(at)) {}

  template <class E>
  E choice(const char* key) {
    const nlohmann::json* v = find(key, enum_choices<E>());
    if (!v) return E{};
    if (!v->is_string()) return fail(Errc::WrongType, key, "a string: " + enum_choices<E>(), E{});
    if (const std::optional<E> e = parse_enum<E>(v->get<std::string>())) return *e;
    return fail(Errc::OutOfRange, key, enum_choices<E>(), E{});
  }
  std::uint32_t count(const char* key, Range range) {
    const nlohmann::json* v = find(key, range.text());
    if (!v) return range.lo;
    if (!v->is_number_unsigned()) return fail(Errc::WrongType, key, "a whole number " + range.text(), range.lo);
    const std::uint64_t n = v->get<std::uint64_t>();
    if (n < range.lo || n > range.hi) return fail(Errc::OutOfRange, key, range.text(), range.lo);
    return static_cast<std::uint32_t>(n);
  }
  bool flag(const char* key) {
    const nlohmann::json* v = find(key, "true or false");
    if (v && !v->is_boolean()) return fail(Errc::WrongType, key, "true or false", false);
    return v && v->get<bool>();
  }
  // A name in the directory, never a path out of it.
  std::string file(const char* key) {
    const nlohmann::json* v = find(key, "a file name");
    if (!v) return {};
    if (!v->is_string()) return fail(Errc::WrongType, key, "a file name", std::string());
    std::string f = v->get<std::string>();
    if (f.empty() || f == "." || f == ".." || f.find('/') != std::string::npos || f.find('\0') != std::string::npos) {
      return fail(Errc::OutOfRange, key, "a file name in the manifest's directory", std::string());
    }
    return f;
  }
  // A key read by other means than the readers above.
  void known(const char* key) { read_.insert(key); }
  // The first error, or else the first key of the object no reader asked for: a manifest
  // is read whole, as the log is (an unknown key is a misspelt one, or another program's).
  [[nodiscard]] std::optional<Error> error() const {
    if (error_) return error_;
    for (const auto& [key, value] : o_.items()) {
      if (!read_.contains(key)) return Error{Errc::UnknownKey, at_ + "." + key, "", ""};
    }
    return std::nullopt;
  }

 private:
  const nlohmann::json* find(const char* key, const std::string& expected) {
    if (error_) return nullptr;
    read_.insert(key);
    if (o_.contains(key)) return &o_[key];
    error_ = Error{Errc::MissingKey, at_ + "." + key, expected, "nothing"};
    return nullptr;
  }
  template <class T>
  T fail(Errc code, const char* key, const std::string& expected, T fallback) {
    error_ = Error{code, at_ + "." + key, expected, shown(o_[key])};
    return fallback;
  }
  const nlohmann::json& o_;
  std::string at_;
  std::optional<Error> error_;
  std::set<std::string, std::less<>> read_;
};

}  // namespace

std::string_view name(FileRole r) { return enum_name(r); }

std::string leader_image_name(std::uint32_t chip, std::uint32_t leader) {
  return "chip" + two_digits(chip) + "_leader" + std::to_string(leader) + ".bin";
}
std::string context_name(std::uint32_t chip) { return "chip" + two_digits(chip) + "_context.bin"; }

Result<std::vector<NamedFile>> composed_files(const Scenario& s, bool logs) {
  const Result<Composition> comp = compose(s.topo);
  if (!comp) return comp.error();
  Manifest m{s.topo, s.hyp, s.run.check.guarantee, {}};
  std::vector<NamedFile> files;
  const std::uint32_t L = s.topo.leaders;
  for (std::uint32_t k = 0; k < comp->leader_count(); ++k) {
    ManifestEntry e{leader_image_name(k / L, k % L), FileRole::Leader, k / L, k % L, std::nullopt, comp->guarantee[k]};
    const ConfigBytes& b = comp->configs[k];
    files.push_back({e.file, std::string(reinterpret_cast<const char*>(b.data()), b.size())});
    if (logs) {
      e.log = e.file.substr(0, e.file.size() - 4) + ".json";
      files.push_back({*e.log, write_log(b, LogMode::Default)});
    }
    m.entries.push_back(std::move(e));
  }
  for (std::uint32_t c = 0; c < s.topo.chips; ++c) {
    const std::vector<std::uint8_t>& blob = comp->contexts[c].bytes;
    files.push_back({context_name(c), std::string(reinterpret_cast<const char*>(blob.data()), blob.size())});
    m.entries.push_back(ManifestEntry{context_name(c), FileRole::DriverContext, c, std::nullopt, std::nullopt, {}});
  }
  files.push_back({std::string(kManifestName), manifest_json(m)});
  return files;
}

Result<Composition> composition_of(const Manifest& m, std::span<const std::string> bytes) {
  if (bytes.size() != m.entries.size()) {
    return Error{Errc::InvalidArgument, "manifest", std::to_string(m.entries.size()) + " files", std::to_string(bytes.size())};
  }
  Composition c;
  c.topo = m.topo;
  const std::uint32_t L = m.topo.leaders, N = m.topo.chips * L;
  c.configs.resize(N);
  c.guarantee.resize(N);
  c.contexts.assign(m.topo.chips, DriverContext{{}});  // each filled from its file below
  std::vector<bool> has_context(m.topo.chips, false);
  for (std::size_t i = 0; i < m.entries.size(); ++i) {
    const ManifestEntry& e = m.entries[i];
    if (e.role == FileRole::DriverContext) {
      const auto* data = reinterpret_cast<const std::uint8_t*>(bytes[i].data());
      c.contexts[e.chip].bytes.assign(data, data + bytes[i].size());
      // The lowering reads a done address for each of the manifest's leaders from it.
      const Result<std::vector<std::uint64_t>> done = leader_done_inc_addrs(c.contexts[e.chip].bytes);
      if (!done) return Error{done.error().code, e.file + ": " + done.error().where, done.error().expected, done.error().got};
      // The context is the chip's as the manifest says it was composed: its leaders and host-CC.
      if (done->size() != L) {
        return Error{Errc::Conflict, e.file + ": leader count @0x90", std::to_string(L) + " (the manifest's leaders)",
                     std::to_string(done->size())};
      }
      if (const Result<bool> host_cc = is_host_cc(c.contexts[e.chip].bytes); !host_cc || *host_cc != m.topo.host_cc) {
        return Error{Errc::Conflict, e.file + ": host_cc @0x231", m.topo.host_cc ? "1 (the manifest's host_cc: true)" : "not 1 (the manifest's host_cc: false)",
                     host_cc ? std::string(*host_cc ? "1" : "not 1") : host_cc.error().message()};
      }
      has_context[e.chip] = true;
      continue;
    }
    ConfigBytes& cfg = c.configs[e.chip * L + *e.leader];
    if (bytes[i].size() != cfg.size()) {
      return Error{Errc::WrongLength, e.file, std::to_string(cfg.size()) + " bytes (0x128)", std::to_string(bytes[i].size()) + " bytes"};
    }
    std::memcpy(cfg.data(), bytes[i].data(), cfg.size());
    c.guarantee[e.chip * L + *e.leader] = e.guarantee;
  }
  for (std::uint32_t chip = 0; chip < m.topo.chips; ++chip) {
    if (!has_context[chip]) {
      return Error{Errc::MissingKey, "$.files", "a driver context for every chip", "none for chip " + std::to_string(chip)};
    }
  }
  return c;
}

std::string manifest_json(const Manifest& m) {
  nlohmann::ordered_json j;
  j["format"] = kManifestFormat;
  nlohmann::ordered_json o;
  put_options(o, m.topo, m.hyp);
  o["proxy"] = m.hyp.proxy;
  o["guarantee"] = enum_name(m.guarantee);
  j["options"] = std::move(o);
  auto files = nlohmann::ordered_json::array();
  for (const ManifestEntry& e : m.entries) {
    nlohmann::ordered_json f;
    f["file"] = e.file;
    f["role"] = name(e.role);
    f["chip"] = e.chip;
    if (e.leader) f["leader"] = *e.leader;
    if (e.log) f["log"] = *e.log;
    if (e.role == FileRole::Leader) f["guarantee"] = e.guarantee;
    files.push_back(std::move(f));
  }
  j["files"] = std::move(files);
  return j.dump(2) + "\n";
}

Result<Manifest> read_manifest(std::string_view text) {
  const Result<nlohmann::json> parsed = parse_strict_json(text);
  if (!parsed) return parsed.error();
  const nlohmann::json& j = *parsed;
  if (!j.is_object()) return Error{Errc::WrongType, "$", "an object", j.type_name()};
  if (!j.contains("format") || j["format"] != kManifestFormat) {
    return Error{Errc::OutOfRange, "$.format", std::string(kManifestFormat), j.contains("format") ? shown(j["format"]) : "nothing"};
  }
  // Another program's manifest is told apart by its format tag first, then read whole.
  for (const auto& [key, value] : j.items()) {
    if (key != "format" && key != "options" && key != "files") return Error{Errc::UnknownKey, "$." + key, "", ""};
  }
  if (!j.contains("options") || !j["options"].is_object()) return Error{Errc::MissingKey, "$.options", "an object", "nothing"};
  Manifest m;
  KeyReader o(j["options"], "$.options");
  // Braced lists read left to right: the first bad key is the one named.
  m.topo = Topology{o.count("chips", kChipRange), o.count("leaders", kLeaderRange), o.choice<Fabric>("fabric"),
                    o.flag("host_cc"), o.count("rounds", kRoundRange), o.choice<Wiring>("wiring"), o.choice<Lowering>("lowering")};
  m.hyp = Hypotheses{o.choice<Compare>("compare"), o.choice<DecMode>("dec"), o.choice<Roles>("roles"),
                     o.choice<HostAddrs>("host_addrs"), o.flag("proxy")};
  m.guarantee = o.choice<GuaranteeMode>("guarantee");
  if (const std::optional<Error> e = o.error()) return *e;
  if (!j.contains("files") || !j["files"].is_array()) return Error{Errc::MissingKey, "$.files", "an array", "nothing"};
  const std::uint32_t L = m.topo.leaders, N = m.topo.chips * m.topo.leaders;
  std::set<std::uint32_t> leaders, contexts;
  std::set<std::string> names{std::string(kManifestName)};  // no entry may be the manifest itself
  for (std::size_t i = 0; i < j["files"].size(); ++i) {
    const nlohmann::json& f = j["files"][i];
    const std::string at = "$.files[" + std::to_string(i) + "]";
    if (!f.is_object()) return Error{Errc::WrongType, at, "an object", f.type_name()};
    KeyReader r(f, at);
    ManifestEntry e;
    e.file = r.file("file");
    e.role = r.choice<FileRole>("role");
    e.chip = r.count("chip", Range{0, m.topo.chips - 1});
    if (f.contains("log")) e.log = r.file("log");
    if (e.role == FileRole::Leader) e.leader = r.count("leader", Range{0, L - 1});
    if (e.role == FileRole::Leader) r.known("guarantee");
    if (const std::optional<Error> err = r.error()) return *err;
    if (!names.insert(e.file).second) return Error{Errc::Conflict, at + ".file", "each file once", "'" + e.file + "' again"};
    if (e.log && !names.insert(*e.log).second) return Error{Errc::Conflict, at + ".log", "each file once", "'" + *e.log + "' again"};
    if (e.role == FileRole::DriverContext) {
      if (!contexts.insert(e.chip).second) return Error{Errc::Conflict, at, "one driver context a chip", "chip " + std::to_string(e.chip) + " again"};
      m.entries.push_back(std::move(e));
      continue;
    }
    if (!leaders.insert(e.chip * L + *e.leader).second) {
      return Error{Errc::Conflict, at, "one image a leader",
                   "chip " + std::to_string(e.chip) + " leader " + std::to_string(*e.leader) + " again"};
    }
    if (!f.contains("guarantee") || !f["guarantee"].is_array()) return Error{Errc::MissingKey, at + ".guarantee", "an array of leaders", "nothing"};
    for (std::size_t k = 0; k < f["guarantee"].size(); ++k) {
      const nlohmann::json& g = f["guarantee"][k];
      if (!g.is_number_unsigned() || g.get<std::uint64_t>() >= N) {
        return Error{Errc::OutOfRange, at + ".guarantee[" + std::to_string(k) + "]", "a leader 0.." + std::to_string(N - 1), shown(g)};
      }
      if (std::find(e.guarantee.begin(), e.guarantee.end(), g.get<std::uint32_t>()) != e.guarantee.end()) {
        return Error{Errc::Conflict, at + ".guarantee[" + std::to_string(k) + "]", "each leader once", shown(g) + " again"};
      }
      e.guarantee.push_back(g.get<std::uint32_t>());
    }
    m.entries.push_back(std::move(e));
  }
  for (std::uint32_t k = 0; k < N; ++k) {
    if (!leaders.contains(k)) {
      return Error{Errc::MissingKey, "$.files", "an image for every leader of " + std::to_string(m.topo.chips) + "x" + std::to_string(L),
                   "none for chip " + std::to_string(k / L) + " leader " + std::to_string(k % L)};
    }
  }
  return m;
}

}  // namespace neffbar::model
