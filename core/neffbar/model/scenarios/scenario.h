// One checked scenario: topology + hypotheses -> compose -> lower -> decide (engine.h).
// The CLI (check and check-configs), the hypothesis matrix, the properties and the
// fuzz targets all go through here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "neffbar/model/engines/engine.h"
#include "neffbar/model/frontend/lowering.h"

namespace neffbar::model {

struct Scenario {
  Topology topo;
  Hypotheses hyp;
  EngineOptions run;  // which engine decides it, with what options and budgets
  // Non-empty: these configs, one leader each (device barrier only, every leader in every
  // guarantee), under topo.fabric, topo.lowering and topo.rounds, instead of composing.
  std::vector<ConfigBytes> configs;
  // Given (compose's files, as a user may have changed them): lowered as it is under
  // hyp, at each round count checked, instead of composing topo.
  std::optional<Composition> composition;
};

// Where a scenario's time went, in seconds of the steady clock (a report, not a
// budget: the budget reads the command's clock).
struct ScenarioPhases {
  double compose_lower = 0;  // the topology composed and lowered to its system
  double decide = 0;         // the engine's decision
  double rechecks = 0;       // the re-checks of fewer rounds (broke-in-round), each composed, lowered and decided
};

struct ScenarioResult {
  System system;
  CheckResult result;  // result.broke_in_round: the smallest round count that already fails
  ScenarioPhases phases{};
};

// The system of the scenario with `rounds` rounds (with its symmetry hints when composed).
Result<Lowered> build_system(const Scenario& s, std::uint32_t rounds);
Result<ScenarioResult> run_scenario(const Scenario& s);

// A stable one-line title of a scenario: "2x4 default host-cc rounds=2 ge dec=one per_peer table ..."
// (an instruction is describe()d, system.h; a scenario is titled)
std::string scenario_title(const Topology& t, const Hypotheses& h);

}  // namespace neffbar::model
