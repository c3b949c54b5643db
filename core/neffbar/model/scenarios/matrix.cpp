#include "neffbar/model/scenarios/matrix.h"

#include <array>
#include <map>

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

}  // namespace

std::string topo_name(const Topology& t) {
  return std::to_string(t.chips) + "x" + std::to_string(t.leaders) + " " + std::string(fabric_name(t.fabric));
}

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
                    s.run.check.max_seconds = 60;
                    s.run.engine = Engine::Explicit;  // the matrix shows shortest counterexamples
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

Result<MatrixRow> matrix_row(const Scenario& s, bool keep) {
  const Result<ScenarioResult> r = run_scenario(s);
  if (!r) return r.error();
  MatrixRow row;
  row.topo = s.topo;
  row.hyp = s.hyp;
  row.verdict = r->result.verdict;
  row.global = r->result.global;
  row.stats = r->result.stats;
  row.seconds = r->result.seconds;
  row.broke_in_round = r->result.broke_in_round;
  row.engine = r->result.engine;
  row.exact = r->result.exact();
  if (r->result.cex) {
    row.counterexample = format_counterexample(r->system, *r->result.cex);
    row.cex_steps = r->result.cex->trace.size();
    if (keep) {
      row.cex = r->result.cex;
      row.system = std::make_shared<const System>(r->system);
    }
  }
  return row;
}

std::vector<Scenario> full_scenarios() {
  std::vector<Scenario> all;
  auto add = [&](std::uint32_t C, std::uint32_t L, Fabric f, bool hcc, std::uint32_t rounds, Wiring w, Lowering low) {
    Scenario s;
    s.topo = Topology{C, L, f, hcc, rounds, w, low};
    s.run.check.max_seconds = 60;
    all.push_back(s);
    if (w == Wiring::Counting) {  // C5: counting is meant for dec = target; dec = 1 leaves residues
      s.hyp.dec = DecMode::Target;
      all.push_back(s);
    }
  };
  for (Lowering low : {Lowering::Table, Lowering::ArriveWait, Lowering::Hierarchical}) {
    for (Fabric f : {Fabric::Default, Fabric::Switch}) {
      for (Wiring w : {Wiring::PerPeer, Wiring::Counting}) {
        for (bool hcc : {true, false}) {
          for (std::uint32_t L = kLeaderRange.lo; L <= kLeaderRange.hi; ++L) {
            for (std::uint32_t C = kChipRange.lo; C <= kChipRange.hi; ++C) add(C, L, f, hcc, 1, w, low);
          }
        }
      }
    }
  }
  for (std::uint32_t rounds : {2u, kRoundRange.hi}) {
    for (Lowering low : {Lowering::Table, Lowering::ArriveWait, Lowering::Hierarchical}) {
      for (bool hcc : {true, false}) {
        for (std::uint32_t C : {2u, 16u, kChipRange.hi}) {
          for (std::uint32_t L : {1u, kLeaderRange.hi}) add(C, L, Fabric::Default, hcc, rounds, Wiring::PerPeer, low);
        }
      }
    }
  }
  return all;
}

std::vector<MatrixRow> run_matrix(const MatrixOptions& opt) {
  const std::vector<Scenario> all = opt.full ? full_scenarios() : matrix_scenarios(opt.small);
  std::vector<MatrixRow> rows;
  rows.reserve(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    Result<MatrixRow> row = matrix_row(all[i], opt.keep_counterexamples);
    if (!row) {  // cannot happen: the reference topologies are in range; never report it as OK
      MatrixRow none;
      none.topo = all[i].topo;
      none.hyp = all[i].hyp;
      none.verdict = Verdict::Budget;
      none.global = GlobalStatus::Unknown;
      rows.push_back(std::move(none));
    } else {
      rows.push_back(std::move(*row));
    }
    if (opt.progress) opt.progress(i + 1, all.size());
  }
  return rows;
}

}  // namespace neffbar::model
