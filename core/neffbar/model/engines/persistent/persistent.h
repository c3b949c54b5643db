// The persistent-system engine: exact verdicts from greedy runs instead of an
// enumeration of interleavings, for the systems that QUALIFY (are persistent): every
// semaphore waited on or decreased by at most one process, no wait for equality, no
// value that can leave int32.  qualify() says whether a system does, naming the
// semaphore and the processes where it does not; why the verdicts are then exact (one
// held run per process and round, and which rounds need running) is argued in
// core/neffbar/model/README.md, "The persistent engine".
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "neffbar/error.h"
#include "neffbar/model/engines/common/common_options.h"
#include "neffbar/model/system/system.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::model {

struct Qualification {
  bool ok = false;
  std::string reason;  // why not: "semaphore c0.l1#8 is waited on or decreased by c0.l0 and c0.l2"
};
// Whether the persistent engine may answer for `sys`, and if not, why.
Qualification qualify(const System& sys);

// The common options (progress in instructions) and an instruction budget.
// The instruction budget over all greedy runs: the default of PersistentOptions and of
// EngineOptions.
inline constexpr std::uint64_t kMaxInstructions = 2'000'000'000;

struct PersistentOptions : CommonOptions {
  std::uint64_t max_instructions = kMaxInstructions;
};

// The exact verdict of a persistent system, with `broke_in_round` when the programs are
// laid out round after round, and a concrete counterexample that replay() accepts (a
// greedy run cut down to the instructions the violation depends on; not necessarily a
// shortest one).  A system that does not qualify is refused with the reason, never
// answered.  The result says BUDGET (not exact) if a budget ran out.
Result<CheckResult> check_persistent(const System& sys, const PersistentOptions& opt = {});

}  // namespace neffbar::model
