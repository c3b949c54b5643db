// Random schedules (checker.h): PCT priorities over single instructions.
#include <algorithm>
#include <numeric>
#include <random>

#include "neffbar/model/block.h"
#include "neffbar/model/checker.h"

namespace neffbar::model {

using namespace detail;

CheckResult random_check(const System& sys, std::uint64_t runs, std::uint64_t seed, std::uint32_t depth,
                         GuaranteeMode mode, double max_seconds, PctChange change_points) {
  const auto t0 = Clock::now();
  CheckResult res;
  res.engine = Engine::Random;
  res.exhaustive = false;
  const Compiled c(sys, false, false);
  std::mt19937_64 rng(seed);
  const std::size_t total = instruction_count(sys);
  std::vector<std::uint32_t> pcs(c.P);  // 32 bits: the host's program outgrows 16 at 64x4 x 1000 rounds
  std::vector<std::int32_t> vals;
  std::vector<std::uint32_t> prio(c.P);
  std::vector<std::uint32_t> order;  // the schedule of the current run (process per step)
  // The concrete trace of a schedule prefix, ending with `last` (kNone: the state it reaches).
  auto rebuild_run = [&](const std::vector<std::uint32_t>& sched, std::uint32_t last, Verdict kind) {
    Counterexample cex;
    cex.kind = kind;
    cex.shortest = false;
    std::fill(pcs.begin(), pcs.end(), 0);
    vals.assign(c.init.begin(), c.init.end());
    std::uint32_t n = 0;
    for (std::uint32_t p : sched) {
      run_block(c, pcs.data(), p, pcs[p] + 1u, vals, {true, true, false, &cex.trace, ++n});
      ++pcs[p];
    }
    if (last != kNone) {
      std::vector<std::int32_t> probe = vals;
      const BlockResult r = run_block(c, pcs.data(), last, pcs[last] + 1u, probe, {true, false, false, &cex.trace, ++n});
      cex.what = kind == Verdict::GlobalUnsafe ? r.global_what : r.what;
    } else {
      cex.what = kind == Verdict::Deadlock ? deadlock_what(sys, pcs, vals) : residue_what(sys, vals);
    }
    cex.final_values = vals;
    return cex;
  };
  bool departed = false;
  for (std::uint64_t run = 0; run < runs; ++run) {
    if (since(t0) > max_seconds) {
      res.note = "time budget reached after " + std::to_string(run) + " schedules";
      break;
    }
    ++res.runs;
    std::fill(pcs.begin(), pcs.end(), 0);
    vals.assign(c.init.begin(), c.init.end());
    std::iota(prio.begin(), prio.end(), depth);
    std::shuffle(prio.begin(), prio.end(), rng);
    std::vector<std::uint64_t> change(depth > 0 ? depth - 1 : 0);
    for (auto& ch : change) ch = total ? rng() % total : 0;
    order.clear();
    std::optional<Verdict> found;
    std::uint32_t found_proc = kNone;
    bool global_broken = false;
    std::vector<std::uint32_t> global_order;
    std::uint32_t global_proc = kNone;
    bool cut = false;
    for (std::uint64_t stepno = 0;; ++stepno) {
      if ((stepno & 0xFFF) == 0xFFF && since(t0) > max_seconds) {  // a long schedule is bounded too
        cut = true;
        break;
      }
      // Highest-priority enabled process.
      std::uint32_t best = kNone;
      BlockResult best_r;
      for (std::uint32_t p = 0; p < c.P; ++p) {
        if (pcs[p] >= c.len[p]) continue;
        const BlockResult r = run_block(c, pcs.data(), p, pcs[p] + 1u, vals);
        if (r.status == Status::Blocked) continue;
        if (best == kNone || prio[p] > prio[best]) {
          best = p;
          best_r = r;
        }
      }
      if (best == kNone) {
        bool all_done = true;
        for (std::uint32_t p = 0; p < c.P; ++p) all_done = all_done && pcs[p] >= c.len[p];
        if (!all_done) found = Verdict::Deadlock;
        else if (vals != c.init) found = Verdict::NotReusable;
        break;
      }
      departed = departed || best_r.departed || best_r.kind == Verdict::Unsafe;
      if (best_r.global_broken && !global_broken) {
        global_broken = true;
        global_order = order;
        global_proc = best;
      }
      if (best_r.status == Status::Violation) {
        found = best_r.kind;
        found_proc = best;
        ++res.states;
        break;
      }
      run_block(c, pcs.data(), best, pcs[best] + 1u, vals, {.keep = true});
      ++pcs[best];
      order.push_back(best);
      for (std::uint32_t k = 0; k < change.size(); ++k) {
        if (change[k] == stepno && change_points == PctChange::Lower) prio[best] = k;  // lower than every initial priority
      }
    }
    res.states += order.size();  // instructions executed
    if (cut) {
      res.note = "time budget reached inside schedule " + std::to_string(run + 1) + " (after " +
                 std::to_string(order.size()) + " of its instructions)";
      if (!found && !global_broken) break;
    }
    if (global_broken) {
      res.found_mask |= bit(Verdict::GlobalUnsafe);
      if (!res.global_finding) res.global_finding = rebuild_run(global_order, global_proc, Verdict::GlobalUnsafe);
    }
    if (!found && global_broken && mode == GuaranteeMode::Global) found = Verdict::GlobalUnsafe;
    if (found) {
      res.found_mask |= bit(*found);
      res.verdict = *found;
      res.cex = *found == Verdict::GlobalUnsafe ? *res.global_finding : rebuild_run(order, found_proc, *found);
      res.note = "random schedule: run " + std::to_string(run) + " of seed " + std::to_string(seed);
      break;
    }
  }
  // Random schedules never prove the property: it is broken, unseen, or not reached.
  res.global = res.global_finding                    ? GlobalStatus::Broken
               : !departed && failing(res.verdict) ? GlobalStatus::NotReached
                                                   : GlobalStatus::NotRefuted;
  res.seconds = since(t0);
  return res;
}

}  // namespace neffbar::model
