// Choosing the engine that decides a system: the one dispatcher the CLI, the scenario
// runner, the hypothesis matrix and the fuzz targets go through, and the one table of
// what each engine is (kEngines in engine.cpp: engine_info()).
//  - persistent (persistent/persistent.h): exact, from greedy runs, for systems that qualify;
//  - explicit (explicit/search.h): exhaustive search with reductions, within a state budget;
//  - random (random/random_schedules.h): PCT schedules; finds failures, proves nothing;
//  - auto: persistent when the system qualifies, else explicit.
// An engine's options are rows of kEngineOptions (engine_options.h), each naming the
// engines that read it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

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

// One engine: how it runs and what its answers are.
struct EngineInfo {
  Engine engine;
  std::string_view summary;     // what it does, for `neffbar engines`
  std::string_view counterexample;  // what its counterexamples are
  CheckResult (*run)(const System&, const EngineOptions&);
  bool qualified_only;          // answers only the systems that qualify (qualify(); else a refusal naming why)
  bool proves;                  // an uncut OK is exact (random schedules: never; their OK is "not refuted")
  bool rechecks_rounds;         // broke-in-round is measured by re-checking fewer rounds (the others: their own run, or not)
  std::string_view exact_text;  // the "engine:" line of an exact answer (of every answer, for one that never proves)
  std::string_view unfinished;  // what a cut leaves unfinished, for the "engine:" line
  std::string_view runs;        // what one run is (RunStats::runs), "" for an engine that counts states
  EngineStats (*empty)();       // its statistics type, empty
};

// The row of engine `e` (Auto: the explicit search's, until it has chosen).
const EngineInfo& engine_info(Engine e);

// Every engine's row, in the order `neffbar engines` lists them.
std::span<const EngineInfo> engines();

// The engine that runs when `asked` is: itself, or for auto the persistent engine where
// the system qualifies (`q`), else the explicit search.
Engine chosen_engine(Engine asked, const Qualification& q);

// Engine `e`'s statistics, empty.
EngineStats empty_stats(Engine e);

// The verdict of the chosen engine.  result.engine names it and result.exact() says
// whether the verdict is exact; result.not_persistent says why the system does not
// qualify for the persistent engine (empty when it does), whichever engine ran.  Asking
// for an engine that answers only qualifying systems on one that does not is an error
// naming the semaphore and the processes.
Result<CheckResult> decide(const System& sys, const EngineOptions& opt);

// That refusal: engine `e`, one that answers only the systems that qualify (qualify():
// a persistent system), asked for by name on one that does not.
Error unqualified(Engine e, const Qualification& q);

std::optional<Engine> parse_engine(std::string_view name);

}  // namespace neffbar::model
