#include "neffbar/module/conformance.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <random>
#include <stdexcept>

#include "neffbar/codec.h"
#include "neffbar/hex.h"
#include "neffbar/json_log.h"
#include "neffbar/model/exports/sequence_chart.h"  // html_escaped
#include "neffbar/schema.h"

namespace neffbar {
namespace {

using Json = nlohmann::ordered_json;
using Rng = std::mt19937_64;

std::uint64_t below(Rng& r, std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(r); }
template <class T>
T pick(Rng& r, std::initializer_list<T> xs) {
  return *(xs.begin() + static_cast<std::ptrdiff_t>(below(r, xs.size())));
}

// A value a field's bits can hold, edges first.
std::uint64_t field_edge(Rng& r, std::uint64_t max) {
  switch (below(r, 5)) {
    case 0: return 0;
    case 1: return max;
    case 2: return 1;
    case 3: return max >> 1;
    default: return r() & max;
  }
}

// An image the fuzz starts from: random bytes, or leaves set to edge values.
ConfigBytes image_input(Rng& r) {
  ConfigBytes b{};
  if (below(r, 4) == 0) {
    for (auto& x : b) x = static_cast<std::uint8_t>(r());
    return b;
  }
  const auto leaves = config_leaves();
  for (std::uint64_t n = 1 + below(r, 8); n > 0; --n) {
    const Leaf& l = leaves[below(r, leaves.size())];
    set_leaf_value(b.data(), l, field_edge(r, l.field->max_value()));
  }
  return b;
}

// A log: the reference's, sometimes with one character changed, dropped or a gate spelled as glibc's null %p.
std::string log_input(Rng& r) {
  std::string log = write_log(image_input(r), below(r, 2) ? LogMode::Full : LogMode::Default);
  switch (below(r, 6)) {
    case 0: log[below(r, log.size())] = pick(r, {'0', '1', 'F', 'f', '"', ',', ' ', '-', 'x'}); break;
    case 1: log.erase(below(r, log.size()), 1); break;
    case 2:
      if (const auto at = log.find("\"0x0\""); at != std::string::npos) log.replace(at, 5, "\"(nil)\"");
      break;
    default: break;
  }
  return log;
}

std::int64_t index_input(Rng& r) {
  return below(r, 8) == 0 ? pick<std::int64_t>(r, {INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX, 256, 4294967296})
                          : static_cast<std::int64_t>(below(r, 12)) - 2;
}

std::int32_t sema_value(Rng& r) {
  return below(r, 3) == 0 ? pick<std::int32_t>(r, {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1})
                          : static_cast<std::int32_t>(below(r, 11)) - 5;
}

struct Fuzzer {
  const Differential& d;
  CallSite* site;
  Rng rng;

  // One differential execution of `op`, its input as text in `text`.
  std::optional<Disagreement> once(std::string_view op, std::string& text) {
    auto call = [&] {
      if (site) site->at(op, text);
    };
    if (op == "decode_log") {
      const ConfigBytes img = image_input(rng);
      std::vector<std::uint8_t> b(img.begin(), img.end());
      if (below(rng, 40) == 0) b.resize(below(rng, 0x130));
      const bool full = below(rng, 2) == 1;
      text = "decode_log image " + hex_bytes(b) + (full ? " full" : " default");
      call();
      return d.decode_log(b, full);
    }
    if (op == "encode_log") {
      const std::string log = log_input(rng);
      text = "encode_log log " + Json(log).dump();
      call();
      return d.encode_log(log);
    }
    if (op == "search") {
      const std::uint32_t fabric = below(rng, 16) == 0 ? static_cast<std::uint32_t>(rng()) : static_cast<std::uint32_t>(below(rng, 2));
      const std::int64_t type = index_input(rng), step = index_input(rng);
      text = "search fabric " + std::to_string(fabric) + " type " + std::to_string(type) + " step " + std::to_string(step);
      call();
      return d.search(fabric, type, step);
    }
    if (op == "table_bytes") {
      const std::uint32_t fabric = pick<std::uint32_t>(rng, {0, 1, 0, 1, 2, 3, UINT32_MAX});
      text = "table_bytes fabric " + std::to_string(fabric);
      call();
      return d.table_bytes(fabric);
    }
    std::vector<std::int32_t> file(1 + below(rng, 4));
    for (auto& v : file) v = sema_value(rng);
    neffbar_sema_op sop{static_cast<std::uint32_t>(below(rng, 20) == 0 ? 6 : below(rng, 6)),
                        static_cast<std::uint32_t>(below(rng, 20) == 0 ? file.size() : below(rng, file.size())), 0,
                        below(rng, 2) ? 1 : sema_value(rng)};
    const std::int64_t at = sop.sema < file.size() ? file[sop.sema] : 0;
    sop.value = below(rng, 2) ? at + static_cast<std::int64_t>(below(rng, 3)) - 1 : sema_value(rng);
    const std::uint32_t compare = below(rng, 20) == 0 ? 2 : static_cast<std::uint32_t>(below(rng, 2));
    text = "sema_apply file " + Json(file).dump() + " prim " + std::to_string(sop.prim) + " sema " +
           std::to_string(sop.sema) + " value " + std::to_string(sop.value) + " dec " + std::to_string(sop.dec) +
           " compare " + std::to_string(compare);
    call();
    return d.sema_apply(file, sop, compare);
  }
};

const Json* vectors_of(std::span<const Json> files, std::string_view op) {
  for (const Json& f : files)
    if (f.is_object() && f.contains("operation") && f["operation"] == op) return &f;
  return nullptr;
}

Json disagreement_json(const Disagreement& d) {
  Json j{{"op", d.op}, {"path", d.path}, {"reference", d.reference}, {"module", d.module}, {"flag", d.flag},
         {"line", d.line()}};
  if (d.offset) j["offset"] = *d.offset;
  return j;
}
Disagreement disagreement_from(const Json& j) {
  Disagreement d{j.at("op").get<std::string>(), j.at("path").get<std::string>(), std::nullopt,
                 j.at("reference").get<std::string>(), j.at("module").get<std::string>(), j.at("flag").get<std::string>()};
  if (j.contains("offset")) d.offset = j.at("offset").get<std::uint32_t>();
  return d;
}

// Text from a module or a vector file as one table cell: control bytes as \xNN, a '|'
// as \|, so that neither a name nor a flag can add a line or a column.
std::string cell(std::string_view text) {
  std::string o;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      o += "\\x";
      o += "0123456789abcdef"[u >> 4];
      o += "0123456789abcdef"[u & 15];
    } else if (c == '|') {
      o += "\\|";
    } else {
      o += c;
    }
  }
  return o;
}

// The cells of an operation's row, as the table and the page show them.
struct Row {
  std::string op, implemented, vectors, first_failure, failed_flags, fuzz, disagreement;
};
Row row_of(const OpReport& r) {
  if (!r.implemented) return {r.op, "no", "-", "-", "-", "-", "-"};
  Row row{r.op, "yes", std::to_string(r.passed) + "/" + std::to_string(r.vectors), "none", "none",
          std::to_string(r.fuzz_runs) + " runs", "none"};
  if (!r.failed_flags.empty()) {
    row.failed_flags.clear();
    for (const auto& [f, n] : r.failed_flags) row.failed_flags += (row.failed_flags.empty() ? "" : " ") + f + " " + std::to_string(n);
  }
  if (r.first_failure) {
    std::string flags;
    for (const auto& f : r.first_failure->flags) flags += (flags.empty() ? "" : ",") + f;
    row.first_failure = "tcId " + std::to_string(r.first_failure->id) + " [" + flags + "]: " +
                        (r.first_failure->disagreement ? r.first_failure->disagreement->line() : "");
  }
  if (r.fuzz_disagreement) row.disagreement = r.fuzz_disagreement->line();
  return row;
}

}  // namespace

bool Conformance::agrees() const {
  return fault.empty() && std::none_of(ops.begin(), ops.end(), [](const OpReport& r) {
           return r.first_failure.has_value() || r.fuzz_disagreement.has_value();
         });
}

Json Conformance::to_json() const {
  Json j{{"module", module}, {"seed", seed}, {"agrees", agrees()}, {"fault", fault}, {"operations", Json::array()}};
  for (const OpReport& r : ops) {
    Json o{{"operation", r.op}, {"implemented", r.implemented}, {"vectors", r.vectors}, {"passed", r.passed},
           {"fuzz_runs", r.fuzz_runs}};
    if (!r.failed_flags.empty()) {
      o["failed_flags"] = Json::object();
      for (const auto& [f, n] : r.failed_flags) o["failed_flags"][f] = n;
    }
    if (r.first_failure) {
      o["first_failure"] = Json{{"tcId", r.first_failure->id}, {"comment", r.first_failure->comment},
                                {"flags", r.first_failure->flags}};
      if (r.first_failure->disagreement)
        o["first_failure"]["disagreement"] = disagreement_json(*r.first_failure->disagreement);
    }
    if (r.fuzz_disagreement) {
      o["fuzz_disagreement"] = disagreement_json(*r.fuzz_disagreement);
      o["fuzz_input"] = r.fuzz_input;
    }
    j["operations"].push_back(o);
  }
  return j;
}

Conformance Conformance::from_json(const Json& j) {
  try {
    Conformance c{j.at("module").get<std::string>(), j.at("seed").get<std::uint64_t>(), {},
                  j.at("fault").get<std::string>()};
    for (const Json& o : j.at("operations")) {
      OpReport r;
      r.op = o.at("operation").get<std::string>();
      r.implemented = o.at("implemented").get<bool>();
      r.vectors = o.at("vectors").get<int>();
      r.passed = o.at("passed").get<int>();
      r.fuzz_runs = o.at("fuzz_runs").get<std::uint64_t>();
      if (o.contains("failed_flags"))
        for (const auto& [f, n] : o.at("failed_flags").items()) r.failed_flags.emplace_back(f, n.get<int>());
      if (o.contains("first_failure")) {
        const Json& f = o.at("first_failure");
        r.first_failure = VectorOutcome{f.at("tcId").get<int>(), f.at("comment").get<std::string>(),
                                        f.at("flags").get<std::vector<std::string>>(), std::nullopt};
        if (f.contains("disagreement")) r.first_failure->disagreement = disagreement_from(f.at("disagreement"));
      }
      if (o.contains("fuzz_disagreement")) {
        r.fuzz_disagreement = disagreement_from(o.at("fuzz_disagreement"));
        r.fuzz_input = o.at("fuzz_input").get<std::string>();
      }
      c.ops.push_back(std::move(r));
    }
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("conformance JSON: ") + e.what());
  }
}

std::string Conformance::table() const {
  std::string s = "module: " + cell(module) + "\n| operation | implemented | vectors passed | most specific failing vector | "
                  "flags of failing vectors | fuzz | first disagreement |\n|---|---|---|---|---|---|---|\n";
  for (const OpReport& r : ops) {
    const Row row = row_of(r);
    s += "| " + cell(row.op) + " | " + row.implemented + " | " + row.vectors + " | " + cell(row.first_failure) + " | " +
         cell(row.failed_flags) + " | " + row.fuzz + " | " + cell(row.disagreement) + " |\n";
  }
  if (!fault.empty()) s += "fault: " + cell(fault) + "\n";
  for (const OpReport& r : ops)
    if (r.fuzz_disagreement) s += "reproduce " + cell(r.op) + ": " + cell(r.fuzz_input) + "\n";
  s += agrees() ? "verdict: the module agrees with the reference (seed " + std::to_string(seed) + ")\n"
                : "verdict: DISAGREES (seed " + std::to_string(seed) + ")\n";
  return s;
}

std::string Conformance::html() const {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>neffbar conform: " + model::html_escaped(cell(module)) +
      "</title>\n<style>body{font-family:sans-serif}td,th{border:1px solid #999;padding:2px 6px}"
      "tr.bad td{background:#fdd}</style></head><body>\n<h1>neffbar conform</h1>\n<p id=\"module\">" +
      model::html_escaped(cell(module)) + "</p>\n<p id=\"verdict\">" + (agrees() ? "agrees" : "DISAGREES") + "</p>\n<p id=\"seed\">" +
      std::to_string(seed) + "</p>\n";
  if (!fault.empty()) s += "<p id=\"fault\">" + model::html_escaped(cell(fault)) + "</p>\n";
  s += "<table id=\"operations\"><tr><th>operation</th><th>implemented</th><th>vectors passed</th><th>most specific "
       "failing vector</th><th>flags of failing vectors</th><th>fuzz</th><th>first disagreement</th></tr>\n";
  for (const OpReport& r : ops) {
    const Row row = row_of(r);
    const bool bad = r.first_failure || r.fuzz_disagreement;
    s += std::string("<tr") + (bad ? " class=\"bad\"" : "") + "><td>" + model::html_escaped(row.op) + "</td><td>" +
         row.implemented + "</td><td>" + row.vectors + "</td><td>" + model::html_escaped(cell(row.first_failure)) + "</td><td>" +
         model::html_escaped(cell(row.failed_flags)) + "</td><td>" + row.fuzz + "</td><td>" + model::html_escaped(cell(row.disagreement)) + "</td></tr>\n";
  }
  return s + "</table>\n</body></html>\n";
}

Conformance conform(const neffbar_module& module, const ConformOptions& options, CallSite* site) {
  Conformance c{module.name ? module.name : "", options.seed, {}, ""};
  std::vector<Json> made;
  std::span<const Json> files = options.vectors;
  if (files.empty()) {
    for (const std::string_view op : kOperations) made.push_back(make_vectors(op));
    files = made;
  }
  const Differential d(module);
  std::size_t implemented = 0;
  for (const std::string_view op : kOperations) implemented += implements(module, op) ? 1 : 0;
  std::size_t index = 0;
  for (const std::string_view op : kOperations) {
    OpReport r;
    r.op = op;
    r.implemented = implements(module, op);
    if (r.implemented) {
      if (const Json* file = vectors_of(files, op)) {
        for (VectorOutcome& o : run_vectors(module, *file, site)) {
          ++r.vectors;
          if (!o.disagreement) {
            ++r.passed;
            continue;
          }
          for (const std::string& f : o.flags) {
            auto at = std::find_if(r.failed_flags.begin(), r.failed_flags.end(), [&](const auto& p) { return p.first == f; });
            if (at == r.failed_flags.end()) r.failed_flags.emplace_back(f, 1);
            else ++at->second;
          }
          const auto specific = [](const VectorOutcome& v) {
            const bool consistent = std::find(v.flags.begin(), v.flags.end(), v.disagreement->flag) != v.flags.end();
            return std::pair{!consistent, v.flags.empty() ? SIZE_MAX : v.flags.size()};
          };
          if (!r.first_failure || specific(o) < specific(*r.first_failure)) r.first_failure = std::move(o);
        }
      }
      Fuzzer f{d, site, Rng(options.seed * 0x9E3779B97F4A7C15ULL + index)};
      const auto until = std::chrono::steady_clock::now() +
                         std::chrono::duration<double>(options.seconds / static_cast<double>(implemented));
      std::string text;
      while (options.max_runs == 0 || r.fuzz_runs < options.max_runs) {
        if ((r.fuzz_runs & 63) == 0 && std::chrono::steady_clock::now() >= until) break;
        ++r.fuzz_runs;
        if (auto dis = f.once(op, text)) {
          r.fuzz_disagreement = std::move(dis);
          r.fuzz_input = text;
          break;
        }
      }
    }
    c.ops.push_back(std::move(r));
    ++index;
  }
  return c;
}

}  // namespace neffbar
