// The persistent-system engine: exact verdicts from greedy runs instead of an
// enumeration of interleavings.  Written down in full in core/neffbar/model/README.md
// ("The persistent engine"); in short:
//
// A system QUALIFIES (is persistent) when
//   (a) every semaphore is waited on or decreased by at most one process,
//   (b) nobody waits for equality (wait_eq_and_inc, wait_eq_and_clear), and
//   (c) no value can leave int32 (the sum of all increments / decrements of each
//       semaphore, from its initial value, stays inside int32).
// Then every other process only increases the semaphores a process waits on, so an
// enabled instruction stays enabled whatever the others do: any two runs can be
// completed to the same state (confluence), and every run is a prefix, up to the order
// of independent steps, of one maximal run.  Hence, with "T_H" the unique terminal
// state of the system in which the processes named in H are held before given pcs:
//  - DEADLOCK      iff T (nobody held) has an unfinished process;
//  - NOT_REUSABLE  iff T has everybody finished and a value not at its initial value;
//  - UNSAFE        iff for some round r and process q, in T_{q held at its ARRIVE(r)}
//                  some p with q in its guarantee is past its DEPART(r);
//  - GLOBAL_UNSAFE iff the same holds for a participant q outside p's guarantee while
//                  every member of the guarantee has arrived (when no UNSAFE exists this
//                  is automatic; otherwise a run that also holds p at DEPART decides it);
//  - OVERFLOW      never: (c) excludes it.
// One held run per (q, round) answers for every p at once.  Runs start from the state
// at the round boundary (every process held at its first instruction of round r), not
// from the initial state.  When the programs repeat round after round and one round
// returns every semaphore to its initial value, round r's held runs are round 0's
// shifted, as long as round 0's held runs executed nothing beyond round M: only round 0
// and the last M rounds are run.  The argument stops holding exactly where (a)-(c) fail,
// and qualify() refuses such a system, naming the semaphore and the processes.
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
struct PersistentOptions : CommonOptions {
  std::uint64_t max_instructions = 2'000'000'000;  // over all greedy runs
};

// The exact verdict of a persistent system, with `broke_in_round` when the programs are
// laid out round after round, and a concrete counterexample that replay() accepts (a
// greedy run cut down to the instructions the violation depends on; not necessarily a
// shortest one).  A system that does not qualify is refused with the reason, never
// answered.  The result says BUDGET (not exact) if a budget ran out.
Result<CheckResult> check_persistent(const System& sys, const PersistentOptions& opt = {});

}  // namespace neffbar::model
