#include "neffbar/model/persistent.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <vector>

#include "neffbar/model/counterexample.h"

namespace neffbar::model {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

bool is_wait(Prim k) { return k == Prim::WaitGe || k == Prim::WaitGeAndDec; }
bool is_eq_wait(Prim k) { return k == Prim::WaitEqAndInc || k == Prim::WaitEqAndClear; }

// ------------------------------------------------------------------ qualification ----

std::string names(const System& sys, const std::vector<std::uint32_t>& procs) {
  std::string s;
  for (std::size_t i = 0; i < procs.size() && i < 4; ++i) {
    s += (i == 0 ? "" : i + 1 == procs.size() ? " and " : ", ") + sys.procs[procs[i]].name;
  }
  if (procs.size() > 4) s += " and " + std::to_string(procs.size() - 4) + " more";
  return s;
}

}  // namespace

Qualification qualify(const System& sys) {
  const std::size_t S = sys.semas.size();
  std::vector<std::vector<std::uint32_t>> consumers(S);  // processes that wait on or decrease s
  std::vector<std::int64_t> hi(S), lo(S);
  for (std::size_t s = 0; s < S; ++s) hi[s] = lo[s] = sys.semas[s].initial;
  for (std::uint32_t p = 0; p < sys.procs.size(); ++p) {
    for (std::uint32_t pc = 0; pc < sys.procs[p].program.size(); ++pc) {
      const Instr& in = sys.procs[p].program[pc];
      if (in.marker != Marker::None) continue;
      if (in.op.sema >= S) return {false, describe(sys, p, pc) + " names a semaphore the system does not have"};
      if (is_eq_wait(in.op.prim)) {
        return {false, sys.procs[p].name + " waits for equality on " + sys.semas[in.op.sema].name + " (" +
                           std::string(prim_name(in.op.prim)) + "): a release can be undone by another's increment"};
      }
      const std::int64_t e = effect(in.op);
      (e > 0 ? hi : lo)[in.op.sema] += e;
      auto& c = consumers[in.op.sema];
      if ((e < 0 || is_wait(in.op.prim)) && (c.empty() || c.back() != p)) c.push_back(p);
    }
  }
  for (std::size_t s = 0; s < S; ++s) {
    if (consumers[s].size() > 1) {
      return {false, "semaphore " + sys.semas[s].name + " is waited on or decreased by " + names(sys, consumers[s]) +
                         ": one can take what another waits for"};
    }
  }
  for (std::size_t s = 0; s < S; ++s) {
    if (hi[s] > std::numeric_limits<std::int32_t>::max() || lo[s] < std::numeric_limits<std::int32_t>::min()) {
      return {false, "semaphore " + sys.semas[s].name + " could leave int32 (its changes add up to " +
                         (hi[s] > std::numeric_limits<std::int32_t>::max() ? std::to_string(hi[s]) : std::to_string(lo[s])) +
                         "): an overflow would stop a run"};
    }
  }
  return {true, {}};
}

namespace {

// ------------------------------------------------------------------- compiled net ----

enum class Kind : std::uint8_t { Marker, Free, Wait };

struct Op {
  std::int64_t thr = 0;  // Wait: releases at value >= thr (a GT compare is >= thr + 1)
  std::int64_t add = 0;  // the effect once executed
  std::uint32_t sema = kNone;
  Kind kind = Kind::Marker;
};

bool same_but_round(const Instr& a, const Instr& b) {
  return a.marker == b.marker && a.op == b.op && a.step == b.step && a.lane == b.lane;
}

struct DepartPoint {
  std::uint32_t p, pc;
};

// The system compiled for greedy runs.  A periodic system (every program is `rounds`
// copies of one round's block) stores one block per process.
struct Net {
  const System& sys;
  std::uint32_t P, S, R;
  bool periodic = true, structured = true;
  std::vector<Op> ops;
  std::vector<std::size_t> off;
  std::vector<std::uint32_t> len, period;  // period: one round's length (periodic) or len
  std::vector<std::uint32_t> waiter;       // [s] -> the one process that waits on s
  std::vector<std::int64_t> init;
  std::vector<std::uint32_t> comp;         // [p] -> connected component (shared semaphores)
  std::vector<std::vector<std::uint32_t>> members;
  std::vector<std::uint32_t> starts;       // not periodic: [p*(R+2)+j] first pc of round >= j
  std::vector<std::uint32_t> arrive;       // [p*R+r] its last ARRIVE of round r (what counts), kNone
  std::vector<std::vector<DepartPoint>> departs;  // [r]; [R]: rounds >= R, which nobody arrives
  std::vector<std::uint8_t> in_g;          // [p*P+q]: q != p is in p's guarantee
  std::vector<std::vector<std::uint32_t>> others;  // p's guarantee without p
  std::vector<std::uint8_t> participant;
  std::vector<std::uint32_t> relevant;     // processes whose arrival some DEPART checks

  explicit Net(const System& s)
      : sys(s), P(static_cast<std::uint32_t>(s.procs.size())), S(static_cast<std::uint32_t>(s.semas.size())), R(s.rounds) {
    for (const Process& pr : s.procs) {
      const auto n = static_cast<std::uint32_t>(pr.program.size());
      len.push_back(n);
      std::uint32_t prev = 0;
      for (const Instr& in : pr.program) {
        structured = structured && in.round >= prev && in.round < R;
        prev = in.round;
      }
      if (R == 0 || n % R != 0) {
        periodic = false;
        continue;
      }
      const std::uint32_t b = n / R;
      for (std::uint32_t i = 0; i < n && periodic; ++i) {
        periodic = pr.program[i].round == i / b && same_but_round(pr.program[i], pr.program[i % b]);
      }
    }
    waiter.assign(S, kNone);
    for (const Semaphore& m : s.semas) init.push_back(m.initial);
    for (std::uint32_t p = 0; p < P; ++p) {
      const auto& prog = s.procs[p].program;
      period.push_back(periodic ? len[p] / R : len[p]);
      off.push_back(ops.size());
      for (std::uint32_t i = 0; i < period[p]; ++i) {
        const Instr& in = prog[i];
        Op o;
        if (in.marker == Marker::None) {
          o.sema = in.op.sema;
          o.add = effect(in.op);
          o.kind = is_wait(in.op.prim) ? Kind::Wait : Kind::Free;
          o.thr = s.compare == Compare::Ge ? in.op.value : in.op.value + 1;
          if (o.kind == Kind::Wait || o.add < 0) waiter[o.sema] = p;
        }
        ops.push_back(o);
      }
    }
    components();
    layout_rounds();
    for (std::uint32_t p = 0; p < P; ++p) participant.push_back(s.procs[p].participant ? 1 : 0);
    in_g.assign(std::size_t{P} * P, 0);
    others.resize(P);
    std::vector<std::uint8_t> checked(P, 0);
    for (std::uint32_t p = 0; p < P; ++p) {
      for (std::uint32_t q : s.procs[p].guarantee) {
        if (q == p || q >= P || in_g[std::size_t{p} * P + q]) continue;
        in_g[std::size_t{p} * P + q] = 1;
        others[p].push_back(q);
        checked[q] = 1;
      }
    }
    for (std::uint32_t q = 0; q < P; ++q) {
      if (checked[q] || participant[q]) relevant.push_back(q);
    }
  }

  [[nodiscard]] std::uint32_t start(std::uint32_t p, std::uint32_t j) const {
    if (periodic) return std::min(j, R) * period[p];
    return starts[std::size_t{p} * (R + 2) + j];
  }
  [[nodiscard]] std::uint32_t arrive_pc(std::uint32_t q, std::uint32_t r) const {
    return r < R ? arrive[std::size_t{q} * R + r] : kNone;
  }
  [[nodiscard]] const Instr& instr(std::uint32_t p, std::uint32_t pc) const { return sys.procs[p].program[pc]; }

 private:
  void components() {
    std::vector<std::uint32_t> up(P + S);
    std::iota(up.begin(), up.end(), 0u);
    auto find = [&](std::uint32_t x) {
      while (up[x] != x) x = up[x] = up[up[x]];
      return x;
    };
    for (std::uint32_t p = 0; p < P; ++p) {
      for (std::uint32_t i = 0; i < period[p]; ++i) {
        const Op& o = ops[off[p] + i];
        if (o.sema != kNone) up[find(p)] = find(P + o.sema);
      }
    }
    std::vector<std::uint32_t> id(P + S, kNone);
    for (std::uint32_t p = 0; p < P; ++p) {
      std::uint32_t& c = id[find(p)];
      if (c == kNone) {
        c = static_cast<std::uint32_t>(members.size());
        members.emplace_back();
      }
      comp.push_back(c);
      members[c].push_back(p);
    }
  }

  void layout_rounds() {
    arrive.assign(std::size_t{P} * R, kNone);
    departs.resize(R + 1);
    if (!periodic) starts.assign(std::size_t{P} * (R + 2), 0);
    for (std::uint32_t p = 0; p < P; ++p) {
      const auto& prog = sys.procs[p].program;
      // Periodic: round r's markers are round 0's shifted; the loop below sees them all.
      for (std::uint32_t pc = 0; pc < len[p]; ++pc) {
        const Instr& in = prog[pc];
        if (in.marker == Marker::Arrive && in.round < R) arrive[std::size_t{p} * R + in.round] = pc;
        if (in.marker == Marker::Depart) departs[std::min<std::uint32_t>(in.round, R)].push_back({p, pc});
      }
      if (periodic) continue;
      // start(p, j) = the first pc whose round is >= j: a suffix minimum over rounds.
      std::vector<std::uint32_t> first(R + 2, len[p]);
      for (std::uint32_t pc = len[p]; pc-- > 0;) first[std::min<std::uint32_t>(prog[pc].round, R)] = pc;
      for (std::uint32_t j = R; j-- > 0;) first[j] = std::min(first[j], first[j + 1]);
      first[R + 1] = len[p];
      std::copy(first.begin(), first.end(), starts.begin() + static_cast<std::ptrdiff_t>(std::size_t{p} * (R + 2)));
    }
  }
};

// ------------------------------------------------------------------------- runner ----

// Greedy execution over a base state: work state = base + what the runs since the last
// commit/rollback changed (kept in dirty lists, so both are proportional to the run).
class Runner {
 public:
  explicit Runner(const Net& n)
      : pc(n.P, 0), lim(n.P, 0), val(n.init), n_(n), base_pc_(n.P, 0), base_val_(n.init), queued_(n.P, 0),
        dirty_p_mark_(n.P, 0), dirty_s_mark_(n.S, 0) {}

  std::vector<std::uint32_t> pc, lim;
  std::vector<std::int64_t> val;
  std::vector<TraceEntry>* trace = nullptr;
  std::uint64_t executed = 0;

  void push(std::uint32_t p) {
    if (queued_[p]) return;
    queued_[p] = 1;
    stack_.push_back(p);
  }
  void run() {
    while (!stack_.empty()) {
      const std::uint32_t p = stack_.back();
      stack_.pop_back();
      queued_[p] = 0;
      advance(p);
    }
  }
  void commit() {
    for (std::uint32_t p : dirty_p_) base_pc_[p] = pc[p], dirty_p_mark_[p] = 0;
    for (std::uint32_t s : dirty_s_) base_val_[s] = val[s], dirty_s_mark_[s] = 0;
    dirty_p_.clear();
    dirty_s_.clear();
  }
  void rollback() {
    for (std::uint32_t p : dirty_p_) pc[p] = base_pc_[p], dirty_p_mark_[p] = 0;
    for (std::uint32_t s : dirty_s_) val[s] = base_val_[s], dirty_s_mark_[s] = 0;
    dirty_p_.clear();
    dirty_s_.clear();
  }
  // A new base: every process at pcs(p), values at their initial ones.
  template <class F>
  void rebase(F&& pcs) {
    rollback();
    for (std::uint32_t p = 0; p < n_.P; ++p) pc[p] = base_pc_[p] = pcs(p);
    val = base_val_ = n_.init;
  }
  [[nodiscard]] const std::vector<std::uint32_t>& dirty_procs() const { return dirty_p_; }

 private:
  void advance(std::uint32_t p) {
    std::uint32_t i = pc[p];
    const std::uint32_t end = lim[p];
    if (i >= end) return;
    if (!dirty_p_mark_[p]) dirty_p_mark_[p] = 1, dirty_p_.push_back(p);
    const Op* ops = n_.ops.data() + n_.off[p];
    const std::uint32_t b = n_.period[p];
    std::uint32_t k = n_.periodic ? i % b : i;
    for (; i < end; ++i) {
      const Op& o = ops[k];
      if (o.sema != kNone) {
        const std::int64_t before = val[o.sema];
        if (o.kind == Kind::Wait && before < o.thr) break;
        if (!dirty_s_mark_[o.sema]) dirty_s_mark_[o.sema] = 1, dirty_s_.push_back(o.sema);
        val[o.sema] = before + o.add;
        if (trace) trace->push_back(TraceEntry{0, p, i, before, before + o.add});
        if (o.add > 0) {
          const std::uint32_t w = n_.waiter[o.sema];
          if (w != kNone && w != p) push(w);
        }
      } else if (trace) {
        trace->push_back(TraceEntry{0, p, i});
      }
      if (++k == b) k = 0;
    }
    executed += i - pc[p];
    pc[p] = i;
  }

  const Net& n_;
  std::vector<std::uint32_t> base_pc_;
  std::vector<std::int64_t> base_val_;
  std::vector<std::uint8_t> queued_;
  std::vector<std::uint32_t> stack_;
  std::vector<std::uint8_t> dirty_p_mark_, dirty_s_mark_;
  std::vector<std::uint32_t> dirty_p_, dirty_s_;
};

struct Hold {
  std::uint32_t p, pc;
};

// One greedy run from the runner's base over `procs`, every process held at its first
// instruction of round j for j = from .. R+1 in turn (phase j = "the j-round system"),
// plus the extra holds.  at_phase(j) runs after each phase; true stops.  The run ends
// when no process waits at a phase hold (nothing later can change).
template <class F>
void phased(const Net& n, Runner& run, std::span<const std::uint32_t> procs, std::uint32_t from,
            std::span<const Hold> holds, F&& at_phase) {
  for (std::uint32_t j = from; j <= n.R + 1; ++j) {
    for (std::uint32_t p : procs) run.lim[p] = n.start(p, j);
    for (const Hold& h : holds) run.lim[h.p] = std::min(run.lim[h.p], h.pc);
    for (std::uint32_t p : procs) run.push(p);
    run.run();
    if (at_phase(j)) return;
    bool waiting = false;
    for (std::uint32_t p : procs) {
      const std::uint32_t s = n.start(p, j);
      waiting = waiting || (run.pc[p] == s && s < n.len[p] && run.lim[p] == s);
    }
    if (!waiting) return;
  }
}

// ----------------------------------------------------------------------- analysis ----

struct Fact {
  Verdict kind = Verdict::Ok;
  std::uint32_t p = kNone, d = 0, q = kNone, round = 0, phase = kNone;
  bool q_held = true;  // the witness holds q at its ARRIVE; false: q never arrives in that round
};

bool earlier(const Fact& a, const Fact& b) { return a.round != b.round ? a.round < b.round : a.phase < b.phase; }

class Analysis {
 public:
  Analysis(const System& sys, const PersistentOptions& opt) : sys_(sys), n_(sys), opt_(opt), run_(n_) {}

  CheckResult go();

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
  Clock::time_point t0_ = Clock::now();
  double last_progress_ = 0;
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

bool Analysis::out_of_budget() {
  if (budget_) return true;
  const double t = since(t0_);
  if (run_.executed > opt_.max_instructions || t > opt_.max_seconds) {
    budget_ = true;
    return true;
  }
  if (opt_.progress && t - last_progress_ >= 1.0) {
    last_progress_ = t;
    opt_.progress(run_.executed, t);
  }
  return false;
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
  const Fact f{Verdict::Ok, p, d, q, r, phase, q_held};
  if (n_.participant[q]) plain_broken_ = true;
  if (n_.in_g[std::size_t{p} * n_.P + q]) {
    Fact u = f;
    u.kind = Verdict::Unsafe;
    if (!unsafe_ || earlier(u, *unsafe_)) unsafe_ = u;
    k_unsafe_ = std::min(k_unsafe_, phase);
    return;
  }
  if (!n_.participant[q]) return;
  Fact g = f;
  g.kind = Verdict::GlobalUnsafe;
  if (n_.others[p].empty()) {  // nothing to have arrived: a global-only violation as it stands
    if (!global_ || earlier(g, *global_)) global_ = g;
    k_global_ = std::min(k_global_, phase);
    return;
  }
  // Global-only unless an UNSAFE exists (then the guarantee may not have arrived yet).
  if (!best_candidate_ || earlier(g, *best_candidate_)) best_candidate_ = g;
  k_candidate_ = std::min(k_candidate_, phase);
  if (candidates_.size() < 200'000) {
    candidates_.push_back(g);
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
    // UNSAFE below names a non-participant (found by the reference checker).
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

// The instructions a violation depends on, in run order: each process's prefix, and
// for each wait every earlier increment of its semaphore (only the waiter decreases
// it, so the wait sees the same value).  The values are recomputed for the slice.
std::vector<TraceEntry> slice(const System& sys, const std::vector<TraceEntry>& tr, const std::vector<std::size_t>& seeds) {
  std::vector<std::uint8_t> need(tr.size(), 0);
  for (std::size_t s : seeds) need[s] = 1;
  std::vector<std::uint32_t> upto(sys.procs.size(), 0);
  std::vector<std::size_t> incs_before(sys.semas.size(), 0);
  for (std::size_t i = tr.size(); i-- > 0;) {
    const TraceEntry& e = tr[i];
    const Instr& in = sys.procs[e.proc].program[e.pc];
    const bool op = in.marker == Marker::None;
    if (!need[i] && e.pc >= upto[e.proc] && !(op && effect(in.op) > 0 && i < incs_before[in.op.sema])) continue;
    need[i] = 1;
    upto[e.proc] = std::max(upto[e.proc], e.pc);
    if (op && is_wait(in.op.prim)) incs_before[in.op.sema] = std::max(incs_before[in.op.sema], i);
  }
  std::vector<TraceEntry> out;
  std::vector<std::int64_t> vals;
  for (const Semaphore& s : sys.semas) vals.push_back(s.initial);
  for (std::size_t i = 0; i < tr.size(); ++i) {
    if (!need[i]) continue;
    TraceEntry e = tr[i];
    const Instr& in = sys.procs[e.proc].program[e.pc];
    if (in.marker == Marker::None) {
      e.before = vals[in.op.sema];
      e.after = vals[in.op.sema] += effect(in.op);
    }
    out.push_back(e);
  }
  return out;
}

Counterexample Analysis::witness(Verdict kind, const Fact* f) {
  Counterexample cex;
  cex.kind = kind;
  cex.shortest = false;
  std::vector<TraceEntry> tr;
  run_.rebase([](std::uint32_t) { return 0u; });
  run_.trace = &tr;
  if (!f) {  // DEADLOCK / NOT_REUSABLE: T itself, reached by one free run
    for (std::uint32_t p = 0; p < n_.P; ++p) {
      run_.lim[p] = n_.len[p];
      run_.push(p);
    }
    run_.run();
  } else {
    for (std::uint32_t j = 1; j <= f->round && j <= n_.R; ++j) {  // to the base of the round
      for (std::uint32_t p = 0; p < n_.P; ++p) {
        run_.lim[p] = n_.start(p, j);
        run_.push(p);
      }
      run_.run();
    }
    for (std::uint32_t p = 0; p < n_.P; ++p) run_.lim[p] = n_.len[p];
    if (f->q_held) run_.lim[f->q] = std::min(run_.lim[f->q], n_.arrive_pc(f->q, f->round));
    if (kind == Verdict::GlobalUnsafe) run_.lim[f->p] = std::min(run_.lim[f->p], f->d);
    for (std::uint32_t p = 0; p < n_.P; ++p) run_.push(p);
    run_.run();
  }
  run_.trace = nullptr;
  std::vector<std::int32_t> vals(run_.val.begin(), run_.val.end());
  std::vector<std::size_t> seeds;
  if (!f) {
    cex.trace = std::move(tr);
    cex.what = kind == Verdict::Deadlock ? deadlock_what(sys_, run_.pc, vals) : residue_what(sys_, vals);
  } else {
    std::size_t at = tr.size();
    if (kind == Verdict::GlobalUnsafe) {
      tr.push_back(TraceEntry{0, f->p, f->d});
      for (std::size_t i = 0; i < at; ++i) {
        const TraceEntry& e = tr[i];
        if (n_.in_g[std::size_t{f->p} * n_.P + e.proc] && e.pc == n_.arrive_pc(e.proc, f->round)) seeds.push_back(i);
      }
    } else {
      at = 0;
      while (at < tr.size() && !(tr[at].proc == f->p && tr[at].pc == f->d)) ++at;
      tr.resize(std::min(tr.size(), at + 1));
    }
    seeds.push_back(tr.size() - 1);
    cex.trace = slice(sys_, tr, seeds);
    cex.what = kind == Verdict::Unsafe ? unsafe_what(sys_, f->p, f->round, f->q) : global_what(sys_, f->p, f->round, f->q);
    std::vector<std::int64_t> v(n_.init);
    for (const TraceEntry& e : cex.trace) {
      const Instr& in = sys_.procs[e.proc].program[e.pc];
      if (in.marker == Marker::None) v[in.op.sema] = e.after;
    }
    vals.assign(v.begin(), v.end());
  }
  for (std::size_t i = 0; i < cex.trace.size(); ++i) cex.trace[i].step = static_cast<std::uint32_t>(i + 1);
  cex.final_values = std::move(vals);
  run_.rebase([](std::uint32_t) { return 0u; });
  return cex;
}

CheckResult Analysis::go() {
  CheckResult res;
  res.engine = Engine::Persistent;
  if (!periodic_rounds()) {
    free_pass();
    general_rounds();
  }
  if (!budget_ && unsafe_ && !candidates_.empty()) {
    refine();
  } else if (!unsafe_ && best_candidate_) {  // no UNSAFE anywhere: every candidate is global-only
    if (!global_ || earlier(*best_candidate_, *global_)) global_ = best_candidate_;
    k_global_ = std::min(k_global_, k_candidate_);
  }
  res.runs = runs_;
  res.states = run_.executed;
  if (budget_) {
    res.verdict = Verdict::Budget;
    res.exhaustive = false;
    res.global = GlobalStatus::Unknown;
    res.note = run_.executed > opt_.max_instructions ? "instruction budget exhausted" : "time budget exhausted";
    res.seconds = since(t0_);
    return res;
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
  res.note = "persistent system: exact from " + std::to_string(runs_) +
             " greedy runs; the counterexample is a greedy run cut to what the violation depends on, "
             "not necessarily a shortest one";
  if (stopped_early_) res.note += "; stopped after the first UNSAFE rounds (the verdict cannot change)";
  if (candidates_cut_ && unsafe_ && !global_) res.note += "; global-only findings beside the UNSAFE not all decided";
  res.seconds = since(t0_);
  return res;
}

}  // namespace

Result<CheckResult> check_persistent(const System& sys, const PersistentOptions& opt) {
  const Qualification q = qualify(sys);
  if (!q.ok) return Error{Errc::InvalidArgument, "persistent engine", "a persistent system", q.reason};
  Analysis a(sys, opt);
  return a.go();
}

}  // namespace neffbar::model
