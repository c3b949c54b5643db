// Greedy runs of a persistent system (persistent.h): a base state, runs over it that
// can be committed or rolled back, and the phased run that holds every process at the
// start of round j for j = from .. R+1.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "neffbar/hot_loop.h"
#include "neffbar/model/engines/persistent/net.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::model::persistent {

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
  NEFFBAR_HOT_LOOP void run() {
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
  // What the runs since the last commit/rollback changed, each once: what those cost.
  [[nodiscard]] const std::vector<std::uint32_t>& dirty_procs() const { return dirty_p_; }
  [[nodiscard]] const std::vector<std::uint32_t>& dirty_semas() const { return dirty_s_; }

 private:
  // Inlined into run(), its one caller: called once per process a run wakes, and the
  // call was 4 % of the engine's instructions when persistent.cpp was split (bench-count).
  [[gnu::always_inline]] inline void advance(std::uint32_t p) {
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
        if (o.kind == OpKind::Wait && before < o.thr) break;
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

}  // namespace neffbar::model::persistent
