// A reference checker written to be obviously right, for differential tests only:
// breadth-first search over full states (every pc and every value), one instruction a
// step, no reductions, no prefix sums, nothing shared with the engines but System and
// the semaphore machine's apply().
//
// The semantics it states (and the engines must match):
//  - ARRIVE and DEPART always step.  At a DEPART of round r by p: if some q != p of p's
//    guarantee has not passed its last ARRIVE of round r (rounds >= System::rounds are
//    never arrived), that is UNSAFE; otherwise, if some participant q != p has not,
//    that is GLOBAL_UNSAFE.  Either way the run goes on.
//  - A primitive steps when apply() says Done; Blocked is no step; Overflow is an
//    OVERFLOW (the instruction fails: no successor, but it is not blocked).
//  - A state where nothing can step (nothing Done or Overflow) is DEADLOCK if some
//    process is unfinished, NOT_REUSABLE if all are finished and a value is off its
//    initial value.
//  - The global barrier property (GlobalStatus): broken iff some reachable DEPART of p
//    steps while a participant q != p has not arrived (in p's guarantee or not); not
//    reached iff no DEPART ever steps; else it holds.
//  - `broke in round` of a system whose programs run round after round (rounds never
//    decrease along a program and stay below System::rounds): the smallest k whose
//    k-round system (every program cut before its first instruction of round k) fails.
#pragma once

#include "testing/testing_only.h"

#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "testing/program_ops.h"
#include "neffbar/model/system/system.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::testing {

struct ReferenceResult {
  std::uint32_t found_mask = 0;  // bits of model::Verdict
  std::uint64_t states = 0;
  bool complete = true;          // false: the state budget ran out
  bool any_depart = false;       // some DEPART steps
  bool global_broken = false;    // some DEPART steps before a participant arrived
  [[nodiscard]] model::GlobalStatus global() const {
    return global_broken ? model::GlobalStatus::Broken
           : any_depart  ? model::GlobalStatus::Holds
                         : model::GlobalStatus::NotReached;
  }
};

// One function of ~90 lines on purpose: the reference is read as a whole against the
// README's definitions (one breadth-first loop, every rule inline where it applies),
// and splitting it would add the helper boundaries a reviewer must check it through.
inline ReferenceResult reference_check(const model::System& sys, std::uint64_t max_states = 200'000) {
  using model::Marker;
  using model::Verdict;
  constexpr std::uint32_t kNever = std::numeric_limits<std::uint32_t>::max();
  const std::size_t P = sys.procs.size();
  // last_arrive[q][r]: the pc of q's last ARRIVE of round r.  The same definition as
  // model::Arrivals, written again on purpose: the reference shares nothing with the
  // engines, so a slip in one shows up as a disagreement.
  std::vector<std::vector<std::uint32_t>> last_arrive(P, std::vector<std::uint32_t>(sys.rounds, kNever));
  for (std::size_t q = 0; q < P; ++q) {
    for (std::uint32_t pc = 0; pc < sys.procs[q].program.size(); ++pc) {
      const model::Instr& in = sys.procs[q].program[pc];
      if (in.marker == Marker::Arrive && in.round < sys.rounds) last_arrive[q][in.round] = pc;
    }
  }
  struct State {
    std::vector<std::uint32_t> pcs;
    std::vector<std::int32_t> vals;
    bool operator<(const State& o) const { return std::tie(pcs, vals) < std::tie(o.pcs, o.vals); }
  };
  State init{std::vector<std::uint32_t>(P, 0), {}};
  for (const model::Semaphore& s : sys.semas) init.vals.push_back(s.initial);
  std::set<State> seen{init};
  std::deque<State> todo{init};
  ReferenceResult out;
  const auto found = [&](Verdict v) { out.found_mask |= model::bit(v); };
  while (!todo.empty()) {
    if (seen.size() > max_states) {
      out.complete = false;
      break;
    }
    const State st = std::move(todo.front());
    todo.pop_front();
    const auto arrived = [&](std::uint32_t q, std::uint32_t r) {
      return r < sys.rounds && last_arrive[q][r] != kNever && st.pcs[q] > last_arrive[q][r];
    };
    bool stepped = false, unfinished = false;
    for (std::uint32_t p = 0; p < P; ++p) {
      const auto& prog = sys.procs[p].program;
      if (st.pcs[p] >= prog.size()) continue;
      unfinished = true;
      const model::Instr& in = prog[st.pcs[p]];
      State next = st;
      ++next.pcs[p];
      if (in.marker == Marker::Depart) {
        out.any_depart = true;
        for (std::uint32_t q = 0; q < P; ++q) {
          out.global_broken = out.global_broken || (q != p && sys.procs[q].participant && !arrived(q, in.round));
        }
        bool unsafe = false;
        for (std::uint32_t q : sys.procs[p].guarantee) unsafe = unsafe || (q != p && q < P && !arrived(q, in.round));
        if (unsafe) {
          found(Verdict::Unsafe);
        } else {
          for (std::uint32_t q = 0; q < P; ++q) {
            if (q != p && sys.procs[q].participant && !arrived(q, in.round)) {
              found(Verdict::GlobalUnsafe);
              break;
            }
          }
        }
      } else if (in.marker == Marker::None) {
        const Outcome o = apply(next.vals, in.op, sys.compare);
        if (o == Outcome::Blocked) continue;
        if (o == Outcome::Overflow) {
          found(Verdict::Overflow);
          stepped = true;
          continue;
        }
      }
      stepped = true;
      if (seen.insert(next).second) todo.push_back(std::move(next));
    }
    if (!stepped && unfinished) found(Verdict::Deadlock);
    if (!unfinished) {
      for (std::size_t s = 0; s < st.vals.size(); ++s) {
        if (st.vals[s] != sys.semas[s].initial) {
          found(Verdict::NotReusable);
          break;
        }
      }
    }
  }
  out.states = seen.size();
  return out;
}

// The failing verdicts under a guarantee mode (GLOBAL_UNSAFE fails only under Global).
inline std::uint32_t failing_mask(model::GuaranteeMode mode) {
  using model::Verdict;
  std::uint32_t m = model::bit(Verdict::Deadlock) | model::bit(Verdict::Unsafe) | model::bit(Verdict::NotReusable) |
                    model::bit(Verdict::Overflow);
  return mode == model::GuaranteeMode::Global ? m | model::bit(Verdict::GlobalUnsafe) : m;
}

// Whether the programs run round after round (what `broke in round` is defined for).
inline bool round_structured(const model::System& sys) {
  for (const model::Process& pr : sys.procs) {
    std::uint32_t prev = 0;
    for (const model::Instr& in : pr.program) {
      if (in.round < prev || in.round >= sys.rounds) return false;
      prev = in.round;
    }
  }
  return true;
}

// The k-round system: every program cut before its first instruction of round k.
inline model::System first_rounds(const model::System& sys, std::uint32_t k) {
  model::System out = sys;
  out.rounds = k;
  for (model::Process& pr : out.procs) {
    std::size_t n = 0;
    while (n < pr.program.size() && pr.program[n].round < k) ++n;
    pr.program = model::truncated(pr.program, n);
  }
  return out;
}

// The smallest round count whose system already fails under `mode`; 0 when the system
// is not round-structured, does not fail, or a budget ran out.
inline std::uint32_t reference_broke_in_round(const model::System& sys, model::GuaranteeMode mode,
                                              std::uint64_t max_states = 200'000) {
  if (!round_structured(sys)) return 0;
  for (std::uint32_t k = 1; k <= sys.rounds; ++k) {
    const ReferenceResult r = reference_check(first_rounds(sys, k), max_states);
    if (!r.complete) return 0;
    if (r.found_mask & failing_mask(mode)) return k;
  }
  return 0;
}

}  // namespace neffbar::testing
