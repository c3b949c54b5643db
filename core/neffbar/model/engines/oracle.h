// The static oracle (core/neffbar/model/README.md): a second opinion that counts signals against
// thresholds instead of enumerating interleavings.  It applies to confluent systems:
// every semaphore is decreased by at most one process, nobody waits with an equality,
// and no value can leave int32 (the acyclic `table` lowering and the composed
// handshakes are such systems) with one ARRIVE and one DEPART per process and round,
// every round below System::rounds.  There, executing any enabled instruction never
// disables another, so one greedy maximal run reaches the unique maximal progress:
//  - DEADLOCK      iff the greedy run stops with a process unfinished;
//  - NOT_REUSABLE  iff it finishes and initial + (sum of all effects) != initial;
//  - UNSAFE        iff, holding q just before its ARRIVE of round r and p just before
//                  its DEPART of round r, p still reaches that DEPART, for q in p's
//                  guarantee;
//  - GLOBAL_UNSAFE iff the same holds for a participant q outside the guarantee while
//                  every process of the guarantee has arrived.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "neffbar/model/system/system.h"

namespace neffbar::model {

// The failing kinds found (bits of Verdict), or nullopt when the system is not confluent.
std::optional<std::uint32_t> static_oracle(const System& sys);

bool oracle_applies(const System& sys);

// The greedy maximal run of a confluent system: process p never passes pc hold[p]
// (UINT32_MAX: free).  Returns the pcs reached; vals receives the final values.
std::vector<std::uint32_t> max_progress(const System& sys, const std::vector<std::uint32_t>& hold,
                                        std::vector<std::int32_t>& vals);

}  // namespace neffbar::model
