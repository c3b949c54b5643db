// One checked scenario: topology + hypotheses -> compose -> lower -> check.  The CLI,
// the hypothesis matrix, the properties and the fuzz targets all go through here.
#pragma once

#include <string>

#include "neffbar/model/checker.h"
#include "neffbar/model/lowering.h"

namespace neffbar::model {

struct Scenario {
  Topology topo;
  Hypotheses hyp;
  CheckOptions opt;
  std::uint64_t random_runs = 0;  // > 0: random-schedule mode instead of exhaustive
  std::uint64_t seed = 1;
};

struct ScenarioResult {
  System system;
  CheckResult result;
  std::uint32_t broke_in_round = 0;  // failing verdict: the smallest round count that already fails
};

Result<ScenarioResult> run_scenario(const Scenario& s);

// A stable one-line description: "2x4 default host-cc rounds=2 ge dec=one per_peer table code ctx"
std::string describe(const Topology& t, const Hypotheses& h);

}  // namespace neffbar::model
