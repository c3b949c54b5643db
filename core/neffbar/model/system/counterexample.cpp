#include "neffbar/model/system/counterexample.h"

#include <algorithm>
#include <vector>

namespace neffbar::model {

std::string unsafe_what(const System& sys, std::uint32_t p, std::uint32_t round, std::uint32_t q) {
  return sys.procs[p].name + " departed round " + std::to_string(round) + " before " + sys.procs[q].name +
         " (in its guarantee) arrived";
}

std::string global_what(const System& sys, std::uint32_t p, std::uint32_t round, std::uint32_t q) {
  return sys.procs[p].name + " departed round " + std::to_string(round) + " before " + sys.procs[q].name +
         " arrived (global barrier property)";
}

std::string deadlock_what(const System& sys, std::span<const std::uint32_t> pcs, std::span<const std::int32_t> vals) {
  std::string s;
  for (std::uint32_t p = 0; p < sys.procs.size(); ++p) {
    if (pcs[p] >= sys.procs[p].program.size()) continue;
    const Instr& in = sys.procs[p].program[pcs[p]];
    if (!s.empty()) s += "; ";
    s += describe(sys, p, pcs[p]);
    if (in.marker == Marker::None) s += " with " + sys.semas[in.op.sema].name + " = " + std::to_string(vals[in.op.sema]);
  }
  return "no process can step: " + s;
}

std::string residue_what(const System& sys, std::span<const std::int32_t> vals) {
  std::string s;
  for (std::size_t i = 0; i < vals.size(); ++i) {
    if (vals[i] == sys.semas[i].initial) continue;
    if (!s.empty()) s += ", ";
    s += sys.semas[i].name + " = " + std::to_string(vals[i]) + " (initial " + std::to_string(sys.semas[i].initial) + ")";
  }
  return "all processes finished but semaphores are not back to their initial values: " + s;
}

bool replay(const System& sys, const Counterexample& cex) {
  const std::size_t P = sys.procs.size();
  const Arrivals arrivals(sys);
  std::vector<std::uint32_t> pcs(P, 0);
  std::vector<std::int32_t> vals;
  for (const Semaphore& s : sys.semas) vals.push_back(s.initial);
  auto arrived = [&](std::uint32_t q, std::uint32_t r) { return arrivals.arrived(q, r, pcs[q]); };
  for (std::size_t i = 0; i < cex.trace.size(); ++i) {
    const TraceEntry& e = cex.trace[i];
    if (e.proc >= P || pcs[e.proc] != e.pc || e.pc >= sys.procs[e.proc].program.size()) return false;
    // Steps are numbered from 1, one atomic step after the other (its entries share it).
    if (e.step != (i == 0 ? 1 : cex.trace[i - 1].step) && (i == 0 || e.step != cex.trace[i - 1].step + 1)) return false;
    const bool last = i + 1 == cex.trace.size();
    const Process& pr = sys.procs[e.proc];
    const Instr& in = pr.program[e.pc];
    // An earlier DEPART, or one on the way into a dead or finished state, is a step like any other.
    if (in.marker == Marker::Depart && last && (cex.kind == Verdict::Unsafe || cex.kind == Verdict::GlobalUnsafe)) {
      const bool unsafe = std::any_of(pr.guarantee.begin(), pr.guarantee.end(),
                                      [&](std::uint32_t q) { return q != e.proc && q < P && !arrived(q, in.round); });
      if (unsafe) return cex.kind == Verdict::Unsafe;
      if (cex.kind == Verdict::GlobalUnsafe) {
        for (std::uint32_t q = 0; q < P; ++q) {
          if (q != e.proc && sys.procs[q].participant && !arrived(q, in.round)) return true;
        }
        return false;
      }
    } else if (in.marker == Marker::None) {
      if (in.op.sema >= vals.size()) return false;
      const Outcome o = apply(vals, in.op, sys.compare);
      if (o == Outcome::Blocked) return false;
      if (o == Outcome::Overflow) return last && cex.kind == Verdict::Overflow;
    }
    ++pcs[e.proc];
  }
  bool all_done = true;
  for (std::uint32_t p = 0; p < P; ++p) all_done = all_done && pcs[p] >= sys.procs[p].program.size();
  if (cex.kind == Verdict::Deadlock) {
    if (all_done) return false;
    for (std::uint32_t p = 0; p < P; ++p) {
      if (pcs[p] >= sys.procs[p].program.size()) continue;
      const Instr& in = sys.procs[p].program[pcs[p]];
      if (in.marker != Marker::None || enabled(vals, in.op, sys.compare)) return false;
    }
    return true;
  }
  if (cex.kind == Verdict::NotReusable) {
    if (!all_done) return false;
    for (std::size_t s = 0; s < vals.size(); ++s) {
      if (vals[s] != sys.semas[s].initial) return true;
    }
  }
  return false;
}

std::string format_counterexample(const System& sys, const Counterexample& cex) {
  std::string out = std::string(verdict_name(cex.kind)) + ": " + cex.what + "\n";
  for (std::size_t i = 0; i < cex.trace.size(); ++i) {
    const TraceEntry& e = cex.trace[i];
    std::string line = "  " + std::to_string(i + 1) + ". " + describe(sys, e.proc, e.pc);
    const Instr& in = sys.procs[e.proc].program[e.pc];
    if (in.marker == Marker::None) {
      line += "   " + sys.semas[in.op.sema].name + ": " + std::to_string(e.before) + " -> " + std::to_string(e.after);
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace neffbar::model
