// The persistent engine (persistent.h): the verdict from the analysis' findings.
#include <algorithm>
#include <string>

#include "neffbar/model/engines/persistent/analysis.h"
#include "neffbar/model/engines/persistent/persistent.h"

namespace neffbar::model {
namespace persistent {

CheckResult Analysis::go() {
  CheckResult res;
  res.engine = Engine::Persistent;
  if (!periodic_rounds()) {
    free_pass();
    general_rounds();
  }
  if (!budget_ && unsafe_ && !candidates_.empty()) refine();
  res.stats = RunStats{run_.executed, runs_};
  if (budget_) return cut(std::move(res));
  if (!unsafe_ && best_candidate_) {  // no UNSAFE anywhere: every candidate is global-only
    if (!global_ || earlier(*best_candidate_, *global_)) global_ = best_candidate_;
    k_global_ = std::min(k_global_, k_candidate_);
  }
  if (deadlock_) res.found_mask |= bit(Verdict::Deadlock);
  if (residue_) res.found_mask |= bit(Verdict::NotReusable);
  if (unsafe_) res.found_mask |= bit(Verdict::Unsafe);
  if (global_) res.found_mask |= bit(Verdict::GlobalUnsafe);
  res.verdict = unsafe_ ? Verdict::Unsafe
                : deadlock_ ? Verdict::Deadlock
                : residue_ ? Verdict::NotReusable
                : global_ && opt_.guarantee == GuaranteeMode::Global ? Verdict::GlobalUnsafe
                                                                        : Verdict::Ok;
  res.global = plain_broken_ ? GlobalStatus::Broken : any_depart_ ? GlobalStatus::Holds : GlobalStatus::NotReached;
  if (n_.structured && failing(res.verdict)) {
    std::uint32_t k = std::min(k_dead_, k_unsafe_);
    if (opt_.guarantee == GuaranteeMode::Global) k = std::min(k, k_global_);
    if (k != kNone) res.broke_in_round = std::min(k, n_.R);
  }
  switch (res.verdict) {
    case Verdict::Unsafe: res.cex = witness(Verdict::Unsafe, &*unsafe_); break;
    case Verdict::Deadlock:
    case Verdict::NotReusable: res.cex = witness(res.verdict, nullptr); break;
    default: break;
  }
  if (global_) {
    res.global_finding = witness(Verdict::GlobalUnsafe, &*global_);
    if (res.verdict == Verdict::GlobalUnsafe) res.cex = res.global_finding;
  }
  res.note.remarks = {"persistent system: exact from " + std::to_string(runs_) + " greedy runs",
                      "the counterexample is a greedy run cut to what the violation depends on, not necessarily a "
                      "shortest one"};
  if (stopped_early_) res.note.remarks.emplace_back("stopped after the first UNSAFE rounds (the verdict cannot change)");
  if (candidates_cut_ && unsafe_ && !global_) res.note.remarks.emplace_back("global-only findings beside the UNSAFE not all decided");
  res.seconds = since(t0_);
  return res;
}

// The result of an analysis a budget cut.  An UNSAFE found before the cut is the verdict
// the uncut run gives too (any UNSAFE makes it UNSAFE), with its witness; a global
// finding is only reported (an UNSAFE or a DEADLOCK may come later), so the verdict is
// BUDGET with it as the counterexample; a candidate not yet refined is neither.
// Nothing is exact, and the round it broke in is not measured.
CheckResult Analysis::cut(CheckResult res) {
  res.note.cut = Cut{run_.executed > opt_.max_instructions ? Stop::Instructions : Stop::Time, ""};
  res.exhaustive = false;
  res.global = global_ ? GlobalStatus::Broken : GlobalStatus::Unknown;
  if (global_) {
    res.found_mask |= bit(Verdict::GlobalUnsafe);
    res.global_finding = witness(Verdict::GlobalUnsafe, &*global_);
  }
  if (unsafe_) {
    res.found_mask |= bit(Verdict::Unsafe);
    res.verdict = Verdict::Unsafe;
    res.cex = witness(Verdict::Unsafe, &*unsafe_);
    res.note.round_unmeasured = n_.structured;
  } else {
    res.verdict = Verdict::Budget;
    if (global_) res.cex = res.global_finding;
  }
  res.seconds = since(t0_);
  return res;
}

}  // namespace persistent

Result<CheckResult> check_persistent(const System& sys, const PersistentOptions& opt) {
  const Qualification q = qualify(sys);
  if (!q.ok) return Error{Errc::InvalidArgument, "persistent engine", "a persistent system", q.reason};
  persistent::Analysis a(sys, opt);
  return a.go();
}

}  // namespace neffbar::model
