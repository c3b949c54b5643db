// The explicit search (checker.h): BFS over pcs with Lipton blocks, partial-order and
// symmetry reductions, shortest counterexamples rebuilt from the parent chain.
#include <algorithm>
#include <new>
#include <string>

#include "neffbar/model/block.h"
#include "neffbar/model/checker.h"
#include "neffbar/model/symmetry.h"

namespace neffbar::model {
namespace {

using namespace detail;

// ------------------------------------------------------------------ state set ----
// The visited set is also the BFS queue (states are expanded in insertion order) and
// holds each state's parent and the slot that led to it.  The pcs live in chunks of
// about 64 KiB, so growing never copies them (a doubling vector of 2 GiB would need
// 6 GiB for a moment) and a small check does not map and unmap a large block (under
// ASan every check paid an mmap, page faults and a TLB flush for a 1 MiB first
// chunk: most of a fuzz target's time), and bytes() / next_growth() let the search stop before the
// memory budget is passed.
class StateSet {
 public:
  // Starts small (most checks are small; a big first table costs page faults on every
  // call) and doubles at half load.
  explicit StateSet(std::uint32_t width) : width_(width), table_(1u << 8, 0) {
    while (shift_ > 0 && (std::size_t{2} << shift_) * std::max(width_, 1u) > kChunkBytes) --shift_;
  }

  // (index, inserted)
  std::pair<std::uint32_t, bool> insert(const std::uint16_t* pcs, std::uint32_t parent, std::uint16_t via) {
    if ((std::uint64_t{count_} + 1) * 2 > table_.size()) grow();
    const std::uint64_t mask = table_.size() - 1;
    for (std::uint64_t h = hash(pcs) & mask;; h = (h + 1) & mask) {
      const std::uint32_t slot = table_[h];
      if (slot == 0) {
        if ((count_ >> shift_) == chunks_.size()) {
          chunks_.emplace_back();
          chunks_.back().reserve(std::size_t{width_} << shift_);
        }
        if (parent_.size() == parent_.capacity()) {
          parent_.reserve(parent_.size() * 2 + 256);
          via_.reserve(parent_.capacity());
        }
        chunks_.back().insert(chunks_.back().end(), pcs, pcs + width_);
        parent_.push_back(parent);
        via_.push_back(via);
        table_[h] = ++count_;
        return {count_ - 1, true};
      }
      if (std::equal(pcs, pcs + width_, at(slot - 1))) return {slot - 1, false};
    }
  }
  [[nodiscard]] const std::uint16_t* at(std::uint32_t i) const {
    return chunks_[i >> shift_].data() + std::size_t{i & ((1u << shift_) - 1)} * width_;
  }
  [[nodiscard]] std::uint32_t size() const { return count_; }
  [[nodiscard]] const std::vector<std::uint32_t>& parents() const { return parent_; }
  [[nodiscard]] const std::vector<std::uint16_t>& vias() const { return via_; }
  // What the set holds now, and the most one more insert can add for a moment (a
  // table doubling keeps the old table until the new one is filled).
  [[nodiscard]] std::uint64_t bytes() const {
    return std::uint64_t{chunks_.size()} * (std::uint64_t{width_} << shift_) * 2 + table_.capacity() * 4 +
           parent_.capacity() * 4 + via_.capacity() * 2;
  }
  [[nodiscard]] std::uint64_t next_growth() const {
    return std::max({table_.size() * 8, (std::uint64_t{width_} << shift_) * 2, parent_.capacity() * 12 + 1536});
  }

 private:
  static constexpr std::size_t kChunkBytes = std::size_t{1} << 16;
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
  std::uint32_t shift_ = 19;  // states per chunk: 2^shift_, about kChunkBytes of pcs
  std::uint32_t count_ = 0;
  std::vector<std::vector<std::uint16_t>> chunks_;
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint16_t> via_;
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
  CheckResult res;
  res.engine = Engine::Explicit;
  std::uint32_t states_seen = 0;  // the visited set's size, for the progress line
  Deadline deadline(opt.max_seconds, opt.clock, [&](double t) {
    if (opt.progress) opt.progress(states_seen, t);
  });
  // The visited set stores 16-bit pcs: longer programs are refused before any work.
  const bool too_long = std::any_of(sys.procs.begin(), sys.procs.end(),
                                    [](const Process& p) { return p.program.size() >= 0xFFFF; });
  const auto too_large = [&](std::string why) {
    res.verdict = Verdict::Budget;
    res.exhaustive = false;
    res.note = "too large for the explicit search: " + why;
    res.seconds = deadline.seconds();
    return res;
  };
  if (too_long) return too_large("a program is longer than 65534 instructions");
  const Compiled c(sys, opt.reduce);
  if (c.prefix_entries > kMaxPrefixEntries) {
    return too_large("its value tables would need " + std::to_string(c.prefix_entries * 8 >> 20) + " MiB");
  }
  const std::uint64_t fixed_bytes = std::uint64_t{c.prefix_entries} * 8;
  if (fixed_bytes > opt.max_memory) {
    return too_large("its value tables need " + std::to_string(fixed_bytes >> 20) + " MiB, more than the memory budget");
  }
  const auto out_of_time = [&](const char* where) {
    res.verdict = Verdict::Budget;
    res.exhaustive = false;
    res.global = GlobalStatus::Unknown;
    res.note = std::string("time budget exhausted ") + where;
    res.seconds = deadline.seconds();
    return res;
  };
  if (deadline.check()) return out_of_time("before the search started");
  const std::optional<Symmetry> sym =
      opt.symmetry && opt.reduce ? Symmetry::detect(sys, opt.symmetry_hints, c.block_end, &deadline) : std::nullopt;
  if (deadline.expired()) return out_of_time("while verifying the symmetry");
  res.symmetry_used = sym.has_value();
  if (sym) res.symmetry_group = sym->group_size();
  const bool por = opt.reduce && opt.por && !c.overflow_possible;
  res.por_used = por;
  const std::uint64_t canon_work = sym ? sym->work() : 0;

  StateSet states(c.P);
  std::vector<std::uint16_t> cur(c.P), next(c.P), canon(c.P);
  std::vector<std::uint32_t> perm(c.P);
  std::vector<std::int32_t> vals;
  // Why the search stopped before it finished (empty: it did not).
  std::string stop;
  auto add = [&](std::uint32_t from, std::uint32_t slot) {
    const std::uint16_t* key = next.data();
    if (sym) {
      sym->canonicalize(next, canon, perm);
      key = canon.data();
    }
    if (states.bytes() + states.next_growth() + fixed_bytes > opt.max_memory) {
      stop = "memory budget exhausted (" + std::to_string(opt.max_memory >> 20) + " MiB: the visited set holds " +
             std::to_string(states.bytes() >> 20) + " MiB)";
      return;
    }
    const auto [idx, fresh] = states.insert(key, from, static_cast<std::uint16_t>(slot));
    states_seen = states.size();
    if (fresh && states.size() > opt.max_states) stop = "state budget exhausted";
    if (deadline.poll(canon_work + c.P) && stop.empty()) stop = "time budget exhausted";
  };
  std::fill(next.begin(), next.end(), 0);
  add(0, 0);

  std::optional<Finding> failure, global;
  std::optional<Finding> not_reusable;
  bool any_depart = false, stopped_early = false, line_broken = false, past_unsafe_unexplored = false;
  try {
    for (std::uint32_t i = 0; i < states.size() && stop.empty(); ++i) {
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
      for (std::uint32_t p = 0; p < c.P && !ample && stop.empty(); ++p) {
        if (cur[p] >= c.len[p]) continue;
        all_done = false;
        const std::uint32_t end = c.block_end[p][cur[p]];
        const BlockResult r = run_block(c, cur.data(), p, end, vals, {.keep_going = opt.collect_all});
        if (deadline.poll(end - cur[p] + 1) && stop.empty()) stop = "time budget exhausted";
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
      if (!stop.empty()) break;  // this state was not expanded completely: decide nothing from it
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
    }
  } catch (const std::bad_alloc&) {
    // The estimate above counts what the search owns; the allocator can still refuse
    // first (ulimit -v, other processes).  Every structure is as it was before the
    // failed allocation, so what was found stands.
    stop = "out of memory after " + std::to_string(states.size()) +
           " states (the allocator refused; lower --max-memory below what this process may allocate)";
  }
  res.states = states.size();
  // Severity order: a stopping failure, then residues, then the global property.  A
  // violation found before a budget ran out is the verdict all the same (it is a
  // concrete run); only the search's completeness is lost.
  // Under collect_all the answer is the mask of every kind, so an unfinished search
  // stays BUDGET (its mask is incomplete: the differential tests skip it).
  std::optional<Finding> chosen = failure ? failure : not_reusable;
  if (!chosen && global && opt.guarantee == GuaranteeMode::Global) chosen = global;
  if (!stop.empty() && opt.collect_all) chosen.reset();
  if (!stop.empty()) {
    res.exhaustive = false;
    res.note = chosen ? stop + " after the violation was found: the violation is real, but the search did not "
                               "finish, so other kinds of violation may be missed"
                      : stop;
  }
  res.verdict = chosen ? chosen->kind : stop.empty() ? Verdict::Ok : Verdict::Budget;
  if (chosen) res.cex = rebuild(c, states.parents(), states.vias(), sym, *chosen);
  if (global) res.global_finding = rebuild(c, states.parents(), states.vias(), sym, *global);
  // The global line, never contradicting the verdict: a departure before a participant's
  // arrival breaks it whether or not the guarantee held (an UNSAFE whose culprit is not
  // a participant can break it through another process: found by the reference checker).
  res.global = global || line_broken              ? GlobalStatus::Broken
               : !stop.empty() || stopped_early ? GlobalStatus::Unknown
               : any_depart                       ? GlobalStatus::Holds
                                                  : GlobalStatus::NotReached;
  res.seconds = deadline.seconds();
  return res;
}

}  // namespace neffbar::model
