// Export of a System as a Promela model for SPIN, to cross-check the engines.
// Same semantics as the reference checker (core/testing/reference_checker.h):
//  - semaphores are 32-bit ints with the same compare; each primitive is one atomic
//    Promela statement (neffbar's unreduced semantics);
//  - a primitive whose result would leave int32 does not step: it loops on itself
//    (so the state is not a deadlock) and, with `overflow`, fails an assertion;
//  - q has arrived in round r once it passed its last ARRIVE of round r (a flag per
//    process and round); a DEPART of round r asserts that for every q != p of p's
//    guarantee (`guarantees`) and, with `global`, for every participant q != p when
//    the guarantee held (GLOBAL_UNSAFE is only reported where UNSAFE is not);
//  - processes end at a valid end state; a monitor asserts every semaphore is back at
//    its initial value once every process finished (`reuse`).
// One kind of assertion per model tells the verdict kinds apart: run pan -E
// (assertions only) on each, and pan -A (invalid end states: DEADLOCK) on any.
#pragma once

#include <string>

#include "neffbar/error.h"
#include "neffbar/model/system/system.h"

namespace neffbar::model {

struct PromelaChecks {
  bool guarantees = true;  // UNSAFE
  bool global = false;     // GLOBAL_UNSAFE
  bool reuse = true;       // NOT_REUSABLE
  bool overflow = true;    // OVERFLOW
};

// What SPIN 6 cannot run, checked before exporting: it runs at most 255 processes,
// init and the reuse monitor included (pan's pid is a byte: a 256th `run` fails with
// "too many processes", and from 257 proctypes on spin -a emits a pan that silently
// checks nothing).  The model has one proctype per process plus the two, so a system
// of more than kSpinMaxProcesses - 2 processes is refused, naming the count.
inline constexpr std::size_t kSpinMaxProcesses = 255;
Status spin_limits(const System& sys);

// How many times the model loops over each process's round body: R when every program
// is the same count R > 1 of runs of its body, each the same number of rounds, and they
// make up the system's rounds (a lowered system); else 1, each program written out.
std::uint32_t promela_loop_runs(const System& sys);

// The model (call spin_limits first: beyond them the text is no model SPIN can run).
// Counters get a type that holds every value they reach (`finished` counts to P).
std::string to_promela(const System& sys, const PromelaChecks& checks);
inline std::string to_promela(const System& sys, bool global_property) {
  return to_promela(sys, PromelaChecks{.global = global_property});
}

}  // namespace neffbar::model
