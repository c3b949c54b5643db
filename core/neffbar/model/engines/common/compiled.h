// The explicit search's compiled system (shared with random schedules): per process its
// atomic blocks under the Lipton reduction, the semaphores it touches with the prefix
// sums of its effects (the search stores only pcs and derives the values), its ARRIVE
// pcs per round, and whether any value could leave int32.  Every table is held per
// round body: a pc's entry is its body position's, moved on by the runs of the body
// before it.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <vector>

#include "neffbar/hot_loop.h"
#include "neffbar/model/engines/common/atomic_blocks.h"
#include "neffbar/model/engines/common/budget.h"
#include "neffbar/model/system/system.h"

namespace neffbar::model::detail {

// The explicit search keeps, per process, its effect on every semaphore it touches
// after each pc; past this many entries (256 MiB) the system is too large for it.
inline constexpr std::size_t kMaxPrefixEntries = std::size_t{1} << 25;

// pc / n without a division in the search's inner loop: (pc * body_divisor(n)) >> 32,
// exact for every pc < 2^16 and n < 2^16 (pc * n < 2^32; compiled_test.cpp checks them).
constexpr std::uint64_t body_divisor(std::uint32_t n) { return n == 0 ? 0 : (std::uint64_t{1} << 32) / n + 1; }
constexpr std::uint32_t body_runs(std::uint32_t pc, std::uint64_t divisor) {
  return static_cast<std::uint32_t>((std::uint64_t{pc} * divisor) >> 32);
}

struct Compiled {
  const System& sys;
  std::uint32_t P = 0;
  std::vector<std::uint32_t> len;
  std::vector<AtomicBlocks> blocks;                    // [p]
  std::vector<std::vector<std::uint32_t>> touched;     // [p] -> semaphores p touches
  // [p][i*|touched|+k]: the body's effect sums after i of its n instructions (row n:
  // one whole run).  pc's sums are its body position's plus pc / n whole runs.
  std::vector<std::vector<std::int64_t>> prefix;
  std::vector<std::uint32_t> body_len;                 // [p] n
  std::vector<std::uint64_t> body_div;                 // [p] body_divisor(n)
  bool run_once = true;                                // every body is run once (no division)
  Arrivals arrivals;                                   // last ARRIVE per process and round
  bool overflow_possible = false;                      // some semaphore could leave int32
  std::vector<std::int32_t> init;
  std::vector<std::uint32_t> participants;

  std::size_t prefix_entries = 0;                      // size of the prefix tables (0 without them)

  // Random schedules need neither the prefix tables nor the blocks (prefix_sums and
  // blocks_wanted false).  The prefix tables are built only up to
  // max_prefix_entries (prefix_entries says how many they would have been), so a caller
  // with a memory budget refuses them before they are allocated.
  Compiled(const System& s, bool reduce, bool prefix_sums, bool blocks_wanted,
           std::size_t max_prefix_entries = kMaxPrefixEntries)
      : sys(s), P(static_cast<std::uint32_t>(s.procs.size())), arrivals(s) {
    for (const Semaphore& m : s.semas) init.push_back(m.initial);
    // Which processes decrease / equality-test each semaphore (for the mover tests).
    const std::size_t S = s.semas.size();
    std::vector<std::vector<std::uint32_t>> decreasers(S), eq_waiters(S), ge_waiters(S);
    for (std::uint32_t p = 0; p < P; ++p) {
      for (const Instr& in : s.procs[p].program.body()) {  // every run of a body touches the same
        if (in.marker != Marker::None) continue;
        const Prim k = in.op.prim;
        auto note = [p](std::vector<std::uint32_t>& v) {  // each process once (programs repeat per round)
          if (v.empty() || v.back() != p) v.push_back(p);
        };
        if (effect(in.op) < 0 || k == Prim::WaitEqAndClear) note(decreasers[in.op.sema]);
        if (k == Prim::WaitEqAndInc || k == Prim::WaitEqAndClear) note(eq_waiters[in.op.sema]);
        if (k == Prim::WaitGe || k == Prim::WaitGeAndDec) note(ge_waiters[in.op.sema]);
      }
    }
    // Bounds on every semaphore over all executions: the sum of all positive (negative)
    // effects.  An instruction on a semaphore that could leave int32 can fail (OVERFLOW)
    // and so is no mover: an atomic block that failed there would hide the states in
    // which its first instructions had run.
    const ValueBounds bounds = value_bounds(s);
    std::vector<std::uint8_t> may_overflow(S, 0);
    for (std::size_t i = 0; i < S; ++i) {
      may_overflow[i] = bounds.may_leave_int32(i);
      overflow_possible = overflow_possible || may_overflow[i];
    }
    auto only = [](const std::vector<std::uint32_t>& v, std::uint32_t p) {
      return std::all_of(v.begin(), v.end(), [p](std::uint32_t q) { return q == p; });
    };
    auto is_right = [&](std::uint32_t p, const Instr& in) {
      if (in.marker != Marker::None) return false;
      const Prim k = in.op.prim;
      // Stays enabled (nobody else decreases it) and disables nobody: a decrement must
      // not be able to block another process's wait on the same semaphore (a wait_ge of
      // another process).
      const bool decrements = effect(in.op) < 0;
      return (k == Prim::WaitGe || k == Prim::WaitGeAndDec) && only(decreasers[in.op.sema], p) &&
             eq_waiters[in.op.sema].empty() && !may_overflow[in.op.sema] &&
             (!decrements || only(ge_waiters[in.op.sema], p));
    };
    auto is_left = [&](std::uint32_t p, const Instr& in) {
      if (in.marker != Marker::None) return false;
      const Prim k = in.op.prim;
      return (k == Prim::Inc || (k == Prim::IncVal && in.op.value >= 0)) && only(eq_waiters[in.op.sema], p) &&
             !may_overflow[in.op.sema];
    };
    // The semaphores each process touches, and the size of the prefix tables over them:
    // refused before anything is allocated when too large.
    for (const Process& pr : s.procs) {
      std::vector<std::uint32_t> t;
      for (const Instr& in : pr.program.body()) {
        if (in.marker == Marker::None) t.push_back(in.op.sema);
      }
      std::sort(t.begin(), t.end());
      t.erase(std::unique(t.begin(), t.end()), t.end());
      prefix_entries += (pr.program.body().size() + 1) * t.size();
      touched.push_back(std::move(t));
    }
    const bool build_prefix = prefix_sums && prefix_entries <= std::min(kMaxPrefixEntries, max_prefix_entries);
    if (!prefix_sums) prefix_entries = 0;
    for (std::uint32_t p = 0; p < P; ++p) {
      const Program& prog = s.procs[p].program;
      len.push_back(static_cast<std::uint32_t>(prog.size()));
      if (s.procs[p].participant) participants.push_back(p);
      const std::vector<Instr>& body = prog.body();
      const auto n = static_cast<std::uint32_t>(body.size());
      body_len.push_back(n);
      run_once = run_once && n == prog.size();
      body_div.push_back(body_divisor(n));
      if (blocks_wanted) {
        blocks.emplace_back(
            prog, reduce, [&](const Instr& in) { return is_right(p, in); },
            [&](const Instr& in) { return is_left(p, in); });
      }
      const std::vector<std::uint32_t>& t = touched[p];
      std::vector<std::int64_t> pre(build_prefix ? (std::size_t{n} + 1) * t.size() : 0, 0);
      for (std::uint32_t i = 0; i < n && !pre.empty(); ++i) {
        std::copy_n(pre.begin() + i * t.size(), t.size(), pre.begin() + (i + 1) * t.size());
        if (body[i].marker != Marker::None) continue;
        const auto k = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), body[i].op.sema) - t.begin());
        pre[(i + 1) * t.size() + k] += effect(body[i].op);
      }
      prefix.push_back(std::move(pre));
    }
    // When no value can leave int32 no primitive can overflow, so incs and decs on one
    // semaphore commute and the partial-order reduction is exact (overflow_possible
    // switches it off).
  }

  NEFFBAR_HOT_LOOP void values(const std::uint16_t* pcs, std::vector<std::int32_t>& vals) const {
    thread_local std::vector<std::int64_t> acc;
    acc.assign(init.begin(), init.end());
    for (std::uint32_t p = 0; p < P && run_once; ++p) {  // every body run once: its row is the pc's
      const auto& t = touched[p];
      const std::int64_t* row = prefix[p].data() + std::size_t{pcs[p]} * t.size();
      for (std::size_t k = 0; k < t.size(); ++k) acc[t[k]] += row[k];
    }
    for (std::uint32_t p = 0; p < P && !run_once; ++p) {
      const auto& t = touched[p];
      const std::uint32_t runs = body_runs(pcs[p], body_div[p]);
      const std::int64_t* row = prefix[p].data() + std::size_t{pcs[p] - runs * body_len[p]} * t.size();
      const std::int64_t* run = prefix[p].data() + std::size_t{body_len[p]} * t.size();
      for (std::size_t k = 0; k < t.size(); ++k) acc[t[k]] += row[k] + std::int64_t{runs} * run[k];
    }
    vals.assign(acc.size(), 0);
    for (std::size_t i = 0; i < acc.size(); ++i) {
      vals[i] = static_cast<std::int32_t>(std::clamp<std::int64_t>(acc[i], INT32_MIN, INT32_MAX));
    }
  }

  template <class Pc>
  [[nodiscard]] bool arrived(const Pc* pcs, std::uint32_t q, std::uint32_t round) const {
    return arrivals.arrived(q, round, pcs[q]);
  }
};

}  // namespace neffbar::model::detail
