// Exhaustive and random-schedule checking of a System (SPEC §6 "Checker").
//
// State = the vector of program counters.  Programs are straight-line and every
// primitive's effect is fixed once it released, so the semaphore values are a
// function of the pcs (initial + prefix sums of effects): the visited set stores only
// pcs, 2 bytes per process.
//
// Reductions (each can be switched off, and tests compare against the unreduced search):
//  - Lipton (reduce): a process's run  R* [N] L*  executes as one atomic step, where
//    R = a wait (wait_ge, wait_ge_and_dec) on a semaphore every other process only
//    increments (a right mover: it stays enabled whatever others do), L = an inc /
//    inc_val >= 0 on a semaphore nobody waits on with an equality (a left mover: it only
//    enables others), N = at most one other action (a marker, an equality wait, a wait on
//    a semaphore others also decrement).  ARRIVE/DEPART are N, so every violation of
//    the arrival order stays visible; deadlocks and final values are preserved.
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

#include "neffbar/model/system.h"

namespace neffbar::model {

enum class Verdict : std::uint8_t { Ok, Deadlock, Unsafe, GlobalUnsafe, NotReusable, Overflow, Budget };
std::string_view verdict_name(Verdict v);
constexpr std::uint32_t bit(Verdict v) { return 1u << static_cast<unsigned>(v); }

enum class GuaranteeMode : std::uint8_t {
  Global,    // GLOBAL_UNSAFE fails the check
  Declared,  // a broken global property is a finding only
};

struct CheckOptions {
  bool reduce = true;
  bool por = true;
  bool symmetry = true;
  GuaranteeMode guarantee = GuaranteeMode::Global;
  std::uint64_t max_states = 30'000'000;
  double max_seconds = 300;
  bool collect_all = false;  // explore everything, collecting every failing kind (found_mask)
  std::function<void(std::uint64_t states, double seconds)> progress;  // every ~1 s
};

// One executed instruction of a counterexample.
struct TraceEntry {
  std::uint32_t step;  // atomic step number (1-based); several entries share one under Lipton
  std::uint32_t proc;
  std::uint32_t pc;
  std::int64_t before = 0, after = 0;  // value of the touched semaphore (ops only)
};

struct Counterexample {
  Verdict kind = Verdict::Ok;
  std::string what;                // the violation in one line
  std::vector<TraceEntry> trace;   // from the initial state to the violation
  std::vector<std::int32_t> final_values;
};

struct CheckResult {
  Verdict verdict = Verdict::Ok;
  std::optional<Counterexample> cex;             // for a failing verdict
  std::optional<Counterexample> global_finding;  // global property broken (always reported)
  std::uint32_t found_mask = 0;                  // every kind seen (collect_all)
  std::uint64_t states = 0, transitions = 0;
  double seconds = 0;
  bool exhaustive = true;
  bool symmetry_used = false;
  std::uint64_t symmetry_group = 1;  // size of the verified symmetry group (the upper bound of its reduction)
  bool por_used = false;
  std::uint64_t runs = 0;  // random mode
  std::string note;
};

CheckResult check(const System& sys, const CheckOptions& opt = {});

// Random schedules, PCT style: random distinct priorities, `depth`-1 priority-change
// points per run; the highest-priority enabled process runs.  Finds bugs, proves nothing.
CheckResult random_check(const System& sys, std::uint64_t runs, std::uint64_t seed, std::uint32_t depth = 3,
                         GuaranteeMode mode = GuaranteeMode::Global, double max_seconds = 300);

// Replays a counterexample from the initial state: true when it reaches its violation.
bool replay(const System& sys, const Counterexample& cex);

// Numbered steps: "  3. c0.l1: wait_ge_and_dec(c0.l1#8 >= 1, -1) [...]   c0.l1#8: 1 -> 0"
std::string format_counterexample(const System& sys, const Counterexample& cex);

}  // namespace neffbar::model
