#include "neffbar/model/system/system.h"

#include <algorithm>

#include "neffbar/hex.h"

namespace neffbar::model {

std::uint32_t SemaSpace::intern(std::uint64_t addr, System& sys) {
  const std::optional<SemaRef> ref = resolve(mapping_, addr);
  // Mapped semaphores are keyed by block and index (every window of one semaphore is the
  // same one); unmapped addresses by themselves, in a map of their own, so no address
  // can be taken for a mapped semaphore.
  auto& index = ref ? mapped_ : unmapped_;
  const std::uint64_t key = ref ? ref->key() : addr;
  if (const auto it = index.find(key); it != index.end()) return it->second;
  const auto idx = static_cast<std::uint32_t>(sys.semas.size());
  std::string name;
  if (ref) {
    const auto n = names_.find(ref->block_base);
    name = (n != names_.end() ? n->second : hex(ref->block_base)) + "#" + std::to_string(ref->index);
  } else {
    name = "unmapped:" + hex(addr);
  }
  sys.semas.push_back(Semaphore{std::move(name), addr, 0});
  index.emplace(key, idx);
  return idx;
}

Arrivals::Arrivals(const System& sys) : rounds_(sys.rounds) {
  for (const Process& pr : sys.procs) {
    const Program& prog = pr.program;
    Period per;
    per.first = last_.size();
    // A body repeated with rounds of its own: its table, read at r % body_rounds.
    const bool periodic = prog.repeat() > 1;
    per.rounds = periodic ? prog.body_rounds() : std::max<std::uint32_t>(rounds_, 1);
    per.length = periodic ? static_cast<std::uint32_t>(prog.body().size()) : 0;
    last_.resize(last_.size() + per.rounds, kNever);
    const std::vector<Instr>& body = prog.body();
    for (std::uint32_t pc = 0; pc < body.size(); ++pc) {
      const Instr& in = body[pc];
      if (in.marker == Marker::Arrive && in.round < per.rounds && in.round < rounds_) last_[per.first + in.round] = pc;
    }
    period_.push_back(per);
  }
}

std::string describe(const System& sys, std::uint32_t proc, std::uint32_t pc) {
  const Process& p = sys.procs[proc];
  if (pc >= p.program.size()) return p.name + ": (end)";
  const Instr& in = p.program[pc];
  std::string s = p.name + ": ";
  if (in.marker == Marker::Arrive) {
    s += "ARRIVE";
  } else if (in.marker == Marker::Depart) {
    s += "DEPART";
  } else {
    const SemaOp& op = in.op;
    const std::string& sem = sys.semas[op.sema].name;
    s += std::string(prim_name(op.prim)) + "(" + sem;
    switch (op.prim) {
      case Prim::Inc: break;
      case Prim::IncVal: s += ", +" + std::to_string(op.value); break;
      case Prim::WaitGeAndDec:
        s += (sys.compare == Compare::Ge ? " >= " : " > ") + std::to_string(op.value) + ", -" + std::to_string(op.dec);
        break;
      case Prim::WaitGe: s += (sys.compare == Compare::Ge ? " >= " : " > ") + std::to_string(op.value); break;
      case Prim::WaitEqAndInc:
      case Prim::WaitEqAndClear: s += " == " + std::to_string(op.value); break;
    }
    s += ")";
  }
  s += "  [round " + std::to_string(in.round);
  if (in.step != 0xFF) s += ", step " + std::to_string(in.step) + " lane " + std::to_string(in.lane);
  s += "]";
  return s;
}

std::string listing(const System& sys) {
  std::string out = "rounds " + std::to_string(sys.rounds) + ", compare " + std::string(enum_name(sys.compare)) + ", initial:";
  for (const Semaphore& m : sys.semas) out += " " + m.name + "=" + std::to_string(m.initial);
  out += "\n";
  for (std::uint32_t p = 0; p < sys.procs.size(); ++p) {
    out += sys.procs[p].name + (sys.procs[p].participant ? " (participant)" : "") + " guarantee:";
    for (const std::uint32_t q : sys.procs[p].guarantee) out += " " + std::to_string(q);
    out += "\n";
    for (std::uint32_t pc = 0; pc < sys.procs[p].program.size(); ++pc) {
      out += "  " + std::to_string(pc) + ": " + describe(sys, p, pc) + "\n";
    }
  }
  return out;
}

std::size_t instruction_count(const System& sys) {
  std::size_t n = 0;
  for (const Process& p : sys.procs) n += p.program.size();
  return n;
}

ValueBounds value_bounds(const System& sys) {
  ValueBounds b;
  for (const Semaphore& m : sys.semas) {
    b.lo.push_back(m.initial);
    b.hi.push_back(m.initial);
  }
  for (const Process& pr : sys.procs) {
    const auto times = static_cast<std::int64_t>(pr.program.repeat());  // each run of the body adds its effects
    for (const Instr& in : pr.program.body()) {
      if (in.marker != Marker::None || in.op.sema >= sys.semas.size()) continue;
      const std::int64_t e = effect(in.op) * times;
      (e > 0 ? b.hi : b.lo)[in.op.sema] += e;
    }
  }
  return b;
}

}  // namespace neffbar::model
