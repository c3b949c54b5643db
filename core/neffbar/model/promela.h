// Export of a System as a Promela model for SPIN (issue: cross-check the checker).
// Semaphores are ints with the same compare / decrement semantics; each instruction is
// one atomic Promela statement (neffbar's unreduced semantics); processes end at a
// valid end state; DEPART asserts each process's guarantee (and, with `global`, the
// global barrier property); a monitor asserts that every semaphore is back at its
// initial value once every process finished (reuse).  Run the safety job (pan -E:
// assertions only) and the deadlock job (pan -A: invalid end states only) separately.
#pragma once

#include <string>

#include "neffbar/model/system.h"

namespace neffbar::model {

std::string to_promela(const System& sys, bool global_property);

}  // namespace neffbar::model
