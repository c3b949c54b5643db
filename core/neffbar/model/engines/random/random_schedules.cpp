// Random schedules (random_schedules.h): PCT priorities over single instructions.
//
// A schedule is a function of its priorities and change points, so it is not stored:
// a counterexample replays it (the schedule of 64x4 x 1000 rounds is ~10^7 steps).
// Choosing the next process costs O(P / 64) words, not P instruction trials: a process
// whose next instruction is blocked on semaphore s leaves the candidate set until s
// changes (only s's value decides whether it is blocked).
#include <algorithm>
#include <bit>
#include <cstdio>
#include <numeric>
#include <random>

#include "neffbar/model/engines/common/block.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/engines/random/random_schedules.h"

namespace neffbar::model {

using namespace detail;

namespace {

// The fixed choices of one schedule.
struct Plan {
  std::vector<std::uint32_t> prio;    // distinct; the highest enabled runs
  std::vector<std::uint64_t> change;  // at step change[k], the running process drops to priority k
  PctChange at_change = PctChange::Lower;  // Keep: the broken scheduler random_schedules_test.cpp must catch
};

// What the next instruction of a process would do, judged without running it.
struct Probe {
  BlockStatus status = BlockStatus::Fired;
  Verdict kind = Verdict::Ok;
  bool departed = false;       // a DEPART whose guarantee held
  bool global_broken = false;  // ... with some other participant not arrived
};

// One schedule in progress: pcs, values, and the processes that may be enabled, as a
// bit set over priority values.  Each process reads its round body in place (position
// and run of the body, program.h); a DEPART's global check reads a count per round of
// the participants that have arrived, so a step costs O(1) but for the guarantee's few
// processes.  The counterexample's replay goes through run_block, the one executor the
// explicit search shares, so the two are checked against each other on every finding.
class PctRun {
 public:
  PctRun(const Compiled& c, Plan plan)
      : c_(c), plan_(std::move(plan)), pcs_(c.P, 0), pos_(c.P, 0), run_(c.P, 0), vals_(c.init), waiters_(c.init.size()),
        arrived_(c.sys.rounds, 0) {
    for (const Process& pr : c.sys.procs) {
      views_.push_back({pr.program.body().data(), static_cast<std::uint32_t>(pr.program.body().size()),
                        pr.program.body_rounds(), pr.participant});
    }
    for (std::uint32_t k = 0; k < plan_.change.size(); ++k) changes_.emplace_back(plan_.change[k], k);
    std::sort(changes_.begin(), changes_.end());
    std::uint32_t top = 0;
    for (std::uint32_t p : plan_.prio) top = std::max(top, p);
    by_prio_.assign(top + 1, kNone);
    ready_.assign(top / 64 + 1, 0);
    for (std::uint32_t p = 0; p < c.P; ++p) {
      by_prio_[plan_.prio[p]] = p;
      if (c.len[p] > 0) set_ready(p);
    }
  }

  // The highest-priority process whose next instruction can run, or kNone.  `work`
  // counts the processes tried.
  std::uint32_t pick(std::uint64_t& work) {
    for (std::size_t w = top_ + 1; w-- > 0; top_ = w == 0 ? 0 : w - 1) {
      while (ready_[w] != 0) {
        const auto bitno = static_cast<std::uint32_t>(63 - std::countl_zero(ready_[w]));
        const std::uint32_t p = by_prio_[w * 64 + bitno];
        ++work;
        const Instr& in = next(p);
        if (!blocked(in)) return p;
        ready_[w] &= ~(std::uint64_t{1} << bitno);  // back when its semaphore changes
        waiters_[in.op.sema].push_back(p);
      }
    }
    return kNone;
  }

  // What p's next instruction would do (p not blocked).
  [[nodiscard]] Probe probe(std::uint32_t p) {
    Probe r;
    const Instr& in = next(p);
    if (in.marker == Marker::Depart) {
      const std::uint32_t round = round_of(p, in);
      for (std::uint32_t q : c_.sys.procs[p].guarantee) {
        if (q != p && q < c_.P && !c_.arrived(pcs_.data(), q, round)) {
          r.status = BlockStatus::Violation;
          r.kind = Verdict::Unsafe;
          return r;
        }
      }
      r.departed = true;
      r.global_broken = other_participant_absent(p, round);
    } else if (in.marker == Marker::None && c_.overflow_possible) {  // else no primitive can overflow
      const std::int32_t before = vals_[in.op.sema];
      if (apply(vals_, in.op, c_.sys.compare) == neffbar::Outcome::Overflow) {
        r.status = BlockStatus::Violation;
        r.kind = Verdict::Overflow;
      }
      vals_[in.op.sema] = before;
    }
    return r;
  }

  // Executes p's next instruction (through run_block, appending it to trace, when
  // trace is given).
  void fire(std::uint32_t p, std::vector<TraceEntry>* trace = nullptr) {
    const Instr& in = next(p);
    const std::int32_t before = in.marker == Marker::None ? vals_[in.op.sema] : 0;
    if (trace) {
      run_block(c_, pcs_.data(), p, pcs_[p] + 1u, vals_, {.keep = true, .trace = trace, .step = static_cast<std::uint32_t>(steps_ + 1)});
    } else if (in.marker == Marker::None) {
      (void)apply(vals_, in.op, c_.sys.compare);
    }
    if (in.marker == Marker::None && vals_[in.op.sema] != before) {  // wakes the waiters it enabled
      std::vector<std::uint32_t>& w = waiters_[in.op.sema];
      std::size_t still = 0;
      for (const std::uint32_t q : w) {
        if (blocked(next(q))) {
          w[still++] = q;
        } else {
          set_ready(q);
        }
      }
      w.resize(still);
    }
    if (in.marker == Marker::Arrive && views_[p].participant) {
      const std::uint32_t round = round_of(p, in);
      if (c_.arrivals.last(p, round) == pcs_[p]) ++arrived_[round];  // its last ARRIVE of the round
    }
    ++pcs_[p];
    if (++pos_[p] == views_[p].length) {
      pos_[p] = 0;
      ++run_[p];
    }
    if (pcs_[p] >= c_.len[p]) clear_ready(p);
    // In step order, each taken at its step: none is left behind an earlier step.
    for (; next_change_ < changes_.size() && changes_[next_change_].first == steps_; ++next_change_) {
      const std::uint32_t k = changes_[next_change_].second;
      if (plan_.at_change == PctChange::Lower) {  // lower than every initial priority
        clear_ready(p);
        by_prio_[plan_.prio[p]] = kNone;
        plan_.prio[p] = k;
        by_prio_[k] = p;
        if (pcs_[p] < c_.len[p]) set_ready(p);
      }
    }
    ++steps_;
  }

  [[nodiscard]] bool all_done() const {
    for (std::uint32_t p = 0; p < c_.P; ++p) {
      if (pcs_[p] < c_.len[p]) return false;
    }
    return true;
  }
  [[nodiscard]] std::uint64_t steps() const { return steps_; }
  [[nodiscard]] const std::vector<std::uint32_t>& pcs() const { return pcs_; }
  [[nodiscard]] std::vector<std::int32_t>& vals() { return vals_; }

 private:
  [[nodiscard]] const Instr& next(std::uint32_t p) const { return views_[p].body[pos_[p]]; }
  [[nodiscard]] std::uint32_t round_of(std::uint32_t p, const Instr& in) const {
    return in.round + run_[p] * std::uint32_t{views_[p].body_rounds};
  }
  [[nodiscard]] bool blocked(const Instr& in) const {
    return in.marker == Marker::None && !enabled(vals_, in.op, c_.sys.compare);
  }
  // Whether a participant other than p has not arrived in `round` (rounds past the
  // system's are never arrived).
  [[nodiscard]] bool other_participant_absent(std::uint32_t p, std::uint32_t round) const {
    const auto others = static_cast<std::uint32_t>(c_.participants.size()) - (c_.sys.procs[p].participant ? 1u : 0u);
    if (round >= arrived_.size()) return others > 0;
    const std::uint32_t self = c_.sys.procs[p].participant && c_.arrived(pcs_.data(), p, round) ? 1 : 0;
    return arrived_[round] - self < others;
  }
  void set_ready(std::uint32_t p) {
    const std::uint32_t w = plan_.prio[p] / 64;
    ready_[w] |= std::uint64_t{1} << (plan_.prio[p] % 64);
    top_ = std::max<std::size_t>(top_, w);
  }
  void clear_ready(std::uint32_t p) { ready_[plan_.prio[p] / 64] &= ~(std::uint64_t{1} << (plan_.prio[p] % 64)); }

  // What the inner loop reads of a process, in one place.
  struct View {
    const Instr* body;
    std::uint32_t length;
    std::uint16_t body_rounds;
    bool participant;
  };

  const Compiled& c_;
  Plan plan_;
  std::vector<View> views_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> changes_;  // (step, k), in step order
  std::size_t next_change_ = 0;
  std::size_t top_ = 0;  // no ready bit above this word
  std::vector<std::uint32_t> pcs_;  // 32 bits: the host's program outgrows 16 at 64x4 x 1000 rounds
  std::vector<std::uint32_t> pos_, run_;  // [p]: position in its body, and which run of the body
  std::vector<std::int32_t> vals_;
  std::vector<std::vector<std::uint32_t>> waiters_;  // [sema] -> processes blocked on it
  std::vector<std::uint32_t> by_prio_;               // priority -> process
  std::vector<std::uint64_t> ready_;                 // bit per priority: may be enabled
  std::vector<std::uint32_t> arrived_;               // [round] participants past their last ARRIVE of it
  std::uint64_t steps_ = 0;
};

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", s);
  return buf;
}

// A PCT plan: distinct random priorities from `depth` up, and depth-1 change points
// among the instructions.
Plan make_plan(std::uint32_t procs, std::uint32_t depth, std::size_t total, std::mt19937_64& rng,
               PctChange change_points) {
  Plan plan;
  plan.prio.resize(procs);
  std::iota(plan.prio.begin(), plan.prio.end(), depth);
  std::shuffle(plan.prio.begin(), plan.prio.end(), rng);
  plan.change.resize(depth > 0 ? depth - 1 : 0);
  for (auto& ch : plan.change) ch = total ? rng() % total : 0;
  plan.at_change = change_points;
  return plan;
}

// What one schedule ran into.
struct Outcome {
  std::optional<Verdict> found;
  std::uint32_t found_proc = kNone;
  std::uint64_t found_step = 0;
  bool global_broken = false;
  std::uint32_t global_proc = kNone;
  std::uint64_t global_step = 0;
  bool departed = false;  // someone departed (or an UNSAFE DEPART was refused)
  bool cut = false;       // the time budget ended it
};

// Runs one schedule to its end: the first violation, a state where nobody can move, or
// the time budget.  The budget is polled after each picked step is judged, before it
// fires: what the schedule ran into up to the cut is in the outcome.
Outcome run_schedule(const Compiled& c, PctRun& pct, Deadline& deadline) {
  Outcome o;
  for (;;) {
    std::uint64_t work = 1;
    const std::uint32_t best = pct.pick(work);
    if (best == kNone) {
      if (!pct.all_done()) o.found = Verdict::Deadlock;
      else if (pct.vals() != c.init) o.found = Verdict::NotReusable;
      o.found_step = pct.steps();
      return o;
    }
    const Probe r = pct.probe(best);
    o.departed = o.departed || r.departed || r.kind == Verdict::Unsafe;
    if (r.global_broken && !o.global_broken) {
      o.global_broken = true;
      o.global_step = pct.steps();
      o.global_proc = best;
    }
    if (r.status == BlockStatus::Violation) {
      o.found = r.kind;
      o.found_proc = best;
      o.found_step = pct.steps();
      return o;
    }
    if (deadline.poll(work)) {  // a long schedule is bounded too
      o.cut = true;
      return o;
    }
    pct.fire(best);
  }
}

}  // namespace

CheckResult check_random(const System& sys, std::uint64_t runs, std::uint64_t seed, std::uint32_t depth,
                         const CommonOptions& opt, PctChange change_points) {
  CheckResult res;
  res.engine = Engine::Random;
  RunStats& work = res.stats.emplace<RunStats>();
  res.exhaustive = false;
  std::uint64_t executed = 0;  // over every schedule, for the progress line
  const PctRun* current = nullptr;
  Deadline deadline(
      opt.max_seconds, opt.clock, [&](double t) {
        if (opt.progress) opt.progress({executed + (current ? current->steps() : 0), WorkUnit::Instructions, t});
      },
      opt.poll_cadence);
  const Compiled c(sys, false, false, false);
  std::mt19937_64 rng(seed);
  const std::size_t total = instruction_count(sys);
  // The concrete trace of the first `steps` steps of a schedule, then `last`'s next
  // instruction (kNone: the state they reach).
  auto replay = [&](const Plan& plan, std::uint64_t steps, std::uint32_t last, Verdict kind) {
    Counterexample cex;
    cex.kind = kind;
    cex.shortest = false;
    PctRun run(c, plan);
    BlockResult r;
    std::uint64_t ignored = 0;
    while (run.steps() < steps) run.fire(run.pick(ignored), &cex.trace);
    const std::vector<std::uint32_t>& pcs = run.pcs();
    if (last != kNone) {
      std::vector<std::int32_t> probe = run.vals();
      r = run_block(c, pcs.data(), last, pcs[last] + 1u, probe,
                    {true, false, false, &cex.trace, static_cast<std::uint32_t>(steps + 1)});
      cex.what = kind == Verdict::GlobalUnsafe ? r.global_what : r.what;
    } else {
      cex.what = kind == Verdict::Deadlock ? deadlock_what(sys, pcs, run.vals()) : residue_what(sys, run.vals());
    }
    return cex;
  };
  // How long one schedule takes, from the instructions executed so far.
  auto per_schedule = [&] {
    const double rate = static_cast<double>(executed) / std::max(deadline.seconds(), 1e-9);
    return "a whole schedule runs up to " + std::to_string(total) + " instructions, about " +
           seconds_text(static_cast<double>(total) / std::max(rate, 1.0)) + " s at the " +
           std::to_string(static_cast<std::uint64_t>(rate)) + " instructions/s measured";
  };
  bool departed = false;
  bool cut = false;                // the budget ended the schedules before one found a violation
  bool schedule_length_said = false;  // the cut's note already says how long a schedule takes
  for (std::uint64_t run = 0; run < runs; ++run) {
    if (deadline.check()) {
      res.note.cut = Cut{Stop::Time, " after " + std::to_string(run) + " of " + std::to_string(runs) + " schedules"};
      cut = true;
      break;
    }
    ++work.runs;
    const Plan plan = make_plan(c.P, depth, total, rng, change_points);
    PctRun pct(c, plan);
    current = &pct;
    const Outcome o = run_schedule(c, pct, deadline);
    std::optional<Verdict> found = o.found;
    departed = departed || o.departed;
    if (o.found_proc != kNone) ++work.instructions;  // the violating instruction ran too (a deadlock has none)
    current = nullptr;
    executed += pct.steps();
    work.instructions += pct.steps();
    if (o.cut) {
      res.note.cut = Cut{Stop::Time, " inside schedule " + std::to_string(run + 1) + " (after " +
                                         std::to_string(pct.steps()) + " of its instructions; " + per_schedule() + ")"};
      schedule_length_said = true;
      cut = true;  // (a schedule that found a violation ended there, before any cut)
    }
    if (o.global_broken) {
      res.found_mask |= bit(Verdict::GlobalUnsafe);
      if (!res.global_finding) res.global_finding = replay(plan, o.global_step, o.global_proc, Verdict::GlobalUnsafe);
    }
    if (cut) break;  // the rest of this schedule, which could still run into a stopping failure, was not run
    if (!found && o.global_broken && opt.guarantee == GuaranteeMode::Global) found = Verdict::GlobalUnsafe;
    if (found) {
      res.found_mask |= bit(*found);
      res.verdict = *found;
      res.cex = *found == Verdict::GlobalUnsafe ? *res.global_finding : replay(plan, o.found_step, o.found_proc, *found);
      res.note.remarks.push_back("random schedule: run " + std::to_string(run) + " of seed " + std::to_string(seed));
      break;
    }
  }
  // Cut before the schedules asked for ran out: BUDGET, not NOT_REFUTED.  A global finding
  // of a schedule is reported (the counterexample), not the verdict: the rest of its
  // schedule was not run.
  if (cut) {
    res.verdict = Verdict::Budget;
    if (res.global_finding) res.cex = res.global_finding;
  }
  if (total >= kLongSchedule && !schedule_length_said) res.note.remarks.push_back(per_schedule());
  // Random schedules never prove the property: it is broken, unseen, or not reached.
  res.global = res.global_finding                    ? GlobalStatus::Broken
               : !departed && failing(res.verdict) ? GlobalStatus::NotReached
                                                   : GlobalStatus::NotRefuted;
  res.seconds = deadline.seconds();
  return res;
}

}  // namespace neffbar::model
