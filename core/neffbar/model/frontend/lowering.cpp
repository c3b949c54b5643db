#include "neffbar/model/frontend/lowering.h"

#include <array>

#include "neffbar/bytes.h"
#include "neffbar/search.h"

namespace neffbar::model {
namespace {

constexpr std::uint32_t kStartCode = static_cast<std::uint32_t>(SemaId::HostBarrierId1);      // 7
constexpr std::uint32_t kNarrativeStart = static_cast<std::uint32_t>(SemaId::HostBarrierId0);  // 6
constexpr std::uint32_t kNarrativeDone = static_cast<std::uint32_t>(SemaId::HostBarrierId1);   // 7

std::array<int, 4> step_order(Lowering l) {
  if (l == Lowering::Table) return {0, 1, 2, 3};
  return {0, 3, 1, 2};
}

Instr prim(Prim p, std::uint32_t sema, std::int64_t value, std::int64_t dec, std::uint16_t round,
           std::uint8_t step = 0xFF, std::uint8_t lane = 0xFF) {
  return Instr{Marker::None, SemaOp{p, sema, value, dec}, round, step, lane};
}
Instr marker(Marker m, std::uint16_t round) { return Instr{m, SemaOp{}, round, 0xFF, 0xFF}; }

// Every program repeats round after round on the same semaphores: round 0 is lowered,
// and the program is that body run `rounds` times (program.h), never written out.
Program rounds_of(const Program& body, std::uint32_t rounds) { return Program::repeated(body.body(), rounds); }

// The device-barrier part of one leader's program for one round.
void lower_steps(const BarrierConfigs& cfg, Fabric fabric, Lowering lowering, const Hypotheses& h,
                 std::uint16_t round, SemaSpace& space, System& sys, Program& prog) {
  const TableImage& table = table_for(fabric);
  const auto& steps = cfg.device_barrier.barrier_step_config;
  auto lane_op = [&](int s, std::uint64_t addr, std::uint32_t target, bool entry, std::uint8_t lane) {
    const std::uint32_t sem = space.intern(addr, sys);
    const std::int64_t dec = h.dec == DecMode::One ? 1 : std::int64_t{target};
    prog.push_back(entry ? prim(Prim::Inc, sem, 1, 1, round, static_cast<std::uint8_t>(s), lane)
                         : prim(Prim::WaitGeAndDec, sem, target, dec, round, static_cast<std::uint8_t>(s), lane));
  };
  for (int s : step_order(lowering)) {
    // The step's operation, from the table via search (the row's first entry's type).
    const auto hit = search_fast(entry_at(table, s, 0).type, s, fabric);
    if (!hit || hit->op > static_cast<std::uint32_t>(BarrierOp::Exit)) continue;
    const bool entry = hit->op == static_cast<std::uint32_t>(BarrierOp::Entry);
    const StepConfig& st = steps[static_cast<std::size_t>(s)];
    for (std::uint8_t i = 0; i < 4; ++i) {
      if (st.barrier_sema[i] != 0) lane_op(s, st.barrier_sema[i], st.target_sema_val[i], entry, i);
    }
  }
  if (lowering == Lowering::Hierarchical) {
    // Closing intra-chip round: the step-0/3 semaphores shifted by 8 ids.
    const std::uint64_t shift = 8 * space.mapping().bytes_per_sema;
    for (std::uint8_t i = 0; i < 4; ++i) {
      if (steps[0].barrier_sema[i] != 0) lane_op(0, steps[0].barrier_sema[i] + shift, 1, true, i);
    }
    for (std::uint8_t i = 0; i < 4; ++i) {
      if (steps[3].barrier_sema[i] != 0) lane_op(3, steps[3].barrier_sema[i] + shift, steps[3].target_sema_val[i], false, i);
    }
  }
}

}  // namespace

Result<System> lower(const Composition& comp, const Hypotheses& h) {
  Result<Lowered> l = lower_with_hints(comp, h);
  if (!l) return l.error();
  return std::move(l->system);
}

namespace {

// Where each leader's semaphores live, in leader order k = chip * leaders + leader.
struct LeaderAddrs {
  std::uint64_t sp_base, start, host_done, leader_done, device_done;
  bool needs_proxy;  // from the chip's ctx (is_host_cc), not from the topology
};

Result<std::vector<LeaderAddrs>> leader_addrs(const Composition& comp, const Hypotheses& h) {
  const std::uint32_t start_id = h.roles == Roles::Code ? kStartCode : kNarrativeStart;
  const std::uint32_t host_done_id =
      h.roles == Roles::Code ? static_cast<std::uint32_t>(SemaId::HostBarrierId0) : kNarrativeDone;
  const auto offset = [&](std::uint32_t id, Window w) { return comp.mapping.sema_offset(id, w); };
  std::vector<LeaderAddrs> out;
  for (std::uint32_t c = 0; c < comp.topo.chips; ++c) {
    const std::vector<std::uint8_t>& ctx = comp.contexts[c].bytes;
    const Result<std::vector<std::uint64_t>> done = leader_done_inc_addrs(ctx, comp.mapping);
    if (!done) return done.error();
    if (done->size() < comp.topo.leaders) {  // the context names fewer leader SPs than the topology has
      return Error{Errc::ShortContext, "chip " + std::to_string(c) + " driver context leader count @0x90",
                   "at least " + std::to_string(comp.topo.leaders) + " (the topology's leaders)", std::to_string(done->size())};
    }
    const Result<bool> host_cc = is_host_cc(ctx);
    if (!host_cc) return host_cc.error();
    for (std::uint32_t l = 0; l < comp.topo.leaders; ++l) {
      const Result<std::uint64_t> sp = sp_sema_base(ctx, l);
      if (!sp) return sp.error();
      LeaderAddrs a{*sp, 0, 0, (*done)[l], *sp + offset(static_cast<std::uint32_t>(SemaId::BarrierId0), Window::Read), !*host_cc};
      if (h.host_addrs == HostAddrs::Config) {  // C1: the host view of the same bytes
        const HostBarrierConfig hv = decode_host(comp.configs[c * comp.topo.leaders + l]);
        a.start = hv.barrier_start;
        a.host_done = hv.barrier_done;
      } else {
        a.start = *sp + offset(start_id, Window::Inc);
        a.host_done = *sp + offset(host_done_id, Window::Read);
      }
      out.push_back(a);
    }
  }
  return out;
}

// Leader k: wait for its start, ARRIVE, the device barrier's steps, DEPART, signal done.
Process leader_process(const Composition& comp, const Hypotheses& h, std::uint32_t k, const LeaderAddrs& a,
                       SemaSpace& space, System& sys) {
  const std::uint32_t start_id = h.roles == Roles::Code ? kStartCode : kNarrativeStart;
  Process p;
  p.name = "c" + std::to_string(k / comp.topo.leaders) + ".l" + std::to_string(k % comp.topo.leaders);
  p.participant = true;
  p.guarantee = comp.guarantee[k];
  const BarrierConfigs cfg = *decode(comp.configs[k]);
  const std::uint32_t own_start = space.intern(a.sp_base + comp.mapping.sema_offset(start_id, Window::Read), sys);
  const std::uint32_t done = space.intern(a.leader_done, sys);
  p.program.push_back(prim(Prim::WaitGeAndDec, own_start, 1, 1, 0));
  p.program.push_back(marker(Marker::Arrive, 0));
  lower_steps(cfg, comp.topo.fabric, comp.topo.lowering, h, 0, space, sys, p.program);
  p.program.push_back(marker(Marker::Depart, 0));
  p.program.push_back(prim(Prim::Inc, done, 1, 1, 0));
  p.program = rounds_of(p.program, comp.topo.rounds);
  return p;
}

// The host: arm every leader's start, then wait every leader's done.
Process host_process(std::span<const LeaderAddrs> addrs, std::uint32_t rounds, SemaSpace& space, System& sys) {
  Process host;
  host.name = "host";
  for (const LeaderAddrs& a : addrs) host.program.push_back(prim(Prim::Inc, space.intern(a.start, sys), 1, 1, 0));
  for (const LeaderAddrs& a : addrs) host.program.push_back(prim(Prim::WaitGeAndDec, space.intern(a.host_done, sys), 1, 1, 0));
  host.program = rounds_of(host.program, rounds);
  return host;
}

// A barrier proxy (non-host-CC): forwards the device-side completion (id 2) to the
// host-side done semaphore.  In host-CC mode the two are the same object (the merge).
Process proxy_process(const std::string& leader, const LeaderAddrs& a, std::uint32_t rounds, SemaSpace& space,
                      System& sys) {
  Process px;
  px.name = "proxy." + leader;
  const std::uint32_t from = space.intern(a.device_done, sys);
  const std::uint32_t to = space.intern(a.host_done, sys);
  px.program.push_back(prim(Prim::WaitGeAndDec, from, 1, 1, 0));
  px.program.push_back(prim(Prim::Inc, to, 1, 1, 0));
  px.program = rounds_of(px.program, rounds);
  return px;
}

// Which leader's SP block each semaphore lies in (its slot and index there), for the
// symmetry check; -1 for a semaphore outside every leader's block.
void own_semaphores(const Composition& comp, const System& sys, SymmetryHints& hints) {
  const std::uint32_t N = comp.topo.chips * comp.topo.leaders, L = comp.topo.leaders;
  if (comp.topo.wiring == Wiring::PerPeer) {  // counting: 8 and 16 are counters, not "leader j"
    hints.leader_indexed = {{sema_index::kIntraArrival, 4}, {sema_index::kClosingRound, 4}};
  }
  for (const Semaphore& m : sys.semas) {
    std::int32_t slot = -1;
    std::uint32_t local = 0;
    if (const auto ref = resolve(comp.mapping, m.addr)) {
      for (std::uint32_t k = 0; k < N; ++k) {
        if (comp.sp_base(k / L, k % L) == ref->block_base) {
          slot = static_cast<std::int32_t>(k);
          local = ref->index;
        }
      }
    }
    hints.sema_slot.push_back(slot);
    hints.sema_local.push_back(local);
  }
}

}  // namespace

Result<Lowered> lower_with_hints(const Composition& comp, const Hypotheses& h) {
  Lowered out;
  System& sys = out.system;
  SymmetryHints& hints = out.hints;
  sys.compare = h.compare;
  sys.rounds = comp.topo.rounds;
  SemaSpace space(comp.mapping);
  const std::uint32_t C = comp.topo.chips;
  const std::uint32_t L = comp.topo.leaders;
  for (std::uint32_t c = 0; c < C; ++c) {
    for (std::uint32_t l = 0; l < L; ++l) {
      space.name_block(comp.sp_base(c, l), "c" + std::to_string(c) + ".l" + std::to_string(l));
    }
  }
  hints.chips = C;
  hints.leaders = L;
  const Result<std::vector<LeaderAddrs>> addrs = leader_addrs(comp, h);
  if (!addrs) return addrs.error();
  const std::uint32_t N = C * L;
  for (std::uint32_t k = 0; k < N; ++k) {
    sys.procs.push_back(leader_process(comp, h, k, (*addrs)[k], space, sys));
    hints.leader_proc.push_back(static_cast<std::int32_t>(k));
  }
  sys.procs.push_back(host_process(*addrs, comp.topo.rounds, space, sys));
  hints.proxy_proc.assign(N, -1);
  if (h.proxy) {
    for (std::uint32_t k = 0; k < N; ++k) {
      if (!(*addrs)[k].needs_proxy) continue;
      Process px = proxy_process(sys.procs[k].name, (*addrs)[k], comp.topo.rounds, space, sys);
      hints.proxy_proc[k] = static_cast<std::int32_t>(sys.procs.size());
      sys.procs.push_back(std::move(px));
    }
  }
  own_semaphores(comp, sys, hints);
  return out;
}

Result<System> lower_configs(std::span<const ConfigBytes> configs, Fabric fabric, Lowering lowering,
                             std::uint32_t rounds, const Hypotheses& h, const SemaMapping& mapping) {
  if (configs.empty()) return Error{Errc::InvalidArgument, "configs", "at least one config", "none"};
  if (const Status st = check_rounds(rounds); !st) return st.error();
  System sys;
  sys.compare = h.compare;
  sys.rounds = rounds;
  SemaSpace space(mapping);
  const auto n = static_cast<std::uint32_t>(configs.size());
  for (std::uint32_t k = 0; k < n; ++k) {
    Process p;
    p.name = "cfg" + std::to_string(k);
    p.participant = true;
    for (std::uint32_t q = 0; q < n; ++q) p.guarantee.push_back(q);
    const BarrierConfigs cfg = *decode(configs[k]);
    p.program.push_back(marker(Marker::Arrive, 0));
    lower_steps(cfg, fabric, lowering, h, 0, space, sys, p.program);
    p.program.push_back(marker(Marker::Depart, 0));
    p.program = rounds_of(p.program, rounds);
    sys.procs.push_back(std::move(p));
  }
  return sys;
}

}  // namespace neffbar::model
