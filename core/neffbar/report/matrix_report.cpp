#include "neffbar/report/matrix_report.h"

#include <array>
#include <map>

#include <nlohmann/json.hpp>

#include "neffbar/model/scenarios/options_json.h"
#include "neffbar/overloaded.h"

namespace neffbar::report {

using namespace model;

namespace {

// The work column: what the deciding engine counted, in its unit.
std::string work_text(const EngineStats& stats) {
  return std::visit(Overloaded{[](const SearchStats& s) { return std::to_string(s.states) + " states"; },
                               [](const RunStats& w) { return std::to_string(w.instructions) + " instr."; }},
                    stats);
}

}  // namespace

std::string full_summary_markdown(const std::vector<MatrixRow>& rows) {
  // key: lowering, fabric, wiring, host-CC (1-round rows); per leader count the chip
  // counts with OK, and the verdicts seen elsewhere.
  struct Cell {
    std::vector<std::uint32_t> ok;
    std::map<std::string, std::uint32_t> others;
    bool all_exact = true;
  };
  std::map<std::string, std::array<Cell, 5>> table;
  for (const MatrixRow& r : rows) {
    if (r.topo.rounds != 1 || r.topo.leaders > 4) continue;
    const std::string key = "| " + std::string(name(r.topo.lowering)) + " | " + std::string(fabric_name(r.topo.fabric)) + " | " +
                            std::string(name(r.topo.wiring)) + " | " + std::string(name(r.hyp.dec)) + " | " +
                            (r.topo.host_cc ? "on" : "off") + " |";
    Cell& c = table[key][r.topo.leaders];
    if (r.verdict == Verdict::Ok) {
      c.ok.push_back(r.topo.chips);
    } else {
      ++c.others[std::string(verdict_name(r.verdict))];
    }
    c.all_exact = c.all_exact && r.exact;
  }
  auto ranges = [](const std::vector<std::uint32_t>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size();) {
      std::size_t j = i;
      while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
      s += (s.empty() ? "" : ", ") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
      i = j + 1;
    }
    return s.empty() ? std::string("none") : s;
  };
  std::string out =
      "| lowering | fabric | wiring | dec | host-CC | OK at chips (L=1) | L=2 | L=3 | L=4 | elsewhere |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& [key, cells] : table) {
    out += key;
    std::map<std::string, std::uint32_t> others;
    bool exact = true;
    for (std::uint32_t L = 1; L <= 4; ++L) {
      out += " " + ranges(cells[L].ok) + " |";
      for (const auto& [v, n] : cells[L].others) others[v] += n;
      exact = exact && cells[L].all_exact;
    }
    std::string e;
    for (const auto& [v, n] : others) e += (e.empty() ? "" : ", ") + v + " x" + std::to_string(n);
    out += " " + (e.empty() ? std::string("-") : e) + (exact ? "" : " (not all exact)") + " |\n";
  }
  return out;
}

std::string matrix_markdown(const std::vector<MatrixRow>& rows) {
  std::string out =
      "| topology | host-CC | rounds | compare | dec | wiring | lowering | roles | host addrs | verdict | global | "
      "round | work | cex steps | engine |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::map<std::string, const MatrixRow*> first_of_kind;  // one counterexample per hypothesis combination
  for (const MatrixRow& r : rows) {
    out += "| " + topo_name(r.topo) + " | " + (r.topo.host_cc ? "on" : "off") + " | " + std::to_string(r.topo.rounds) +
           " | " + std::string(name(r.hyp.compare)) + " | " + std::string(name(r.hyp.dec)) + " | " +
           std::string(name(r.topo.wiring)) + " | " + std::string(name(r.topo.lowering)) + " | " +
           std::string(name(r.hyp.roles)) + " | " + std::string(name(r.hyp.host_addrs)) + " | " +
           std::string(verdict_name(r.verdict)) + " | " + std::string(global_status_name(r.global)) + " | " +
           (broken_round(r.broke_in_round) ? std::to_string(*broken_round(r.broke_in_round)) : "") + " | " + work_text(r.stats) + " | " +
           (r.cex_steps ? std::to_string(r.cex_steps) : "") + " | " + std::string(engine_name(r.engine)) +
           (r.exact ? "" : " (not exact)") + " |\n";
    if (!r.counterexample.empty()) {
      const std::string key = std::string(verdict_name(r.verdict)) + " " + scenario_title(Topology{1, 1, r.topo.fabric, r.topo.host_cc, 1, r.topo.wiring, r.topo.lowering}, r.hyp);
      const auto it = first_of_kind.find(key);
      if (it == first_of_kind.end() || it->second->cex_steps > r.cex_steps) first_of_kind[key] = &r;
    }
  }
  out += "\n## Shortest counterexample per failing combination\n";
  for (const auto& [key, r] : first_of_kind) {
    out += "\n### " + scenario_title(r->topo, r->hyp) + "\n\n```\n" + r->counterexample + "```\n";
  }
  return out;
}

std::string matrix_json(const std::vector<MatrixRow>& rows) {
  nlohmann::ordered_json arr = nlohmann::ordered_json::array();
  for (const MatrixRow& r : rows) {
    nlohmann::ordered_json j;
    put_options(j, r.topo, r.hyp);
    j["verdict"] = verdict_name(r.verdict);
    j["engine"] = engine_name(r.engine);
    j["exact"] = r.exact;
    j["global_property"] = global_status_name(r.global);
    j["global_property_holds"] = r.global_holds();
    if (const auto round = broken_round(r.broke_in_round)) j["broke_in_round"] = *round;
    std::visit(Overloaded{[&](const SearchStats& s) { j["states"] = s.states; },
                          [&](const RunStats& w) { j["instructions"] = w.instructions; }},
               r.stats);
    j["seconds"] = r.seconds;
    if (!r.counterexample.empty()) j["counterexample"] = r.counterexample;
    arr.push_back(std::move(j));
  }
  return arr.dump(2) + "\n";
}

}  // namespace neffbar::report
