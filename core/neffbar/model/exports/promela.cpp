#include "neffbar/model/exports/promela.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace neffbar::model {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();

// Promela's lexer reads -2147483648 as -(2147483648), which is not an int.
std::string num(std::int64_t v) { return v == kMin ? "(-2147483647 - 1)" : std::to_string(v); }

// `s OP v` with v an int64: folded to true/false where v is outside int32 (Promela's
// int is 32-bit, so such a literal could not be written).
std::string compare(const std::string& s, const char* op, std::int64_t v) {
  const std::string o = op;
  if ((o == ">=" && v <= kMin) || (o == "<=" && v >= kMax)) return "true";
  if (v > kMax) return o == ">=" || o == ">" || o == "==" ? "false" : "true";
  if (v < kMin) return o == "<=" || o == "<" || o == "==" ? "false" : "true";
  return s + " " + o + " " + num(v);
}

std::string both(const std::string& a, const std::string& b) {
  if (a == "false" || b == "false") return "false";
  if (a == "true") return b;
  if (b == "true") return a;
  return a + " && " + b;
}

// s + d, in steps that stay inside int32 when the result does (d may not).
std::string add(const std::string& s, std::int64_t d) {
  if (d == 0) return "skip";
  std::string out;
  while (d > kMax || d < kMin) {
    const std::int64_t part = d > 0 ? kMax : kMin;
    out += s + " = " + s + " + (" + num(part) + "); ";
    d -= part;
  }
  return out + s + " = " + s + " + (" + num(d) + ")";
}

// How the rounds are written: every program run once (`iter` empty), or a loop over
// the body (promela_loop_runs); `iter` is the offset of the loop's run in a flag index.
struct Rounds {
  std::uint32_t runs = 1;
  std::string iter;
};
Rounds rounds_of(const System& sys) {
  const std::uint32_t runs = promela_loop_runs(sys);
  if (runs == 1) return {};
  const std::uint16_t B = sys.procs[0].program.body_rounds();
  return {runs, B == 1 ? " + rnd" : " + rnd * " + std::to_string(B)};
}

// One Promela bit per process and round, set at the ARRIVE that counts (Arrivals).
// Round r is the body's round: in a loop, the run's offset is added in Promela.
std::string flag(const System& sys, const Rounds& rs, std::uint32_t q, std::uint32_t r) {
  return "arr[" + std::to_string(q * sys.rounds + r) + rs.iter + "]";
}
std::string arrived(const System& sys, const Rounds& rs, const Arrivals& a, std::uint32_t q, std::uint32_t r) {
  return a.last(q, r) != Arrivals::kNever ? flag(sys, rs, q, r) : "false";
}

std::string depart(const System& sys, const Rounds& rs, const Arrivals& a, std::uint32_t p, std::uint32_t round,
                   const PromelaChecks& c) {
  std::string guaranteed = "true", global = "true";
  for (std::uint32_t q : sys.procs[p].guarantee) {
    if (q != p && q < sys.procs.size()) guaranteed = both(guaranteed, arrived(sys, rs, a, q, round));
  }
  for (std::uint32_t q = 0; q < sys.procs.size(); ++q) {
    if (q != p && sys.procs[q].participant) global = both(global, arrived(sys, rs, a, q, round));
  }
  std::string cond = "true";
  if (c.guarantees) cond = guaranteed;
  if (c.global) cond = c.guarantees ? both(guaranteed, global) : "!(" + guaranteed + ") || (" + global + ")";
  return cond == "true" ? "skip" : "assert(" + cond + ")";
}

std::string primitive(const System& sys, std::uint32_t pc, const SemaOp& op, const PromelaChecks& c) {
  const std::string s = "sem[" + std::to_string(op.sema) + "]";
  const char* ge = sys.compare == Compare::Ge ? ">=" : ">";
  std::string guard = "true";
  switch (op.prim) {
    case Prim::Inc:
    case Prim::IncVal: break;
    case Prim::WaitGeAndDec:
    case Prim::WaitGe: guard = compare(s, ge, op.value); break;
    case Prim::WaitEqAndInc:
    case Prim::WaitEqAndClear: guard = compare(s, "==", op.value); break;
  }
  if (op.prim == Prim::WaitEqAndClear) return "atomic { " + guard + " -> " + s + " = 0 }";
  const std::int64_t d = effect(op);
  // The result stays in int32 iff s lies in [kMin - d, kMax - d].
  const std::string fits = both(compare(s, ">=", kMin - d), compare(s, "<=", kMax - d));
  const std::string ok = both(guard, fits);
  const std::string label = "L" + std::to_string(pc);
  std::string out = label + ": if :: atomic { " + ok + " -> " + add(s, d) + " }";
  if (fits != "true") {
    out += " :: atomic { " + both(guard, "!(" + fits + ")") + " -> " + (c.overflow ? "assert(false); " : "") +
           "goto " + label + " }";
  }
  return out + " fi";
}

}  // namespace

std::uint32_t promela_loop_runs(const System& sys) {
  if (sys.procs.empty()) return 1;
  const Program& first = sys.procs[0].program;
  const std::uint32_t R = first.repeat(), B = first.body_rounds();
  const bool loop = R > 1 && std::uint64_t{R} * B == sys.rounds &&
                    std::all_of(sys.procs.begin(), sys.procs.end(), [&](const Process& pr) {
                      return pr.program.repeat() == R && pr.program.body_rounds() == B;
                    });
  return loop ? R : 1;
}

Status spin_limits(const System& sys) {
  const std::size_t spin_procs = sys.procs.size() + 2;  // + the reuse monitor + init
  if (spin_procs > kSpinMaxProcesses) {
    return Error{Errc::OutOfRange, "processes",
                 "at most " + std::to_string(kSpinMaxProcesses) + " SPIN processes (SPIN's limit; " +
                     std::to_string(kSpinMaxProcesses - 2) + " of the system plus the reuse monitor and init)",
                 std::to_string(spin_procs) + " (" + std::to_string(sys.procs.size()) + " of the system)"};
  }
  return {};
}

// The smallest Promela integer type that holds 0..n.
static const char* counter_type(std::size_t n) { return n <= 255 ? "byte" : n <= 32767 ? "short" : "int"; }

std::string to_promela(const System& sys, const PromelaChecks& checks) {
  const auto P = static_cast<std::uint32_t>(sys.procs.size());
  const Arrivals a(sys);
  const Rounds rs = rounds_of(sys);
  std::string out = "/* neffbar: " + std::to_string(P) + " processes, " + std::to_string(sys.semas.size()) +
                    " semaphores, " + std::to_string(sys.rounds) + " rounds, compare " +
                    (sys.compare == Compare::Ge ? ">=" : ">") + "; asserts:" + (checks.guarantees ? " guarantees" : "") +
                    (checks.global ? " global" : "") + (checks.reuse ? " reuse" : "") +
                    (checks.overflow ? " overflow" : "") + " */\n";
  // pan's state vector holds every global and ~8 bytes a process; past its default
  // 1024 bytes pan stops with "VECTORSZ too small".  A generous bound (ints 4 bytes,
  // bits a byte each, 20 bytes a process with its round counter) tells the user what
  // to compile with.
  const std::size_t vector_bound = 4 * sys.semas.size() + std::size_t{P} * sys.rounds + 20 * (std::size_t{P} + 2) + 64;
  if (vector_bound > 1024) {
    out += "/* state vector up to " + std::to_string(vector_bound) + " bytes: compile pan with -DVECTORSZ=" +
           std::to_string((vector_bound + 1023) / 1024 * 1024) + " */\n";
  }
  out += "int sem[" + std::to_string(std::max<std::size_t>(sys.semas.size(), 1)) + "];\n";
  out += "bit arr[" + std::to_string(std::max<std::size_t>(std::size_t{P} * sys.rounds, 1)) + "];\n";
  out += std::string(counter_type(P)) + " finished;\n\n";
  for (std::uint32_t p = 0; p < P; ++p) {
    out += "/* " + sys.procs[p].name + " */\nproctype p" + std::to_string(p) + "() {\n";
    const bool loop = rs.runs > 1;
    // A loop writes the body once (its pcs are the body's, its rounds the first run's).
    const std::vector<Instr> once = loop ? sys.procs[p].program.body() : std::vector<Instr>{};
    const Program& whole = sys.procs[p].program;
    const std::size_t n = loop ? once.size() : whole.size();
    const std::string indent = loop ? "      " : "  ";
    if (loop) {
      out += "  " + std::string(counter_type(rs.runs)) + " rnd = 0;\n  do\n  :: rnd < " + std::to_string(rs.runs) +
             " ->\n";
    }
    for (std::uint32_t pc = 0; pc < n; ++pc) {
      const Instr in = loop ? once[pc] : whole[pc];
      std::string st;
      if (in.marker == Marker::Arrive) {
        st = a.last(p, in.round) == pc ? flag(sys, rs, p, in.round) + " = 1" : "skip";
      } else if (in.marker == Marker::Depart) {
        st = depart(sys, rs, a, p, in.round, checks);
      } else {
        st = primitive(sys, pc, in.op, checks);
      }
      out += indent + st + ";\n";
    }
    if (loop) out += "      rnd++\n  :: else -> break\n  od;\n";
    out += "  finished++\n}\n\n";
  }
  // The reuse check: once every process finished, every semaphore is back.
  out += "proctype reuse() {\nend_wait:\n  finished == " + std::to_string(P) + " ->\n  assert(true";
  for (std::size_t s = 0; checks.reuse && s < sys.semas.size(); ++s) {
    out += " && sem[" + std::to_string(s) + "] == " + num(sys.semas[s].initial);
  }
  out += ")\n}\n\ninit {\n  atomic {\n";
  for (std::size_t s = 0; s < sys.semas.size(); ++s) {
    if (sys.semas[s].initial != 0) out += "    sem[" + std::to_string(s) + "] = " + num(sys.semas[s].initial) + ";\n";
  }
  for (std::uint32_t p = 0; p < P; ++p) out += "    run p" + std::to_string(p) + "();\n";
  out += "    run reuse()\n  }\n}\n";
  return out;
}

}  // namespace neffbar::model
