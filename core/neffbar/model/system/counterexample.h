// Counterexamples, engine-independent: the wording of each violation, the summaries of
// a blocked or finished state, replay from the initial state, and the numbered text.
// replay() re-executes a trace instruction by instruction with the semaphore machine
// alone (no compiled system, no reduction), so it checks every engine's output.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "neffbar/model/system/system.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::model {

// "c0.l1 departed round 0 before c1.l0 (in its guarantee) arrived"
std::string unsafe_what(const System& sys, std::uint32_t p, std::uint32_t round, std::uint32_t q);
// "c0.l1 departed round 0 before c1.l0 arrived (global barrier property)"
std::string global_what(const System& sys, std::uint32_t p, std::uint32_t round, std::uint32_t q);
// "no process can step: <each unfinished process at its instruction, with the value>"
std::string deadlock_what(const System& sys, std::span<const std::uint32_t> pcs, std::span<const std::int32_t> vals);
// "all processes finished but semaphores are not back to their initial values: ..."
std::string residue_what(const System& sys, std::span<const std::int32_t> vals);

// Replays a counterexample from the initial state, one instruction per entry: true when
// every entry is the next instruction of its process, in steps numbered 1, 2, ... (the
// entries of one atomic step share its number), enabled, and the run ends in the
// violation it claims (the DEPART, the overflow, the dead state or the residues).  A
// DEPART before the last entry is a step like any other: a run may pass an earlier
// violation on its way to the one it shows.
bool replay(const System& sys, const Counterexample& cex);

// Numbered steps: "  3. c0.l1: wait_ge_and_dec(c0.l1#8 >= 1, -1) [...]   c0.l1#8: 1 -> 0"
std::string format_counterexample(const System& sys, const Counterexample& cex);

}  // namespace neffbar::model
