#include "neffbar/model/hypotheses.h"

#include <map>

#include <nlohmann/json.hpp>

namespace neffbar::model {
namespace {

struct Ref {
  std::uint32_t chips, leaders;
  Fabric fabric;
};

std::vector<Ref> refs(bool small) {
  if (small) return {{1, 4, Fabric::Default}, {2, 2, Fabric::Switch}};
  return {{1, 4, Fabric::Default}, {2, 4, Fabric::Default}, {2, 2, Fabric::Switch}, {4, 4, Fabric::Default}};
}

std::string topo_name(const Topology& t) {
  return std::to_string(t.chips) + "x" + std::to_string(t.leaders) + " " + std::string(fabric_name(t.fabric));
}

}  // namespace

std::vector<std::pair<std::uint32_t, std::uint32_t>> reference_topologies(bool small) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const Ref& r : refs(small)) out.emplace_back(r.chips, r.leaders);
  return out;
}

std::vector<Scenario> matrix_scenarios(bool small) {
  std::vector<Scenario> all;
  for (const Ref& ref : refs(small)) {
    for (bool host_cc : {true, false}) {
      for (std::uint32_t rounds : {1u, 2u}) {
        for (Compare cmp : {Compare::Ge, Compare::Gt}) {
          for (DecMode dec : {DecMode::One, DecMode::Target}) {
            for (Wiring w : {Wiring::PerPeer, Wiring::Counting}) {
              for (Lowering low : {Lowering::Table, Lowering::ArriveWait, Lowering::Hierarchical}) {
                for (Roles roles : {Roles::Code, Roles::Narrative}) {
                  for (HostAddrs ha : {HostAddrs::Ctx, HostAddrs::Config}) {
                    Scenario s;
                    s.topo = Topology{ref.chips, ref.leaders, ref.fabric, host_cc, rounds, w, low};
                    s.hyp = Hypotheses{cmp, dec, roles, ha, true};
                    s.opt.max_seconds = 60;
                    s.engine = Engine::Explicit;  // the matrix shows shortest counterexamples
                    all.push_back(s);
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return all;
}

Result<MatrixRow> matrix_row(const Scenario& s) {
  const Result<ScenarioResult> r = run_scenario(s);
  if (!r) return r.error();
  MatrixRow row;
  row.topo = s.topo;
  row.hyp = s.hyp;
  row.verdict = r->result.verdict;
  row.global_holds = !r->result.global_finding.has_value() && r->result.verdict != Verdict::Budget;
  row.states = r->result.states;
  row.seconds = r->result.seconds;
  row.broke_in_round = r->result.broke_in_round;
  row.engine = r->result.engine;
  row.exact = r->result.exact();
  if (r->result.cex) {
    row.counterexample = format_counterexample(r->system, *r->result.cex);
    row.cex_steps = r->result.cex->trace.size();
  }
  return row;
}

std::vector<MatrixRow> run_matrix(const MatrixOptions& opt) {
  const std::vector<Scenario> all = matrix_scenarios(opt.small);
  std::vector<MatrixRow> rows;
  rows.reserve(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    Result<MatrixRow> row = matrix_row(all[i]);
    if (!row) {  // cannot happen: the reference topologies are in range; never report it as OK
      MatrixRow none;
      none.topo = all[i].topo;
      none.hyp = all[i].hyp;
      none.verdict = Verdict::Budget;
      none.global_holds = false;
      rows.push_back(std::move(none));
    } else {
      rows.push_back(std::move(*row));
    }
    if (opt.progress) opt.progress(i + 1, all.size());
  }
  return rows;
}

std::string matrix_markdown(const std::vector<MatrixRow>& rows) {
  std::string out =
      "| topology | host-CC | rounds | compare | dec | wiring | lowering | roles | host addrs | verdict | global | "
      "round | states | cex steps |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::map<std::string, const MatrixRow*> first_of_kind;  // one counterexample per hypothesis combination
  for (const MatrixRow& r : rows) {
    out += "| " + topo_name(r.topo) + " | " + (r.topo.host_cc ? "on" : "off") + " | " + std::to_string(r.topo.rounds) +
           " | " + std::string(name(r.hyp.compare)) + " | " + std::string(name(r.hyp.dec)) + " | " +
           std::string(name(r.topo.wiring)) + " | " + std::string(name(r.topo.lowering)) + " | " +
           std::string(name(r.hyp.roles)) + " | " + std::string(name(r.hyp.host_addrs)) + " | " +
           std::string(verdict_name(r.verdict)) + " | " + (r.global_holds ? "holds" : "broken") + " | " +
           (r.broke_in_round ? std::to_string(r.broke_in_round) : "") + " | " + std::to_string(r.states) + " | " +
           (r.cex_steps ? std::to_string(r.cex_steps) : "") + " |\n";
    if (!r.counterexample.empty()) {
      const std::string key = std::string(verdict_name(r.verdict)) + " " + describe(Topology{1, 1, r.topo.fabric, r.topo.host_cc, 1, r.topo.wiring, r.topo.lowering}, r.hyp);
      const auto it = first_of_kind.find(key);
      if (it == first_of_kind.end() || it->second->cex_steps > r.cex_steps) first_of_kind[key] = &r;
    }
  }
  out += "\n## Shortest counterexample per failing combination\n";
  for (const auto& [key, r] : first_of_kind) {
    out += "\n### " + describe(r->topo, r->hyp) + "\n\n```\n" + r->counterexample + "```\n";
  }
  return out;
}

std::string matrix_json(const std::vector<MatrixRow>& rows) {
  nlohmann::ordered_json arr = nlohmann::ordered_json::array();
  for (const MatrixRow& r : rows) {
    nlohmann::ordered_json j;
    j["chips"] = r.topo.chips;
    j["leaders"] = r.topo.leaders;
    j["fabric"] = fabric_name(r.topo.fabric);
    j["host_cc"] = r.topo.host_cc;
    j["rounds"] = r.topo.rounds;
    j["compare"] = name(r.hyp.compare);
    j["dec"] = name(r.hyp.dec);
    j["wiring"] = name(r.topo.wiring);
    j["lowering"] = name(r.topo.lowering);
    j["roles"] = name(r.hyp.roles);
    j["host_addrs"] = name(r.hyp.host_addrs);
    j["verdict"] = verdict_name(r.verdict);
    j["global_property_holds"] = r.global_holds;
    if (r.broke_in_round) j["broke_in_round"] = r.broke_in_round;
    j["states"] = r.states;
    j["seconds"] = r.seconds;
    if (!r.counterexample.empty()) j["counterexample"] = r.counterexample;
    arr.push_back(std::move(j));
  }
  return arr.dump(2) + "\n";
}

}  // namespace neffbar::model
