// The explicit search (search.h): BFS over pcs with Lipton blocks, partial-order and
// symmetry reductions, shortest counterexamples rebuilt from the parent chain.
#include <algorithm>
#include <new>
#include <string>

#include "neffbar/model/engines/common/block.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/engines/explicit/state_set.h"
#include "neffbar/model/engines/explicit/symmetry.h"

namespace neffbar::model {
namespace {

using namespace detail;

struct Finding {
  Verdict kind = Verdict::Ok;
  std::uint32_t state = 0;
  std::uint32_t proc = kNone;  // slot (canonical frame) of the failing block, kNone for state verdicts
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
    // stopping there would drop the rest of the block from the trace, and a global
    // finding through an UNSAFE block would not replay.
    const BlockResult r = run_block(c, x.data(), p, c.blocks[p].end(x[p]), vals,
                                    {.messages = true, .keep_going = !final_step, .trace = &cex.trace, .step = ++step});
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
    x[p] = static_cast<std::uint16_t>(c.blocks[p].end(x[p]));
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
            if (run_block(c, x.data(), p, x[p] + 1u, vals, {true, true, false, &cex.trace, ++step}).status != BlockStatus::Fired) {
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
  return cex;
}

// ------------------------------------------------------------------- the search ----
// What the search loop saw; the verdict is assembled from it (verdict_of()).
struct Findings {
  std::optional<Finding> failure, global, not_reusable;
  bool any_depart = false, stopped_early = false, line_broken = false, past_unsafe_unexplored = false;
  std::uint32_t found_mask = 0;
  std::uint64_t transitions = 0;
  std::optional<Cut> stop;  // the budget that stopped the search before it finished, if one did
};

// Breadth-first over the visited set (which is also the queue), each state expanded
// by every process's next atomic block, or by one invisible block (partial order).
class Search {
  // (first: the members below are built from them)
  const Compiled& c_;
  const CheckOptions& opt_;
  const std::optional<Symmetry>& sym_;
  const bool por_;
  Deadline& deadline_;
  const std::uint64_t fixed_bytes_;
  std::uint32_t& states_seen_;
  const std::uint64_t canon_work_;

 public:
  Search(const Compiled& c, const CheckOptions& opt, const std::optional<Symmetry>& sym, bool por,
         Deadline& deadline, std::uint64_t fixed_bytes, std::uint32_t& states_seen)
      : c_(c), opt_(opt), sym_(sym), por_(por), deadline_(deadline), fixed_bytes_(fixed_bytes),
        states_seen_(states_seen), canon_work_(sym ? sym->work() : 0), states(c.P), cur_(c.P), next_(c.P),
        canon_(c.P), perm_(c.P) {}

  void run() {
    std::fill(next_.begin(), next_.end(), 0);
    add(0, 0);
    try {
      for (std::uint32_t i = 0; i < states.size() && !f.stop; ++i) {
        if (!expand(i)) break;
      }
    } catch (const std::bad_alloc&) {
      // The estimate in add() counts what the search owns; the allocator can still refuse
      // first (ulimit -v, other processes).  Every structure is as it was before the
      // failed allocation, so what was found stands.
      f.stop = Cut{Stop::OutOfMemory, " after " + std::to_string(states.size()) +
                                          " states (the allocator refused; lower --max-memory below what this process "
                                          "may allocate)"};
    }
  }

  Findings f;
  StateSet states;

 private:
  void add(std::uint32_t from, std::uint32_t slot) {
    const std::uint16_t* key = next_.data();
    if (sym_) {
      sym_->canonicalize(next_, canon_, perm_);
      key = canon_.data();
    }
    if (states.bytes() + states.next_growth() + fixed_bytes_ > opt_.max_memory) {
      f.stop = Cut{Stop::Memory, " (" + std::to_string(opt_.max_memory >> 20) + " MiB: the visited set holds " +
                                     std::to_string(states.bytes() >> 20) + " MiB)"};
      return;
    }
    const auto [idx, fresh] = states.insert(key, from, static_cast<std::uint16_t>(slot));
    states_seen_ = states.size();
    if (fresh && states.size() > opt_.max_states) f.stop = Cut{Stop::States, ""};
    if (deadline_.poll(canon_work_ + c_.P) && !f.stop) f.stop = Cut{Stop::Time, ""};
  }

  // The successor of cur_ by p's block that ends at `end`.
  void add_successor(std::uint32_t i, std::uint32_t p, std::uint32_t end) {
    std::copy(cur_.begin(), cur_.end(), next_.begin());
    next_[p] = static_cast<std::uint16_t>(end);
    add(i, p);
  }

  // Partial-order reduction: a block with no marker whose actions are all movers is
  // invisible and independent of every other process's actions (see search.h), so
  // {that block} is a persistent set; the state graph is acyclic (pcs only grow), so
  // no cycle proviso is needed.  True when such a block was taken.
  bool expand_ample(std::uint32_t i) {
    for (std::uint32_t p = 0; p < c_.P; ++p) {
      if (cur_[p] >= c_.len[p] || !c_.blocks[p].movers_only(cur_[p])) continue;
      const std::uint32_t end = c_.blocks[p].end(cur_[p]);
      if (run_block(c_, cur_.data(), p, end, vals_).status != BlockStatus::Fired) continue;
      ++f.transitions;
      add_successor(i, p, end);
      return true;
    }
    return false;
  }

  // Expands state i; false when the search stops here (its first failure).
  bool expand(std::uint32_t i) {
    std::copy_n(states.at(i), c_.P, cur_.begin());
    c_.values(cur_.data(), vals_);
    const bool ample = por_ && expand_ample(i);
    bool any = ample, all_done = !ample;
    for (std::uint32_t p = 0; p < c_.P && !ample && !f.stop; ++p) {
      if (cur_[p] >= c_.len[p]) continue;
      all_done = false;
      const std::uint32_t end = c_.blocks[p].end(cur_[p]);
      const BlockResult r = run_block(c_, cur_.data(), p, end, vals_, {.keep_going = opt_.collect_all});
      if (deadline_.poll(end - cur_[p] + 1) && !f.stop) f.stop = Cut{Stop::Time, ""};
      if (r.status == BlockStatus::Blocked) continue;
      any = true;
      if (!record(i, p, r)) add_successor(i, p, end);
    }
    if (f.stop) return false;  // this state was not expanded completely: decide nothing from it
    if (!any && !all_done) {
      f.found_mask |= bit(Verdict::Deadlock);
      if (!f.failure) f.failure = Finding{Verdict::Deadlock, i, kNone};
    }
    if (all_done && vals_ != c_.init) {
      f.found_mask |= bit(Verdict::NotReusable);
      if (!f.not_reusable) f.not_reusable = Finding{Verdict::NotReusable, i, kNone};
    }
    if (f.failure && !opt_.collect_all) {
      // States past a broken guarantee were not explored either (its DEPART added none),
      // whichever failure came first (an OVERFLOW, say).
      f.stopped_early = i + 1 < states.size() || f.past_unsafe_unexplored;
      return false;
    }
    return true;
  }

  // Records what p's block did from state i; true when it ended in a violation (no successor).
  bool record(std::uint32_t i, std::uint32_t p, const BlockResult& r) {
    if (r.unsafe) {
      f.found_mask |= bit(Verdict::Unsafe);
      if (!f.failure) f.failure = Finding{Verdict::Unsafe, i, p};
    }
    f.any_depart = f.any_depart || r.departed;
    f.line_broken = f.line_broken || r.before_a_participant;
    ++f.transitions;
    if (r.global_broken && !f.global) f.global = Finding{Verdict::GlobalUnsafe, i, p};
    if (r.global_broken) f.found_mask |= bit(Verdict::GlobalUnsafe);
    if (r.status != BlockStatus::Violation) return false;
    f.found_mask |= bit(r.kind);
    if (!f.failure) f.failure = Finding{r.kind, i, p};
    f.any_depart = f.any_depart || r.kind == Verdict::Unsafe;
    f.past_unsafe_unexplored = f.past_unsafe_unexplored || r.kind == Verdict::Unsafe;
    return true;
  }

  std::vector<std::uint16_t> cur_, next_, canon_;
  std::vector<std::uint32_t> perm_;
  std::vector<std::int32_t> vals_;
};

// The verdict from what the search saw.  Severity order: a stopping failure, then
// residues, then the global property.  When a budget cut the search, a stopping failure
// found before the cut is the verdict all the same: the search explores states in one
// order, so the uncut search meets the same failure first and stops there too.  A
// residue or a global finding is not: the uncut search could still meet a stopping
// failure, so the verdict is BUDGET and the finding its counterexample (it is a concrete
// run).  Under collect_all the answer is the mask of every kind, so an unfinished search
// stays BUDGET without a counterexample (its mask is incomplete: the differential tests
// skip it).
void verdict_of(const Compiled& c, const CheckOptions& opt, const std::optional<Symmetry>& sym, const Search& s,
                CheckResult& res) {
  const Findings& f = s.f;
  const bool cut = f.stop.has_value();
  SearchStats& st = std::get<SearchStats>(res.stats);
  st.states = s.states.size();
  st.transitions = f.transitions;
  res.found_mask = f.found_mask;
  std::optional<Finding> chosen = f.failure ? f.failure : f.not_reusable;
  if (!chosen && f.global && opt.guarantee == GuaranteeMode::Global) chosen = f.global;
  if (cut && opt.collect_all) chosen.reset();
  const bool decided = chosen && (!cut || f.failure);  // a verdict the uncut search gives too
  if (cut) {
    res.exhaustive = false;
    res.note.cut = f.stop;
  }
  res.verdict = decided ? chosen->kind : cut ? Verdict::Budget : Verdict::Ok;
  if (chosen) res.cex = rebuild(c, s.states.parents(), s.states.vias(), sym, *chosen);
  if (f.global) res.global_finding = rebuild(c, s.states.parents(), s.states.vias(), sym, *f.global);
  // The global line, never contradicting the verdict: a departure before a participant's
  // arrival breaks it whether or not the guarantee held (an UNSAFE whose culprit is not
  // a participant can break it through another process).
  res.global = f.global || f.line_broken               ? GlobalStatus::Broken
               : f.stop || f.stopped_early        ? GlobalStatus::Unknown
               : f.any_depart                         ? GlobalStatus::Holds
                                                      : GlobalStatus::NotReached;
}

}  // namespace

CheckResult check_explicit(const System& sys, const CheckOptions& opt) {
  CheckResult res;
  res.engine = Engine::Explicit;
  SearchStats& st = res.stats.emplace<SearchStats>();
  std::uint32_t states_seen = 0;  // the visited set's size, for the progress line
  Deadline deadline(
      opt.max_seconds, opt.clock, [&](double t) {
        if (opt.progress) opt.progress({states_seen, WorkUnit::States, t});
      },
      opt.poll_cadence);
  const auto stopped = [&](Stop by, std::string detail) {
    res.verdict = Verdict::Budget;
    res.exhaustive = false;
    res.global = GlobalStatus::Unknown;
    res.note.cut = Cut{by, std::move(detail)};
    res.seconds = deadline.seconds();
    return res;
  };
  // The visited set stores 16-bit pcs: longer programs are refused before any work.
  const bool too_long = std::any_of(sys.procs.begin(), sys.procs.end(),
                                    [](const Process& p) { return p.program.size() >= 0xFFFF; });
  if (too_long) return stopped(Stop::TooLarge, ": a program is longer than 65534 instructions");
  const Compiled c(sys, opt.reduce, true, true, opt.max_memory / 8);  // tables past the budget: not allocated
  if (c.prefix_entries > kMaxPrefixEntries) {
    return stopped(Stop::TooLarge, ": its value tables would need " + std::to_string(c.prefix_entries * 8 >> 20) + " MiB");
  }
  const std::uint64_t fixed_bytes = std::uint64_t{c.prefix_entries} * 8;
  if (fixed_bytes > opt.max_memory) {
    return stopped(Stop::Memory, ": its value tables need " + std::to_string(fixed_bytes >> 20) + " MiB, more than the budget");
  }
  if (deadline.check()) return stopped(Stop::Time, " before the search started");
  std::optional<Symmetry> sym;
  if (opt.symmetry && opt.reduce) {
    sym = Symmetry::detect(sys, opt.symmetry_hints, c.blocks, &deadline);
    if (sym) st.symmetry_source = kSymmetryFromHints;
    if (!sym && opt.automorphisms && !deadline.expired()) {
      sym = Symmetry::automatic(sys, c.blocks, *opt.automorphisms, &st.automorphism_order, &deadline);
      if (sym) st.symmetry_source = std::string(opt.automorphisms->name());
    }
  }
  if (deadline.expired()) return stopped(Stop::Time, " while verifying the symmetry");
  st.symmetry_used = sym.has_value();
  if (sym) st.symmetry_group = sym->group_size();
  st.por_used = opt.reduce && opt.por && !c.overflow_possible;

  Search search(c, opt, sym, st.por_used, deadline, fixed_bytes, states_seen);
  search.run();
  verdict_of(c, opt, sym, search, res);
  res.seconds = deadline.seconds();
  return res;
}

}  // namespace neffbar::model
