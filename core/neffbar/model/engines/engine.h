// Choosing the engine that decides a system: the one dispatcher the CLI, the scenario
// runner, the hypothesis matrix and the fuzz targets go through.
//  - persistent (persistent/persistent.h): exact, from greedy runs, for systems that qualify;
//  - explicit (explicit/search.h): exhaustive search with reductions, within a state budget;
//  - random (random/random_schedules.h): PCT schedules; finds failures, proves nothing;
//  - auto: persistent when the system qualifies, else explicit.
#pragma once

#include <cstdint>

#include "neffbar/error.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/engines/random/random_schedules.h"
#include "neffbar/model/engines/persistent/persistent.h"

namespace neffbar::model {

struct EngineOptions {
  Engine engine = Engine::Auto;
  CheckOptions check;  // guarantee, collect_all, budgets, progress (all engines); reductions (explicit)
  std::uint64_t random_runs = 100;
  std::uint64_t seed = 1;
  std::uint32_t depth = kPctDepth;
  std::uint64_t max_instructions = kMaxInstructions;  // persistent engine
};

// The verdict of the chosen engine.  result.engine names it and result.exact() says
// whether the verdict is exact; result.not_persistent says why the system does not
// qualify for the persistent engine (empty when it does), whichever engine ran.  Asking for the persistent engine on a system
// that does not qualify is an error naming the semaphore and the processes.
Result<CheckResult> decide(const System& sys, const EngineOptions& opt);

// That refusal: the persistent engine asked for by name on a system that does not qualify.
Error persistent_refusal(const Qualification& q);

std::optional<Engine> parse_engine(std::string_view name);

}  // namespace neffbar::model
