// The random engine: PCT-style random schedules of a System (core/neffbar/model/README.md).
// Finds failures, proves nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "neffbar/model/engines/common/common_options.h"
#include "neffbar/model/system/system.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::model {

// What a PCT priority-change point does to the process that just ran: `Lower` (below
// every initial priority) is PCT.  `Keep` changes nothing, a broken scheduler that the
// detection-rate test (core/tests/model/random_schedules_test.cpp) must catch.
enum class PctChange : std::uint8_t { Lower, Keep };

// PCT's bug depth d the schedules aim at (d - 1 change points a run): the default of
// check_random and of EngineOptions.
inline constexpr std::uint32_t kPctDepth = 3;

// A schedule of this many instructions or more is long: the note says how long a whole
// one takes, at the rate measured (a schedule is a single run, not interruptible but by
// the time budget).
inline constexpr std::size_t kLongSchedule = std::size_t{1} << 20;

// Random schedules, PCT style: random distinct priorities, `depth`-1 priority-change
// points per run; the highest-priority enabled process runs.  Finds bugs, proves nothing.
// The time budget (opt.max_seconds, opt.clock) holds inside a schedule too; progress
// reports instructions every ~1 s, and a schedule cut by the budget says how long a
// whole one would take.  opt.collect_all has no meaning here: a sample decides no kind.
CheckResult check_random(const System& sys, std::uint64_t runs, std::uint64_t seed, std::uint32_t depth = kPctDepth,
                         const CommonOptions& opt = {}, PctChange change_points = PctChange::Lower);

}  // namespace neffbar::model
