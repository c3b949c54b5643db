#include "neffbar/model/checker.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <random>

#include "neffbar/model/symmetry.h"

namespace neffbar::model {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
// The explicit search keeps, per process, its effect on every semaphore it touches
// after each pc; past this many entries (2 GiB) the system is too large for it.
constexpr std::size_t kMaxPrefixEntries = std::size_t{1} << 28;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// ------------------------------------------------------------ compiled system ----
struct Compiled {
  const System& sys;
  std::uint32_t P = 0;
  std::vector<std::uint32_t> len;
  std::vector<std::vector<std::uint32_t>> block_end;   // [p][pc] -> end of the atomic block
  std::vector<std::vector<std::uint32_t>> touched;     // [p] -> semaphores p touches
  std::vector<std::vector<std::int64_t>> prefix;       // [p][pc*|touched|+k] effect sums
  std::vector<std::vector<std::uint32_t>> arrive_pc;   // [p][round]
  std::vector<std::vector<std::uint8_t>> ample_ok;     // [p][pc]: block has no marker, only movers
  bool overflow_possible = false;                      // some semaphore could leave int32
  std::vector<std::int32_t> init;
  std::vector<std::uint32_t> participants;

  std::size_t prefix_entries = 0;                      // size of the prefix tables (0 without them)

  Compiled(const System& s, bool reduce, bool prefix_sums = true) : sys(s), P(static_cast<std::uint32_t>(s.procs.size())) {
    for (const Semaphore& m : s.semas) init.push_back(m.initial);
    // Which processes decrease / equality-test each semaphore (for the mover tests).
    const std::size_t S = s.semas.size();
    std::vector<std::vector<std::uint32_t>> decreasers(S), eq_waiters(S);
    for (std::uint32_t p = 0; p < P; ++p) {
      for (const Instr& in : s.procs[p].program) {
        if (in.marker != Marker::None) continue;
        const Prim k = in.op.prim;
        if (effect(in.op) < 0 || k == Prim::WaitEqAndClear) decreasers[in.op.sema].push_back(p);
        if (k == Prim::WaitEqAndInc || k == Prim::WaitEqAndClear) eq_waiters[in.op.sema].push_back(p);
      }
    }
    auto only = [](const std::vector<std::uint32_t>& v, std::uint32_t p) {
      return std::all_of(v.begin(), v.end(), [p](std::uint32_t q) { return q == p; });
    };
    auto is_right = [&](std::uint32_t p, const Instr& in) {
      if (in.marker != Marker::None) return false;
      const Prim k = in.op.prim;
      return (k == Prim::WaitGe || k == Prim::WaitGeAndDec) && only(decreasers[in.op.sema], p) &&
             eq_waiters[in.op.sema].empty();
    };
    auto is_left = [&](std::uint32_t p, const Instr& in) {
      if (in.marker != Marker::None) return false;
      const Prim k = in.op.prim;
      return (k == Prim::Inc || (k == Prim::IncVal && in.op.value >= 0)) && only(eq_waiters[in.op.sema], p);
    };
    for (std::uint32_t p = 0; p < P; ++p) {
      const auto& prog = s.procs[p].program;
      const auto n = static_cast<std::uint32_t>(prog.size());
      len.push_back(n);
      std::vector<std::uint32_t> ends(n + 1, n);
      for (std::uint32_t pc = 0; pc < n; ++pc) {
        std::uint32_t e = pc;
        if (reduce) {
          while (e < n && is_right(p, prog[e])) ++e;
          if (e < n && !is_left(p, prog[e])) ++e;  // the one non-mover
          while (e < n && is_left(p, prog[e])) ++e;
        }
        ends[pc] = std::max(e, pc + 1);
      }
      std::vector<std::uint8_t> ok(n + 1, 0);
      for (std::uint32_t pc = 0; pc < n; ++pc) {
        bool good = true;
        for (std::uint32_t i = pc; i < ends[pc] && good; ++i) good = is_right(p, prog[i]) || is_left(p, prog[i]);
        ok[pc] = good ? 1 : 0;
      }
      ample_ok.push_back(std::move(ok));
      block_end.push_back(std::move(ends));
      std::vector<std::uint32_t> t;
      for (const Instr& in : prog) {
        if (in.marker == Marker::None) t.push_back(in.op.sema);
      }
      std::sort(t.begin(), t.end());
      t.erase(std::unique(t.begin(), t.end()), t.end());
      const std::size_t entries = prefix_sums ? (std::size_t{n} + 1) * t.size() : 0;
      prefix_entries += entries;
      std::vector<std::int64_t> pre(entries <= kMaxPrefixEntries ? entries : 0, 0);
      for (std::uint32_t pc = 0; pc < n && !pre.empty(); ++pc) {
        std::copy_n(pre.begin() + pc * t.size(), t.size(), pre.begin() + (pc + 1) * t.size());
        if (prog[pc].marker != Marker::None) continue;
        const auto k = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), prog[pc].op.sema) - t.begin());
        pre[(pc + 1) * t.size() + k] += effect(prog[pc].op);
      }
      touched.push_back(std::move(t));
      prefix.push_back(std::move(pre));
      std::vector<std::uint32_t> arr(s.rounds, kNone);
      for (std::uint32_t pc = 0; pc < n; ++pc) {
        if (prog[pc].marker == Marker::Arrive && prog[pc].round < arr.size()) arr[prog[pc].round] = pc;
      }
      arrive_pc.push_back(std::move(arr));
      if (s.procs[p].participant) participants.push_back(p);
    }
    // Bounds on every semaphore over all executions: the sum of all positive (negative)
    // effects.  When they stay inside int32 no primitive can overflow, so incs and
    // decs on one semaphore commute and the partial-order reduction is exact.
    std::vector<std::int64_t> hi(init.begin(), init.end()), lo(init.begin(), init.end());
    for (const Process& pr : s.procs) {
      for (const Instr& in : pr.program) {
        if (in.marker != Marker::None) continue;
        const std::int64_t e = effect(in.op);
        (e > 0 ? hi : lo)[in.op.sema] += e;
      }
    }
    for (std::size_t i = 0; i < hi.size(); ++i) {
      overflow_possible = overflow_possible || hi[i] > INT32_MAX || lo[i] < INT32_MIN;
    }
  }

  void values(const std::uint16_t* pcs, std::vector<std::int32_t>& vals) const {
    thread_local std::vector<std::int64_t> acc;
    acc.assign(init.begin(), init.end());
    for (std::uint32_t p = 0; p < P; ++p) {
      const auto& t = touched[p];
      const std::int64_t* row = prefix[p].data() + std::size_t{pcs[p]} * t.size();
      for (std::size_t k = 0; k < t.size(); ++k) acc[t[k]] += row[k];
    }
    vals.assign(acc.size(), 0);
    for (std::size_t i = 0; i < acc.size(); ++i) {
      vals[i] = static_cast<std::int32_t>(std::clamp<std::int64_t>(acc[i], INT32_MIN, INT32_MAX));
    }
  }

  template <class Pc>
  [[nodiscard]] bool arrived(const Pc* pcs, std::uint32_t q, std::uint32_t round) const {
    const std::uint32_t a = round < arrive_pc[q].size() ? arrive_pc[q][round] : kNone;
    return a != kNone && pcs[q] > a;
  }
};

// ------------------------------------------------------------- block execution ----
enum class Status : std::uint8_t { Fired, Blocked, Violation };

struct BlockResult {
  Status status = Status::Blocked;
  bool unsafe = false;         // a DEPART broke its guarantee (when the block kept going)
  Verdict kind = Verdict::Ok;
  std::string what;
  std::uint32_t pc = 0;        // where the violation happened
  std::uint32_t culprit = kNone;  // UNSAFE: the process in the guarantee that had not arrived
  bool departed = false;       // the block executed a DEPART
  bool global_broken = false;  // DEPART with some participant not arrived
  std::string global_what;
  std::uint32_t global_pc = 0;
};

// Runs p's atomic block [pcs[p], end) on vals.  vals is restored unless the block
// fired and `keep` is set.
// With keep_going, a broken guarantee is recorded (unsafe) and the block goes on, so
// the search can explore past it (collect_all).
template <class Pc>
BlockResult run_block(const Compiled& c, const Pc* pcs, std::uint32_t p, std::uint32_t end,
                      std::vector<std::int32_t>& vals, bool with_messages, bool keep = false,
                      std::vector<TraceEntry>* trace = nullptr, std::uint32_t step_no = 0,
                      bool keep_going = false) {
  BlockResult r;
  const System& sys = c.sys;
  const auto& prog = sys.procs[p].program;
  thread_local std::vector<std::pair<std::uint32_t, std::int32_t>> undo;
  undo.clear();
  auto restore = [&] {
    for (auto it = undo.rbegin(); it != undo.rend(); ++it) vals[it->first] = it->second;
  };
  for (std::uint32_t pc = pcs[p]; pc < end; ++pc) {
    const Instr& in = prog[pc];
    if (in.marker == Marker::Depart) {
      for (std::uint32_t q : sys.procs[p].guarantee) {
        if (q != p && !c.arrived(pcs, q, in.round)) {
          r.kind = Verdict::Unsafe;
          r.pc = pc;
          r.culprit = q;
          if (with_messages) {
            r.what = unsafe_what(sys, p, in.round, q);
          }
          if (keep_going) {
            r.unsafe = true;
            break;
          }
          r.status = Status::Violation;
          if (trace) trace->push_back(TraceEntry{step_no, p, pc});
          restore();
          return r;
        }
      }
      r.departed = true;
      if (!r.global_broken && !r.unsafe) {
        for (std::uint32_t q : c.participants) {
          if (q != p && !c.arrived(pcs, q, in.round)) {
            r.global_broken = true;
            r.global_pc = pc;
            if (with_messages) {
              r.global_what = global_what(sys, p, in.round, q);
            }
            break;
          }
        }
      }
      if (trace) trace->push_back(TraceEntry{step_no, p, pc});
      continue;
    }
    if (in.marker == Marker::Arrive) {
      if (trace) trace->push_back(TraceEntry{step_no, p, pc});
      continue;
    }
    const std::int32_t before = vals[in.op.sema];
    const Outcome o = apply(vals, in.op, sys.compare);
    if (o == Outcome::Blocked) {
      restore();
      r = BlockResult{};
      return r;
    }
    if (o == Outcome::Overflow) {
      r.status = Status::Violation;
      r.kind = Verdict::Overflow;
      r.pc = pc;
      if (with_messages) r.what = describe(sys, p, pc) + " overflows " + sys.semas[in.op.sema].name + " (value " + std::to_string(before) + ")";
      if (trace) trace->push_back(TraceEntry{step_no, p, pc, before, before});
      restore();
      return r;
    }
    undo.emplace_back(in.op.sema, before);
    if (trace) trace->push_back(TraceEntry{step_no, p, pc, before, vals[in.op.sema]});
  }
  r.status = Status::Fired;
  if (!keep) restore();
  return r;
}

std::string blocked_summary(const Compiled& c, const std::uint16_t* pcs, const std::vector<std::int32_t>& vals) {
  const std::vector<std::uint32_t> wide(pcs, pcs + c.P);
  return deadlock_what(c.sys, wide, vals);
}

// ------------------------------------------------------------------ state set ----
class StateSet {
 public:
  // Starts small (most checks are small; a big first table costs page faults on every
  // call) and doubles at half load.
  explicit StateSet(std::uint32_t width) : width_(width), table_(1u << 8, 0) {}

  // (index, inserted)
  std::pair<std::uint32_t, bool> insert(const std::uint16_t* pcs) {
    if ((count_ + 1) * 2 > table_.size()) grow();
    const std::uint64_t mask = table_.size() - 1;
    for (std::uint64_t h = hash(pcs) & mask;; h = (h + 1) & mask) {
      const std::uint32_t slot = table_[h];
      if (slot == 0) {
        arena_.insert(arena_.end(), pcs, pcs + width_);
        table_[h] = ++count_;
        return {count_ - 1, true};
      }
      if (std::equal(pcs, pcs + width_, at(slot - 1))) return {slot - 1, false};
    }
  }
  [[nodiscard]] const std::uint16_t* at(std::uint32_t i) const { return arena_.data() + std::size_t{i} * width_; }
  [[nodiscard]] std::uint32_t size() const { return count_; }

 private:
  [[nodiscard]] std::uint64_t hash(const std::uint16_t* pcs) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ width_;
    for (std::uint32_t i = 0; i < width_; ++i) {
      h = (h ^ pcs[i]) * 0xBF58476D1CE4E5B9ull;
      h ^= h >> 29;
    }
    return h ^ (h >> 32);
  }
  void grow() {
    std::vector<std::uint32_t> old(table_.size() * 2, 0);
    old.swap(table_);
    const std::uint64_t mask = table_.size() - 1;
    for (std::uint32_t i = 0; i < count_; ++i) {
      std::uint64_t h = hash(at(i)) & mask;
      while (table_[h] != 0) h = (h + 1) & mask;
      table_[h] = i + 1;
    }
  }
  std::uint32_t width_;
  std::uint32_t count_ = 0;
  std::vector<std::uint16_t> arena_;
  std::vector<std::uint32_t> table_;
};

// What the search found and where: rebuilt concretely by rebuild().
struct Finding {
  Verdict kind = Verdict::Ok;
  std::uint32_t state = 0;
  std::uint32_t proc = kNone;  // slot (canonical frame) of the failing block, kNone for state verdicts
  std::uint32_t culprit = kNone;  // UNSAFE: who had not arrived
};

// Rebuilds a concrete counterexample from the parent chain (undoing the symmetry
// canonicalisation step by step) and re-detects the violation with messages.
Counterexample rebuild(const Compiled& c, const std::vector<std::uint32_t>& parent,
                       const std::vector<std::uint16_t>& via, const std::optional<Symmetry>& sym, const Finding& f) {
  std::vector<std::uint32_t> chain;
  for (std::uint32_t s = f.state; s != 0; s = parent[s]) chain.push_back(s);
  std::reverse(chain.begin(), chain.end());
  Counterexample cex;
  cex.kind = f.kind;
  std::vector<std::uint16_t> x(c.P, 0), canon(c.P), next(c.P);
  std::vector<std::uint32_t> perm(c.P), inv(c.P);
  for (std::uint32_t i = 0; i < c.P; ++i) perm[i] = inv[i] = i;
  std::vector<std::int32_t> vals;
  std::uint32_t step = 0;
  auto fire = [&](std::uint32_t slot, bool final_step) {
    const std::uint32_t p = inv[slot];
    c.values(x.data(), vals);
    const BlockResult r = run_block(c, x.data(), p, c.block_end[p][x[p]], vals, true, true, &cex.trace, ++step);
    if (final_step) {
      if (f.kind == Verdict::GlobalUnsafe) {
        cex.what = r.global_what;
        // keep the trace only up to the DEPART that broke the global property
        while (!cex.trace.empty() && cex.trace.back().step == step && cex.trace.back().pc > r.global_pc) cex.trace.pop_back();
      } else {
        cex.what = r.what;
      }
      return;
    }
    x[p] = static_cast<std::uint16_t>(c.block_end[p][x[p]]);
    if (sym) {
      sym->canonicalize(x, canon, perm);
      for (std::uint32_t i = 0; i < c.P; ++i) inv[perm[i]] = i;
    }
  };
  for (std::uint32_t s : chain) fire(via[s], false);
  if (f.proc != kNone) {
    fire(f.proc, true);
  } else {
    if (f.kind == Verdict::Deadlock) {
      // A state where no atomic block can run may still let a process take the first
      // waits of its block one by one (they only decrease single-consumer semaphores,
      // so they enable nobody).  Take them, so the trace ends in a state where no
      // single instruction can run.
      for (bool moved = true; moved;) {
        moved = false;
        for (std::uint32_t p = 0; p < c.P; ++p) {
          while (x[p] < c.len[p]) {
            c.values(x.data(), vals);
            if (run_block(c, x.data(), p, x[p] + 1u, vals, true, true, &cex.trace, ++step).status != Status::Fired) {
              --step;
              break;
            }
            ++x[p];
            moved = true;
          }
        }
      }
    }
    c.values(x.data(), vals);
    cex.what = f.kind == Verdict::Deadlock
                   ? blocked_summary(c, x.data(), vals) : residue_what(c.sys, vals);
  }
  c.values(x.data(), vals);
  cex.final_values = vals;
  return cex;
}

}  // namespace

CheckResult check(const System& sys, const CheckOptions& opt) {
  const auto t0 = Clock::now();
  CheckResult res;
  res.engine = Engine::Explicit;
  const Compiled c(sys, opt.reduce);
  const bool too_long = std::any_of(c.len.begin(), c.len.end(), [](std::uint32_t n) { return n >= 0xFFFF; });
  if (too_long || c.prefix_entries > kMaxPrefixEntries) {
    res.verdict = Verdict::Budget;
    res.exhaustive = false;
    res.note = too_long ? "too large for the explicit search: a program is longer than 65534 instructions"
                        : "too large for the explicit search: its value tables would need " +
                              std::to_string(c.prefix_entries * 8 >> 20) + " MiB";
    return res;
  }
  const std::optional<Symmetry> sym = opt.symmetry && opt.reduce ? Symmetry::detect(sys, c.block_end) : std::nullopt;
  res.symmetry_used = sym.has_value();
  if (sym) res.symmetry_group = sym->group_size();
  const bool por = opt.reduce && opt.por && !c.overflow_possible;
  res.por_used = por;

  StateSet states(c.P);
  std::vector<std::uint32_t> parent;
  std::vector<std::uint16_t> via;
  std::vector<std::uint16_t> cur(c.P), next(c.P), canon(c.P);
  std::vector<std::uint32_t> perm(c.P);
  std::vector<std::int32_t> vals;
  auto add = [&](std::uint32_t from, std::uint32_t slot) {
    const std::uint16_t* key = next.data();
    if (sym) {
      sym->canonicalize(next, canon, perm);
      key = canon.data();
    }
    const auto [idx, fresh] = states.insert(key);
    if (fresh) {
      parent.push_back(from);
      via.push_back(static_cast<std::uint16_t>(slot));
    }
  };
  std::fill(next.begin(), next.end(), 0);
  add(0, 0);

  std::optional<Finding> failure, global;
  std::optional<Finding> not_reusable;
  bool any_depart = false, stopped_early = false;
  double last_progress = 0;
  for (std::uint32_t i = 0; i < states.size(); ++i) {
    std::copy_n(states.at(i), c.P, cur.begin());
    c.values(cur.data(), vals);
    bool any = false, all_done = true, ample = false;
    // Partial-order reduction: a block with no marker whose actions are all movers is
    // invisible and independent of every other process's actions (see checker.h), so
    // {that block} is a persistent set; the state graph is acyclic (pcs only grow), so
    // no cycle proviso is needed.
    if (por) {
      for (std::uint32_t p = 0; p < c.P && !ample; ++p) {
        if (cur[p] >= c.len[p] || !c.ample_ok[p][cur[p]]) continue;
        const std::uint32_t end = c.block_end[p][cur[p]];
        if (run_block(c, cur.data(), p, end, vals, false).status != Status::Fired) continue;
        ample = any = true;
        all_done = false;
        ++res.transitions;
        std::copy(cur.begin(), cur.end(), next.begin());
        next[p] = static_cast<std::uint16_t>(end);
        add(i, p);
      }
    }
    for (std::uint32_t p = 0; p < c.P && !ample; ++p) {
      if (cur[p] >= c.len[p]) continue;
      all_done = false;
      const std::uint32_t end = c.block_end[p][cur[p]];
      const BlockResult r = run_block(c, cur.data(), p, end, vals, false, false, nullptr, 0, opt.collect_all);
      if (r.status == Status::Blocked) continue;
      any = true;
      if (r.unsafe) {
        res.found_mask |= bit(Verdict::Unsafe);
        if (!failure) failure = Finding{Verdict::Unsafe, i, p, r.culprit};
      }
      any_depart = any_depart || r.departed;
      ++res.transitions;
      if (r.global_broken && !global) global = Finding{Verdict::GlobalUnsafe, i, p};
      if (r.global_broken) res.found_mask |= bit(Verdict::GlobalUnsafe);
      if (r.status == Status::Violation) {
        res.found_mask |= bit(r.kind);
        if (!failure) failure = Finding{r.kind, i, p, r.culprit};
        any_depart = any_depart || r.kind == Verdict::Unsafe;
        continue;
      }
      std::copy(cur.begin(), cur.end(), next.begin());
      next[p] = static_cast<std::uint16_t>(end);
      add(i, p);
    }
    if (!any && !all_done) {
      res.found_mask |= bit(Verdict::Deadlock);
      if (!failure) failure = Finding{Verdict::Deadlock, i, kNone};
    }
    if (all_done && vals != c.init) {
      res.found_mask |= bit(Verdict::NotReusable);
      if (!not_reusable) not_reusable = Finding{Verdict::NotReusable, i, kNone};
    }
    if (failure && !opt.collect_all) {
      stopped_early = i + 1 < states.size();
      break;
    }
    if ((i & 0x3FFF) == 0) {
      const double t = since(t0);
      if (states.size() > opt.max_states || t > opt.max_seconds) {
        res.verdict = Verdict::Budget;
        res.exhaustive = false;
        res.note = states.size() > opt.max_states ? "state budget exhausted" : "time budget exhausted";
        break;
      }
      if (opt.progress && t - last_progress >= 1.0) {
        last_progress = t;
        opt.progress(states.size(), t);
      }
    }
  }
  res.states = states.size();
  if (res.verdict != Verdict::Budget) {
    // Severity order: a stopping failure, then residues, then the global property.
    std::optional<Finding> chosen = failure ? failure : not_reusable;
    if (!chosen && global && opt.guarantee == GuaranteeMode::Global) chosen = global;
    res.verdict = chosen ? chosen->kind : Verdict::Ok;
    if (chosen) res.cex = rebuild(c, parent, via, sym, *chosen);
  }
  if (global) res.global_finding = rebuild(c, parent, via, sym, *global);
  // The global line, never contradicting the verdict: a departure before a participant's
  // arrival breaks it whether or not that participant was in the guarantee.
  const bool unsafe_participant = res.verdict == Verdict::Unsafe && failure && failure->culprit != kNone &&
                                  sys.procs[failure->culprit].participant;
  res.global = global || unsafe_participant                     ? GlobalStatus::Broken
               : res.verdict == Verdict::Budget || stopped_early ? GlobalStatus::Unknown
               : any_depart                                      ? GlobalStatus::Holds
                                                                 : GlobalStatus::NotReached;
  res.seconds = since(t0);
  return res;
}

CheckResult random_check(const System& sys, std::uint64_t runs, std::uint64_t seed, std::uint32_t depth,
                         GuaranteeMode mode, double max_seconds) {
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
      run_block(c, pcs.data(), p, pcs[p] + 1u, vals, true, true, &cex.trace, ++n);
      ++pcs[p];
    }
    if (last != kNone) {
      std::vector<std::int32_t> probe = vals;
      const BlockResult r = run_block(c, pcs.data(), last, pcs[last] + 1u, probe, true, false, &cex.trace, ++n);
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
    for (std::uint64_t stepno = 0;; ++stepno) {
      // Highest-priority enabled process.
      std::uint32_t best = kNone;
      BlockResult best_r;
      for (std::uint32_t p = 0; p < c.P; ++p) {
        if (pcs[p] >= c.len[p]) continue;
        const BlockResult r = run_block(c, pcs.data(), p, pcs[p] + 1u, vals, false);
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
      run_block(c, pcs.data(), best, pcs[best] + 1u, vals, false, true);
      ++pcs[best];
      order.push_back(best);
      for (std::uint32_t k = 0; k < change.size(); ++k) {
        if (change[k] == stepno) prio[best] = k;  // lower than every initial priority
      }
    }
    res.states += order.size();  // instructions executed
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
