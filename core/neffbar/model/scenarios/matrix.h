// The hypothesis matrix (the conflicts C1–C7 of core/neffbar/README.md): the reference topologies under every combination of
// the model's open choices, with the verdict, whether the global barrier property
// holds, and the shortest counterexample of each failure.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "neffbar/model/scenarios/scenario.h"

namespace neffbar::model {

struct MatrixRow {
  Topology topo;
  Hypotheses hyp;
  Verdict verdict = Verdict::Ok;
  GlobalStatus global = GlobalStatus::Holds;
  EngineStats stats;  // the deciding engine's
  double seconds = 0;
  std::uint32_t broke_in_round = 0;
  Engine engine = Engine::Explicit;
  bool exact = true;
  std::string counterexample;  // formatted, empty when OK
  std::size_t cex_steps = 0;
  // The counterexample and its system, kept only with MatrixOptions::keep_counterexamples
  // (the matrix's page draws each as a chart).
  std::shared_ptr<const System> system;
  std::optional<Counterexample> cex;
  // The JSON's global_property_holds: exactly the global line's "holds" (read off it, so
  // the two cannot disagree).
  [[nodiscard]] bool global_holds() const { return global == GlobalStatus::Holds; }
};

struct MatrixOptions {
  bool small = false;  // only 1x4 and 2x2 (tests)
  bool full = false;   // the full-scale table (full_scenarios) instead of the reference topologies
  bool keep_counterexamples = false;  // each failing row keeps its system and counterexample
  std::function<void(std::size_t done, std::size_t total)> progress;
};

// The reference topologies: 1x4 default, 2x4 default, 2x2 switch, 4x4 default.
std::vector<std::pair<std::uint32_t, std::uint32_t>> reference_topologies(bool small);

// "2x4 default": a topology as the tables name it.
std::string topo_name(const Topology& t);

// Every scenario of the matrix, in the order of its rows (1536; 768 with `small`).
std::vector<Scenario> matrix_scenarios(bool small);
// One row: the scenario checked, with its shortest counterexample formatted (and kept
// with its system when `keep`); the composer's error for a topology out of range.
Result<MatrixRow> matrix_row(const Scenario& s, bool keep = false);

// The full-scale table: every chips 1..64 x leaders 1..4 x fabric x host-CC x lowering
// x wiring at 1 round, under the default reading of the other hypotheses (ge, dec one,
// code roles, ctx addresses), then a rounds sample (2 and 1000 rounds on 2, 16 and 64
// chips).  Decided by auto: exact wherever the system is persistent (all of them today).
std::vector<Scenario> full_scenarios();

std::vector<MatrixRow> run_matrix(const MatrixOptions& opt = {});

}  // namespace neffbar::model
