// The persistent engine's analysis (persistent.h): the free run, the held runs per
// (process, round), the refinement of global-only findings, and the witnesses.  Split
// over analysis.cpp (the runs), witness.cpp (the counterexamples) and persistent.cpp
// (the verdict).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "neffbar/model/engines/common/budget.h"
#include "neffbar/model/engines/persistent/net.h"
#include "neffbar/model/engines/persistent/persistent.h"
#include "neffbar/model/engines/persistent/runner.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::model::persistent {

struct Fact {
  std::uint32_t p = kNone, d = 0, q = kNone, round = 0, phase = kNone;
  bool q_held = true;  // the witness holds q at its ARRIVE; false: q never arrives in that round
};

inline bool earlier(const Fact& a, const Fact& b) { return a.round != b.round ? a.round < b.round : a.phase < b.phase; }

class Analysis {
 public:
  Analysis(const System& sys, const PersistentOptions& opt)
      : sys_(sys), n_(sys), opt_(opt), run_(n_), deadline_(opt.max_seconds, opt.clock, [this](double t) {
          if (opt_.progress) opt_.progress({run_.executed, WorkUnit::Instructions, t});
        }, opt.poll_cadence) {}

  CheckResult go();

 private:
  CheckResult cut(CheckResult res);

 private:
  bool out_of_budget();
  void free_pass();
  bool periodic_rounds();
  void general_rounds();
  void held_round(std::uint32_t r, std::uint32_t* latest = nullptr);
  void record(std::uint32_t p, std::uint32_t d, std::uint32_t q, std::uint32_t r, std::uint32_t phase, bool q_held);
  void late_departs();
  void refine();
  [[nodiscard]] bool guarantee_arrived(std::uint32_t p, std::uint32_t r) const;
  void advance_base_to(std::uint32_t r);
  Counterexample witness(Verdict kind, const Fact* f);
  [[nodiscard]] std::uint32_t free_phase(std::uint32_t r, std::size_t k) const {
    if (periodic_ok_) return r + 1;
    return free_phase_[r][k];
  }

  const System& sys_;
  Net n_;
  const PersistentOptions& opt_;
  Runner run_;
  Deadline deadline_;  // read on every out_of_budget(): called between runs, not per instruction
  Clock::time_point t0_ = Clock::now();  // for res.seconds: wall time, whatever the budget's clock
  bool budget_ = false, stopped_early_ = false;
  bool periodic_ok_ = false;
  std::uint64_t runs_ = 0;

  // The free run: per DEPART the first phase that passes it; what T ends in.
  std::vector<std::vector<std::uint32_t>> free_phase_;
  bool deadlock_ = false, residue_ = false, any_depart_ = false;
  std::uint32_t k_dead_ = kNone;  // first k whose k-round system deadlocks or leaves residues
  std::uint32_t base_round_ = 0;  // the base is S_{base_round_}

  // Findings.
  std::optional<Fact> unsafe_, global_;
  std::uint32_t k_unsafe_ = kNone, k_global_ = kNone;
  std::vector<Fact> candidates_;  // global-only, to refine when an UNSAFE exists
  bool candidates_cut_ = false;
  std::optional<Fact> best_candidate_;
  std::uint32_t k_candidate_ = kNone;
  bool plain_broken_ = false;
  std::vector<std::uint8_t> seen_;
};

}  // namespace neffbar::model::persistent
