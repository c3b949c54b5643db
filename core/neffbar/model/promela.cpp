#include "neffbar/model/promela.h"

namespace neffbar::model {
namespace {

std::string cmp(Compare c) { return c == Compare::Ge ? " >= " : " > "; }

std::string stmt(const System& sys, std::uint32_t p, const Instr& in, bool global_property) {
  const Process& pr = sys.procs[p];
  if (in.marker == Marker::Arrive) return "arrived[" + std::to_string(p) + "]++";
  if (in.marker == Marker::Depart) {
    std::string cond;
    auto need = [&](std::uint32_t q) {
      if (!cond.empty()) cond += " && ";
      cond += "arrived[" + std::to_string(q) + "] > " + std::to_string(in.round);
    };
    for (std::uint32_t q : pr.guarantee) need(q);
    if (global_property) {
      for (std::uint32_t q = 0; q < sys.procs.size(); ++q) {
        if (sys.procs[q].participant) need(q);
      }
    }
    return "assert(" + (cond.empty() ? std::string("true") : cond) + ")";
  }
  const std::string s = "sem[" + std::to_string(in.op.sema) + "]";
  const std::string v = std::to_string(in.op.value);
  switch (in.op.prim) {
    case Prim::Inc: return s + "++";
    case Prim::IncVal: return s + " = " + s + " + " + v;
    case Prim::WaitGeAndDec: return "atomic { " + s + cmp(sys.compare) + v + " -> " + s + " = " + s + " - " + std::to_string(in.op.dec) + " }";
    case Prim::WaitGe: return s + cmp(sys.compare) + v;
    case Prim::WaitEqAndInc: return "atomic { " + s + " == " + v + " -> " + s + "++ }";
    case Prim::WaitEqAndClear: return "atomic { " + s + " == " + v + " -> " + s + " = 0 }";
  }
  return "skip";
}

}  // namespace

std::string to_promela(const System& sys, bool global_property) {
  const std::size_t P = sys.procs.size();
  std::string out = "/* neffbar: " + std::to_string(P) + " processes, " + std::to_string(sys.semas.size()) +
                    " semaphores, compare " + (sys.compare == Compare::Ge ? ">=" : ">") + " */\n";
  out += "int sem[" + std::to_string(std::max<std::size_t>(sys.semas.size(), 1)) + "];\n";
  out += "byte arrived[" + std::to_string(P) + "];\n";
  out += "byte finished;\n\n";
  for (std::uint32_t p = 0; p < P; ++p) {
    out += "/* " + sys.procs[p].name + " */\nproctype p" + std::to_string(p) + "() {\n";
    for (const Instr& in : sys.procs[p].program) out += "  " + stmt(sys, p, in, global_property) + ";\n";
    out += "  finished++\n}\n\n";
  }
  // The reuse check: once every process finished, every semaphore is back.
  out += "proctype reuse() {\nend_wait:\n  finished == " + std::to_string(P) + " ->\n  assert(true";
  for (std::size_t s = 0; s < sys.semas.size(); ++s) {
    out += " && sem[" + std::to_string(s) + "] == " + std::to_string(sys.semas[s].initial);
  }
  out += ")\n}\n\ninit {\n  atomic {\n";
  for (std::size_t s = 0; s < sys.semas.size(); ++s) {
    if (sys.semas[s].initial != 0) out += "    sem[" + std::to_string(s) + "] = " + std::to_string(sys.semas[s].initial) + ";\n";
  }
  for (std::uint32_t p = 0; p < P; ++p) out += "    run p" + std::to_string(p) + "();\n";
  out += "    run reuse()\n  }\n}\n";
  return out;
}

}  // namespace neffbar::model
