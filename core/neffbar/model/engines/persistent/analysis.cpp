// The runs of the persistent engine's analysis (analysis.h).
#include <algorithm>
#include <vector>

#include "neffbar/model/engines/persistent/analysis.h"

namespace neffbar::model::persistent {

bool Analysis::out_of_budget() {
  if (budget_) return true;
  // The instruction count first: a budget of instructions is decided without a clock.
  budget_ = run_.executed > opt_.max_instructions || deadline_.check();
  return budget_;
}

// Phases 1..R+1 over every process from the initial state: T, which DEPART each phase
// passes, and the first k whose k-round system ends dead or with residues.
void Analysis::free_pass() {
  free_phase_.resize(n_.R + 1);
  for (std::uint32_t r = 0; r <= n_.R; ++r) free_phase_[r].assign(n_.departs[r].size(), kNone);
  // Each process's DEPARTs in pc order, to mark them as phases pass them.
  struct Ref {
    std::uint32_t pc, r, k;
  };
  std::vector<std::vector<Ref>> mine(n_.P);
  for (std::uint32_t r = 0; r <= n_.R; ++r) {
    for (std::uint32_t k = 0; k < n_.departs[r].size(); ++k) mine[n_.departs[r][k].p].push_back({n_.departs[r][k].pc, r, k});
  }
  for (auto& v : mine) std::sort(v.begin(), v.end(), [](const Ref& a, const Ref& b) { return a.pc < b.pc; });
  std::vector<std::size_t> cursor(n_.P, 0);
  ++runs_;
  for (std::uint32_t j = 1; j <= n_.R + 1 && !out_of_budget(); ++j) {
    for (std::uint32_t p = 0; p < n_.P; ++p) {
      run_.lim[p] = n_.start(p, j);
      run_.push(p);
    }
    run_.run();
    for (std::uint32_t p = 0; p < n_.P; ++p) {
      for (auto& c = cursor[p]; c < mine[p].size() && mine[p][c].pc < run_.pc[p]; ++c) {
        free_phase_[mine[p][c].r][mine[p][c].k] = j;
        any_depart_ = true;
      }
    }
    if (n_.structured && j <= n_.R && k_dead_ == kNone) {
      bool dead = false;
      for (std::uint32_t p = 0; p < n_.P && !dead; ++p) dead = run_.pc[p] < n_.start(p, j);
      if (dead || run_.val != n_.init) k_dead_ = j;
    }
  }
  for (std::uint32_t p = 0; p < n_.P; ++p) deadlock_ = deadlock_ || run_.pc[p] < n_.len[p];  // run_ is at T
  residue_ = !deadlock_ && run_.val != n_.init;
  run_.rebase([](std::uint32_t) { return 0u; });
  base_round_ = 0;
}

void Analysis::record(std::uint32_t p, std::uint32_t d, std::uint32_t q, std::uint32_t r, std::uint32_t phase,
                      bool q_held) {
  const Fact f{p, d, q, r, phase, q_held};
  if (n_.participant[q]) plain_broken_ = true;
  if (n_.in_g[std::size_t{p} * n_.P + q]) {
    if (!unsafe_ || earlier(f, *unsafe_)) unsafe_ = f;
    k_unsafe_ = std::min(k_unsafe_, phase);
    return;
  }
  if (!n_.participant[q]) return;
  if (n_.others[p].empty()) {  // nothing to have arrived: a global-only violation as it stands
    if (!global_ || earlier(f, *global_)) global_ = f;
    k_global_ = std::min(k_global_, phase);
    return;
  }
  // Global-only unless an UNSAFE exists (then the guarantee may not have arrived yet).
  if (!best_candidate_ || earlier(f, *best_candidate_)) best_candidate_ = f;
  k_candidate_ = std::min(k_candidate_, phase);
  if (candidates_.size() < 200'000) {
    candidates_.push_back(f);
  } else {
    candidates_cut_ = true;
  }
}

// Round r's held runs from the base S_r: one per process whose arrival is checked.
void Analysis::held_round(std::uint32_t r, std::uint32_t* latest) {
  const auto& deps = n_.departs[r];
  bool reached = false;
  for (std::size_t k = 0; k < deps.size(); ++k) reached = reached || free_phase(r, k) != kNone;
  if (!reached) return;  // nobody departs round r even when nobody is held
  for (std::uint32_t q : n_.relevant) {
    if (out_of_budget()) return;
    const std::uint32_t a = n_.arrive_pc(q, r);
    seen_.assign(deps.size(), 0);
    if (a != kNone) {
      const Hold hold{q, a};
      const std::uint32_t cq = n_.comp[q];
      ++runs_;
      phased(n_, run_, n_.members[cq], r + 1, std::span<const Hold>(&hold, 1), [&](std::uint32_t j) {
        for (std::size_t k = 0; k < deps.size(); ++k) {
          const DepartPoint& dp = deps[k];
          if (seen_[k] || dp.p == q || n_.comp[dp.p] != cq || run_.pc[dp.p] <= dp.pc) continue;
          seen_[k] = 1;
          record(dp.p, dp.pc, q, r, j, true);
        }
        return false;
      });
      for (std::uint32_t p : run_.dirty_procs()) {
        if (latest && run_.pc[p] > 0 && n_.period[p] > 0) *latest = std::max(*latest, (run_.pc[p] - 1) / n_.period[p]);
      }
      run_.rollback();
    }
    // Outside q's component (or when q never arrives in round r) p runs as in T.
    for (std::size_t k = 0; k < deps.size(); ++k) {
      const DepartPoint& dp = deps[k];
      if (seen_[k] || dp.p == q || (a != kNone && n_.comp[dp.p] == n_.comp[q])) continue;
      if (const std::uint32_t ph = free_phase(r, k); ph != kNone) record(dp.p, dp.pc, q, r, ph, a != kNone);
    }
  }
}

// DEPARTs of rounds >= R: nobody ever arrives in them (the explicit search's reading).
void Analysis::late_departs() {
  const auto& deps = n_.departs[n_.R];
  for (std::size_t k = 0; k < deps.size(); ++k) {
    const std::uint32_t ph = free_phase_[n_.R][k];
    if (ph == kNone) continue;
    const DepartPoint& dp = deps[k];
    const std::uint32_t round = n_.instr(dp.p, dp.pc).round;
    // Every other participant is missing too: the global line is broken even when the
    // UNSAFE below names a non-participant.
    for (std::uint32_t q = 0; q < n_.P; ++q) plain_broken_ = plain_broken_ || (q != dp.p && n_.participant[q]);
    if (!n_.others[dp.p].empty()) {
      record(dp.p, dp.pc, n_.others[dp.p].front(), round, ph, false);
      continue;
    }
    for (std::uint32_t q = 0; q < n_.P; ++q) {
      if (q != dp.p && n_.participant[q]) {
        record(dp.p, dp.pc, q, round, ph, false);
        break;
      }
    }
  }
}

// Periodic and round-separable: one round from the initial state comes back to it, so
// the base of round r is round 0's shifted.  False when the system is not so.
bool Analysis::periodic_rounds() {
  if (!n_.periodic) return false;
  for (std::uint32_t p = 0; p < n_.P; ++p) {
    run_.lim[p] = n_.start(p, 1);
    run_.push(p);
  }
  run_.run();
  ++runs_;
  bool separable = run_.val == n_.init;
  for (std::uint32_t p = 0; p < n_.P && separable; ++p) separable = run_.pc[p] == n_.start(p, 1);
  run_.rollback();
  if (!separable) return false;
  periodic_ok_ = true;
  // T: everybody finished, every value back (no DEADLOCK, no residue); DEPART of
  // round r passes in phase r + 1.
  for (std::uint32_t r = 0; r < n_.R && !any_depart_; ++r) any_depart_ = !n_.departs[r].empty();
  // Round 0, noting the latest round whose instructions any held run executed.
  std::uint32_t latest = 0;
  held_round(0, &latest);
  // Rounds 1 .. R-1-latest repeat round 0; the last `latest` rounds run out of program
  // and are checked from their own base.
  for (std::uint32_t r = std::max(1u, n_.R - std::min(n_.R, latest)); r < n_.R && !out_of_budget(); ++r) {
    run_.rebase([&](std::uint32_t p) { return r * n_.period[p]; });
    base_round_ = r;
    held_round(r);
  }
  run_.rebase([](std::uint32_t) { return 0u; });
  base_round_ = 0;
  return true;
}

// Moves the base from S_{base_round_} to S_r (r >= base_round_) by free phases.
void Analysis::advance_base_to(std::uint32_t r) {
  if (periodic_ok_) {
    run_.rebase([&](std::uint32_t p) { return r * n_.period[p]; });
    base_round_ = r;
    return;
  }
  if (r < base_round_) {
    run_.rebase([](std::uint32_t) { return 0u; });
    base_round_ = 0;
  }
  for (; base_round_ < r; ++base_round_) {
    for (std::uint32_t p = 0; p < n_.P; ++p) {
      run_.lim[p] = n_.start(p, base_round_ + 1);
      run_.push(p);
    }
    run_.run();
    run_.commit();
  }
}

void Analysis::general_rounds() {
  for (std::uint32_t r = 0; r < n_.R && !out_of_budget(); ++r) {
    advance_base_to(r);
    held_round(r);
    // Nothing found later can change the verdict, the round it broke in, or the global line.
    const std::uint32_t k = std::min({k_dead_, k_unsafe_});
    if (!opt_.collect_all && unsafe_ && plain_broken_ && (k == kNone || r + 2 >= k)) {
      stopped_early_ = r + 1 < n_.R;
      break;
    }
  }
  late_departs();
}

bool Analysis::guarantee_arrived(std::uint32_t p, std::uint32_t r) const {
  return std::all_of(n_.others[p].begin(), n_.others[p].end(), [&](std::uint32_t g) {
    const std::uint32_t a = n_.arrive_pc(g, r);
    return a != kNone && run_.pc[g] > a;
  });
}

// With an UNSAFE in the system a candidate is global-only only if, p held at its DEPART
// and q before its ARRIVE, p's guarantee can still all arrive.
void Analysis::refine() {
  std::sort(candidates_.begin(), candidates_.end(), [](const Fact& a, const Fact& b) { return earlier(a, b); });
  std::vector<std::uint32_t> all(n_.P);
  std::iota(all.begin(), all.end(), 0u);
  for (const Fact& c : candidates_) {
    if (out_of_budget()) return;
    if (global_ && (opt_.guarantee != GuaranteeMode::Global || c.phase >= k_global_)) break;
    if (c.round >= n_.R) continue;
    advance_base_to(c.round);
    std::vector<Hold> holds{{c.p, c.d}};
    if (c.q_held) holds.push_back({c.q, n_.arrive_pc(c.q, c.round)});
    ++runs_;
    phased(n_, run_, all, c.round + 1, holds, [&](std::uint32_t j) {
      if (run_.pc[c.p] != c.d || !guarantee_arrived(c.p, c.round)) return false;
      Fact g = c;
      g.phase = j;
      if (!global_ || earlier(g, *global_)) global_ = g;
      k_global_ = std::min(k_global_, j);
      return true;
    });
    run_.rollback();
  }
}

}  // namespace neffbar::model::persistent
