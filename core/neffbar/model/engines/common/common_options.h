// What every engine takes, defined once: engine.h's decide() hands the same values to
// the explicit search (CheckOptions), the persistent engine (PersistentOptions) and the
// random schedules, each of which adds only its own knobs.
#pragma once

#include <cstdint>
#include <functional>

#include "neffbar/model/engines/common/budget.h"
#include "neffbar/model/engines/common/progress.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::model {

struct CommonOptions {
  GuaranteeMode guarantee = GuaranteeMode::Global;
  // Decide every failing kind (found_mask), not only the verdict.
  bool collect_all = false;
  double max_seconds = 300;  // README "Budgets": BUDGET within a fraction of a second of it
  SecondsClock clock;        // seconds since the command started (empty: since the engine started)
  std::int64_t poll_cadence = Deadline::kCadence;  // work units between clock reads (tests: 1)
  // Every ~1 s: the engine's work so far, in its own unit.
  std::function<void(const Progress&)> progress;
};

}  // namespace neffbar::model
