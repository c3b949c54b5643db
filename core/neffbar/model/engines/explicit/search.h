// The explicit engine: exhaustive search of a System with reductions (core/neffbar/model/README.md).
//
// State = the vector of program counters.  Programs are straight-line and every
// primitive's effect is fixed once it released, so the semaphore values are a
// function of the pcs (initial + prefix sums of effects): the visited set stores only
// pcs, 2 bytes per process.
//
// Reductions (each can be switched off, and tests compare against the unreduced search):
//  - Lipton (reduce): a process's run  R* [N] L*  executes as one atomic step, where
//    R = a wait (wait_ge, wait_ge_and_dec) on a semaphore every other process only
//    increments and, if it decrements, nobody else waits on (a right mover: it stays
//    enabled whatever others do and disables nobody), L = an inc / inc_val >= 0 on a
//    semaphore nobody waits on with an equality (a left mover: it only enables others),
//    N = at most one other action (a marker, an equality wait, a wait on a semaphore
//    others also decrement or read).  An action on a semaphore that could leave int32
//    can fail, so it is never a mover.  ARRIVE/DEPART are N, so every violation of the
//    arrival order stays visible; deadlocks and final values are preserved.
//  - Partial order (por, with reduce): where some process's next block has no marker
//    and only movers (the host's and the proxies' blocks), that block alone is
//    expanded: it commutes with every action of every other process (incs and decs on
//    a semaphore commute while no value can leave int32, which is checked up front),
//    and it is invisible to the arrival-order properties.  Deadlocks, final values and
//    every order of ARRIVE/DEPART are preserved.
//  - Symmetry (symmetry.h): states are canonicalised under leader renamings and chip
//    translations that are verified automorphisms of the system.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "neffbar/model/engines/common/budget.h"
#include "neffbar/model/engines/common/common_options.h"
#include "neffbar/model/system/counterexample.h"
#include "neffbar/model/engines/explicit/symmetry.h"
#include "neffbar/model/system/system.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::model {

// The explicit search's options: the common ones (guarantee, collect_all, the time
// budget, progress in states) and its reductions and state and memory budgets.
// Budgets (README "Budgets"): the search ends with BUDGET, or with the violation it
// already found, within a fraction of a second of max_seconds, at most max_states + 1
// states, and before its tables (visited set, parents, value tables) would pass
// max_memory bytes.  With collect_all it explores everything, so a search a budget ended
// is BUDGET even when it found a violation (its mask is incomplete); otherwise a
// violation found before the budget ran out is the verdict, not exhaustive.
struct CheckOptions : CommonOptions {
  bool reduce = true;
  bool por = true;
  bool symmetry = true;
  std::uint64_t max_states = 30'000'000;
  std::uint64_t max_memory = kDefaultMaxMemory;
  // The candidate symmetry from lower_with_hints(), the fast path; where there is none
  // or it does not check out, the symmetry is found from the system by `automorphisms`
  // (automorphisms.h; nullptr: none).
  SymmetryHints symmetry_hints;
  const AutomorphismFinder* automorphisms = default_automorphisms();
};

CheckResult check_explicit(const System& sys, const CheckOptions& opt = {});

}  // namespace neffbar::model
