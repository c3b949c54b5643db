// Composed configs as files (composed_files.h).
#include "neffbar/model/scenarios/composed_files.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "neffbar/json_log.h"
#include "neffbar/model/frontend/composer.h"

namespace neffbar::model {
namespace {

std::string two_digits(std::uint32_t n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02u", n);
  return buf;
}

template <class E>
Result<E> enum_at(const nlohmann::json& j, const std::string& path, const char* key) {
  const std::string where = path + "." + key;
  if (!j.contains(key)) return Error{Errc::MissingKey, where, enum_choices<E>(), "nothing"};
  if (!j[key].is_string()) return Error{Errc::WrongType, where, "a string: " + enum_choices<E>(), j[key].dump()};
  if (const std::optional<E> e = parse_enum<E>(j[key].get<std::string>())) return *e;
  return Error{Errc::OutOfRange, where, enum_choices<E>(), j[key].dump()};
}

Result<std::uint32_t> count_at(const nlohmann::json& j, const std::string& path, const char* key, Range range) {
  const std::string where = path + "." + key;
  if (!j.contains(key)) return Error{Errc::MissingKey, where, range.text(), "nothing"};
  if (!j[key].is_number_unsigned()) return Error{Errc::WrongType, where, "a whole number " + range.text(), j[key].dump()};
  const std::uint64_t v = j[key].get<std::uint64_t>();
  if (v < range.lo || v > range.hi) return Error{Errc::OutOfRange, where, range.text(), j[key].dump()};
  return static_cast<std::uint32_t>(v);
}

Result<bool> flag_at(const nlohmann::json& j, const std::string& path, const char* key) {
  const std::string where = path + "." + key;
  if (!j.contains(key)) return Error{Errc::MissingKey, where, "true or false", "nothing"};
  if (!j[key].is_boolean()) return Error{Errc::WrongType, where, "true or false", j[key].dump()};
  return j[key].get<bool>();
}

Result<std::string> file_at(const nlohmann::json& j, const std::string& path, const char* key) {
  const std::string where = path + "." + key;
  if (!j.contains(key)) return Error{Errc::MissingKey, where, "a file name", "nothing"};
  if (!j[key].is_string()) return Error{Errc::WrongType, where, "a file name", j[key].dump()};
  std::string f = j[key].get<std::string>();
  // A name in the directory, never a path out of it.
  if (f.empty() || f == "." || f == ".." || f.find('/') != std::string::npos || f.find('\0') != std::string::npos) {
    return Error{Errc::OutOfRange, where, "a file name in the manifest's directory", j[key].dump()};
  }
  return f;
}

Result<Topology> read_topology(const nlohmann::json& o, Hypotheses& hyp, GuaranteeMode& g) {
  const std::string at = "$.options";
  Topology t;
  const auto chips = count_at(o, at, "chips", kChipRange);
  if (!chips) return chips.error();
  const auto leaders = count_at(o, at, "leaders", kLeaderRange);
  if (!leaders) return leaders.error();
  const auto rounds = count_at(o, at, "rounds", kRoundRange);
  if (!rounds) return rounds.error();
  const auto fabric = enum_at<Fabric>(o, at, "fabric");
  if (!fabric) return fabric.error();
  const auto host_cc = flag_at(o, at, "host_cc");
  if (!host_cc) return host_cc.error();
  const auto wiring = enum_at<Wiring>(o, at, "wiring");
  if (!wiring) return wiring.error();
  const auto lowering = enum_at<Lowering>(o, at, "lowering");
  if (!lowering) return lowering.error();
  const auto compare = enum_at<Compare>(o, at, "compare");
  if (!compare) return compare.error();
  const auto dec = enum_at<DecMode>(o, at, "dec");
  if (!dec) return dec.error();
  const auto roles = enum_at<Roles>(o, at, "roles");
  if (!roles) return roles.error();
  const auto host_addrs = enum_at<HostAddrs>(o, at, "host_addrs");
  if (!host_addrs) return host_addrs.error();
  const auto proxy = flag_at(o, at, "proxy");
  if (!proxy) return proxy.error();
  const auto guarantee = enum_at<GuaranteeMode>(o, at, "guarantee");
  if (!guarantee) return guarantee.error();
  t = Topology{*chips, *leaders, *fabric, *host_cc, *rounds, *wiring, *lowering};
  hyp = Hypotheses{*compare, *dec, *roles, *host_addrs, *proxy};
  g = *guarantee;
  return t;
}

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
    files.push_back({context_name(c), std::string(blob.begin(), blob.end())});
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
  c.contexts.resize(m.topo.chips);
  std::vector<bool> has_context(m.topo.chips, false);
  for (std::size_t i = 0; i < m.entries.size(); ++i) {
    const ManifestEntry& e = m.entries[i];
    if (e.role == FileRole::DriverContext) {
      c.contexts[e.chip].bytes.assign(bytes[i].begin(), bytes[i].end());
      has_context[e.chip] = true;
      continue;
    }
    ConfigBytes& cfg = c.configs[e.chip * L + *e.leader];
    if (bytes[i].size() != cfg.size()) {
      return Error{Errc::WrongLength, e.file, std::to_string(cfg.size()) + " bytes (0x128)", std::to_string(bytes[i].size()) + " bytes"};
    }
    std::copy(bytes[i].begin(), bytes[i].end(), reinterpret_cast<char*>(cfg.data()));
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
  o["chips"] = m.topo.chips;
  o["leaders"] = m.topo.leaders;
  o["fabric"] = fabric_name(m.topo.fabric);
  o["host_cc"] = m.topo.host_cc;
  o["rounds"] = m.topo.rounds;
  o["wiring"] = name(m.topo.wiring);
  o["lowering"] = name(m.topo.lowering);
  o["compare"] = name(m.hyp.compare);
  o["dec"] = name(m.hyp.dec);
  o["roles"] = name(m.hyp.roles);
  o["host_addrs"] = name(m.hyp.host_addrs);
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
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{Errc::BadJson, "manifest", "JSON", "text that is not JSON"};
  if (!j.is_object()) return Error{Errc::WrongType, "$", "an object", j.type_name()};
  if (!j.contains("format") || j["format"] != kManifestFormat) {
    return Error{Errc::OutOfRange, "$.format", std::string(kManifestFormat), j.contains("format") ? j["format"].dump() : "nothing"};
  }
  if (!j.contains("options") || !j["options"].is_object()) return Error{Errc::MissingKey, "$.options", "an object", "nothing"};
  Manifest m;
  const Result<Topology> t = read_topology(j["options"], m.hyp, m.guarantee);
  if (!t) return t.error();
  m.topo = *t;
  if (!j.contains("files") || !j["files"].is_array()) return Error{Errc::MissingKey, "$.files", "an array", "nothing"};
  const std::uint32_t L = m.topo.leaders, N = m.topo.chips * m.topo.leaders;
  std::set<std::uint32_t> leaders, contexts;
  std::set<std::string> names;
  for (std::size_t i = 0; i < j["files"].size(); ++i) {
    const nlohmann::json& f = j["files"][i];
    const std::string at = "$.files[" + std::to_string(i) + "]";
    if (!f.is_object()) return Error{Errc::WrongType, at, "an object", f.type_name()};
    ManifestEntry e;
    const auto file = file_at(f, at, "file");
    if (!file) return file.error();
    e.file = *file;
    const auto role = enum_at<FileRole>(f, at, "role");
    if (!role) return role.error();
    e.role = *role;
    const auto chip = count_at(f, at, "chip", Range{0, m.topo.chips - 1});
    if (!chip) return chip.error();
    e.chip = *chip;
    if (!names.insert(e.file).second) return Error{Errc::Conflict, at + ".file", "each file once", "'" + e.file + "' again"};
    if (f.contains("log")) {
      const auto log = file_at(f, at, "log");
      if (!log) return log.error();
      if (!names.insert(*log).second) return Error{Errc::Conflict, at + ".log", "each file once", "'" + *log + "' again"};
      e.log = *log;
    }
    if (e.role == FileRole::DriverContext) {
      if (!contexts.insert(e.chip).second) return Error{Errc::Conflict, at, "one driver context a chip", "chip " + std::to_string(e.chip) + " again"};
      m.entries.push_back(std::move(e));
      continue;
    }
    const auto leader = count_at(f, at, "leader", Range{0, L - 1});
    if (!leader) return leader.error();
    e.leader = *leader;
    if (!leaders.insert(e.chip * L + *leader).second) {
      return Error{Errc::Conflict, at, "one image a leader",
                   "chip " + std::to_string(e.chip) + " leader " + std::to_string(*leader) + " again"};
    }
    if (!f.contains("guarantee") || !f["guarantee"].is_array()) return Error{Errc::MissingKey, at + ".guarantee", "an array of leaders", "nothing"};
    for (std::size_t k = 0; k < f["guarantee"].size(); ++k) {
      const nlohmann::json& g = f["guarantee"][k];
      if (!g.is_number_unsigned() || g.get<std::uint64_t>() >= N) {
        return Error{Errc::OutOfRange, at + ".guarantee[" + std::to_string(k) + "]", "a leader 0.." + std::to_string(N - 1), g.dump()};
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
