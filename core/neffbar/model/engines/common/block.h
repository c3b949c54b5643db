// Block execution for the explicit search and random schedules: run one process's
// atomic block on a value file, detect the violations (UNSAFE, the global property,
// OVERFLOW) and word them (counterexample.h).
#pragma once

#include <string>
#include <vector>

#include "neffbar/model/engines/common/compiled.h"
#include "neffbar/model/system/counterexample.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::model::detail {

enum class BlockStatus : std::uint8_t { Fired, Blocked, Violation };

struct BlockResult {
  BlockStatus status = BlockStatus::Blocked;
  bool unsafe = false;         // a DEPART broke its guarantee (when the block kept going)
  Verdict kind = Verdict::Ok;
  std::string what;
  bool departed = false;       // the block executed a DEPART
  bool global_broken = false;  // DEPART with its guarantee held and some participant not arrived (GLOBAL_UNSAFE)
  bool before_a_participant = false;  // DEPART with some participant not arrived, guarantee held or not
  std::string global_what;
  std::uint32_t global_pc = 0;
};

struct BlockOptions {
  bool messages = false;    // word the violations (counterexample.h); the search does not need them
  bool keep = false;        // keep the values of a block that fired (else they are restored)
  bool keep_going = false;  // a broken guarantee is recorded (unsafe) and the block goes on (collect_all)
  std::vector<TraceEntry>* trace = nullptr;  // append the executed instructions
  std::uint32_t step = 0;   // their atomic step number
};

// Runs p's atomic block [pcs[p], end) on vals: the one place that executes instructions
// for the explicit search and random schedules, and that says what a violation is.
template <class Pc>
BlockResult run_block(const Compiled& c, const Pc* pcs, std::uint32_t p, std::uint32_t end,
                      std::vector<std::int32_t>& vals, const BlockOptions& opt = {}) {
  const bool with_messages = opt.messages, keep = opt.keep, keep_going = opt.keep_going;
  std::vector<TraceEntry>* const trace = opt.trace;
  const std::uint32_t step_no = opt.step;
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
      // The first participant that has not arrived: the global line is broken by this
      // DEPART whether or not its guarantee holds (GLOBAL_UNSAFE only if it does).
      std::uint32_t absent = kNone;
      for (std::uint32_t q : c.participants) {
        if (q != p && q < c.P && !c.arrived(pcs, q, in.round)) {  // no such process: ignored
          absent = q;
          break;
        }
      }
      r.before_a_participant = r.before_a_participant || absent != kNone;
      for (std::uint32_t q : sys.procs[p].guarantee) {
        if (q != p && q < c.P && !c.arrived(pcs, q, in.round)) {  // no such process: ignored
          r.kind = Verdict::Unsafe;
          if (with_messages) {
            r.what = unsafe_what(sys, p, in.round, q);
          }
          if (keep_going) {
            r.unsafe = true;
            break;
          }
          r.status = BlockStatus::Violation;
          if (trace) trace->push_back(TraceEntry{step_no, p, pc});
          restore();
          return r;
        }
      }
      r.departed = true;
      if (!r.global_broken && !r.unsafe && absent != kNone) {
        r.global_broken = true;
        r.global_pc = pc;
        if (with_messages) {
          r.global_what = global_what(sys, p, in.round, absent);
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
      r.status = BlockStatus::Violation;
      r.kind = Verdict::Overflow;
      if (with_messages) r.what = describe(sys, p, pc) + " overflows " + sys.semas[in.op.sema].name + " (value " + std::to_string(before) + ")";
      if (trace) trace->push_back(TraceEntry{step_no, p, pc, before, before});
      restore();
      return r;
    }
    undo.emplace_back(in.op.sema, before);
    if (trace) trace->push_back(TraceEntry{step_no, p, pc, before, vals[in.op.sema]});
  }
  r.status = BlockStatus::Fired;
  if (!keep) restore();
  return r;
}

template <class Pc>
std::string blocked_summary(const Compiled& c, const Pc* pcs, const std::vector<std::int32_t>& vals) {
  const std::vector<std::uint32_t> wide(pcs, pcs + c.P);
  return deadlock_what(c.sys, wide, vals);
}

}  // namespace neffbar::model::detail
