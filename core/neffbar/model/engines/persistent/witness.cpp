// The persistent engine's counterexamples (analysis.h): a greedy run cut down to the
// instructions the violation depends on.
#include <algorithm>
#include <vector>

#include "neffbar/model/engines/persistent/analysis.h"
#include "neffbar/model/system/counterexample.h"

namespace neffbar::model::persistent {
namespace {

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

}  // namespace

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
    // Held where the analysis found the fact (phase j in 0..R+1, which every recorded
    // fact carries: every process at the start of its round j), not free to the end:
    // the greedy run would otherwise record every round of the processes it happens to
    // run first, only to be cut at the violation.
    for (std::uint32_t p = 0; p < n_.P; ++p) run_.lim[p] = n_.start(p, f->phase);
    if (f->q_held) run_.lim[f->q] = std::min(run_.lim[f->q], n_.arrive_pc(f->q, f->round));
    if (kind == Verdict::GlobalUnsafe) run_.lim[f->p] = std::min(run_.lim[f->p], f->d);
    for (std::uint32_t p = 0; p < n_.P; ++p) run_.push(p);
    run_.run();
  }
  run_.trace = nullptr;
  std::vector<std::size_t> seeds;
  if (!f) {
    const std::vector<std::int32_t> vals(run_.val.begin(), run_.val.end());
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
  }
  for (std::size_t i = 0; i < cex.trace.size(); ++i) cex.trace[i].step = static_cast<std::uint32_t>(i + 1);
  run_.rebase([](std::uint32_t) { return 0u; });
  return cex;
}

}  // namespace neffbar::model::persistent
