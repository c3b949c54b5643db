// The explicit search (checker.h): BFS over pcs with Lipton blocks, partial-order and
// symmetry reductions, shortest counterexamples rebuilt from the parent chain.
#include <algorithm>

#include "neffbar/model/block.h"
#include "neffbar/model/checker.h"
#include "neffbar/model/symmetry.h"

namespace neffbar::model {
namespace {

using namespace detail;

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
    // Steps before the last go on past a broken guarantee, as the search did (collect_all):
    // stopping there would drop the rest of the block from the trace (found by the
    // reference checker: a global finding through an UNSAFE block did not replay).
    const BlockResult r = run_block(c, x.data(), p, c.block_end[p][x[p]], vals, {true, true, !final_step, &cex.trace, ++step});
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
            if (run_block(c, x.data(), p, x[p] + 1u, vals, {true, true, false, &cex.trace, ++step}).status != Status::Fired) {
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
  // The visited set stores 16-bit pcs: longer programs are refused before any work.
  const bool too_long = std::any_of(sys.procs.begin(), sys.procs.end(),
                                    [](const Process& p) { return p.program.size() >= 0xFFFF; });
  const auto too_large = [&](std::string why) {
    res.verdict = Verdict::Budget;
    res.exhaustive = false;
    res.note = "too large for the explicit search: " + why;
    return res;
  };
  if (too_long) return too_large("a program is longer than 65534 instructions");
  const Compiled c(sys, opt.reduce);
  if (c.prefix_entries > kMaxPrefixEntries) {
    return too_large("its value tables would need " + std::to_string(c.prefix_entries * 8 >> 20) + " MiB");
  }
  const std::optional<Symmetry> sym = opt.symmetry && opt.reduce ? Symmetry::detect(sys, opt.symmetry_hints, c.block_end)
                                                                       : std::nullopt;
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
  bool any_depart = false, stopped_early = false, line_broken = false, past_unsafe_unexplored = false;
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
        if (run_block(c, cur.data(), p, end, vals).status != Status::Fired) continue;
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
      const BlockResult r = run_block(c, cur.data(), p, end, vals, {.keep_going = opt.collect_all});
      if (r.status == Status::Blocked) continue;
      any = true;
      if (r.unsafe) {
        res.found_mask |= bit(Verdict::Unsafe);
        if (!failure) failure = Finding{Verdict::Unsafe, i, p, r.culprit};
      }
      any_depart = any_depart || r.departed;
      line_broken = line_broken || r.before_a_participant;
      ++res.transitions;
      if (r.global_broken && !global) global = Finding{Verdict::GlobalUnsafe, i, p};
      if (r.global_broken) res.found_mask |= bit(Verdict::GlobalUnsafe);
      if (r.status == Status::Violation) {
        res.found_mask |= bit(r.kind);
        if (!failure) failure = Finding{r.kind, i, p, r.culprit};
        any_depart = any_depart || r.kind == Verdict::Unsafe;
        past_unsafe_unexplored = past_unsafe_unexplored || r.kind == Verdict::Unsafe;
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
      // States past a broken guarantee were not explored either (its DEPART added none),
      // whichever failure came first (found by the reference checker: an OVERFLOW first).
      stopped_early = i + 1 < states.size() || past_unsafe_unexplored;
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
  // arrival breaks it whether or not the guarantee held (an UNSAFE whose culprit is not
  // a participant can break it through another process: found by the reference checker).
  res.global = global || line_broken                            ? GlobalStatus::Broken
               : res.verdict == Verdict::Budget || stopped_early ? GlobalStatus::Unknown
               : any_depart                                      ? GlobalStatus::Holds
                                                                 : GlobalStatus::NotReached;
  res.seconds = since(t0);
  return res;
}

}  // namespace neffbar::model
