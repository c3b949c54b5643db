#include "neffbar/model/frontend/composer.h"

#include <algorithm>
#include <span>

#include "neffbar/search.h"

namespace neffbar::model {
namespace {

Error bad(const std::string& what, const std::string& expected, std::uint64_t got) {
  return Error{Errc::InvalidArgument, what, expected, std::to_string(got)};
}

}  // namespace

std::vector<int> tier_lanes(Fabric f) {
  std::vector<int> lanes;
  const TableImage& t = table_for(f);
  for (int e = 0; e < t.sizes[1] && e < kEntries; ++e) {
    const std::uint32_t type = entry_at(t, 1, e).type;
    if (const auto hit = search_fast(type, 1, f)) lanes.push_back(hit->index);  // the lane is the index
  }
  return lanes;
}

std::optional<std::uint32_t> tier_partner(std::uint32_t chips, std::uint32_t chip, int lane) {
  if (lane < 0 || lane >= 31) return std::nullopt;
  const std::uint32_t p = chip ^ (1u << lane);
  if (p >= chips) return std::nullopt;
  return p;
}

Status check_rounds(std::uint32_t rounds) {
  if (!kRoundRange.contains(rounds)) return bad("rounds", kRoundRange.text(), rounds);
  return {};
}

Status check_ranges(const Topology& topo) {
  if (!kChipRange.contains(topo.chips)) return bad("chips", kChipRange.text(), topo.chips);
  if (!kLeaderRange.contains(topo.leaders)) {
    return bad("leaders", kLeaderRange.text() + " (NEFF_DEVICE_BARRIER_MAX_LEADERS)", topo.leaders);
  }
  return check_rounds(topo.rounds);
}

namespace {

// soc_addr of semaphore `id` of leader (c, l): SP base + read-window offset, as
// encd_prep_ncfw_barr_config writes it (libnrt @0x255721: sp_sema_r_ofst).
std::uint64_t sema_addr(const Composition& comp, std::uint32_t c, std::uint32_t l, std::uint32_t id) {
  return comp.sp_base(c, l) + comp.mapping.sema_offset(id, Window::Read);
}

// Intra-chip: steps 0 (ENTRY) and 3 (EXIT) of leader (c, l); adds the chip's leaders to g.
void wire_intra_chip(const Composition& comp, std::uint32_t c, std::uint32_t l, std::array<StepConfig, 4>& steps,
                     std::vector<std::uint32_t>& g) {
  const std::uint32_t L = comp.topo.leaders;
  for (std::uint32_t j = 0; j < L; ++j) {
    g.push_back(c * L + j);
    if (comp.topo.wiring == Wiring::PerPeer) {
      steps[0].barrier_sema[j] = sema_addr(comp, c, j, sema_index::kIntraArrival + l);  // tell leader j "l arrived"
      steps[0].target_sema_val[j] = 1;
      steps[3].barrier_sema[j] = sema_addr(comp, c, l, sema_index::kIntraArrival + j);  // wait "j arrived"
      steps[3].target_sema_val[j] = 1;
    } else {
      steps[0].barrier_sema[j] = sema_addr(comp, c, j, sema_index::kIntraArrival);  // j's single counter
      steps[0].target_sema_val[j] = 1;
    }
  }
  if (comp.topo.wiring == Wiring::Counting) {
    steps[3].barrier_sema[0] = sema_addr(comp, c, l, sema_index::kIntraArrival);
    steps[3].target_sema_val[0] = L;
  }
}

// Tiers: steps 1 (ENTRY) and 2 (EXIT); lane i links to leader l of chip c ^ 2^i.  Adds
// the partners (Table: leader l of each; Hierarchical: all their leaders) to g.
void wire_tiers(const Composition& comp, std::span<const int> lanes, std::uint32_t c, std::uint32_t l,
                std::array<StepConfig, 4>& steps, std::vector<std::uint32_t>& g) {
  const std::uint32_t L = comp.topo.leaders;
  std::uint32_t partners = 0;
  int first_lane = -1;
  for (int i : lanes) {
    const auto p = tier_partner(comp.topo.chips, c, i);
    if (!p) continue;
    ++partners;
    if (first_lane < 0) first_lane = i;
    const auto lane = static_cast<std::size_t>(i);
    if (comp.topo.lowering == Lowering::Table) {
      g.push_back(*p * L + l);
    } else {
      for (std::uint32_t j = 0; j < L; ++j) g.push_back(*p * L + j);
    }
    if (comp.topo.wiring == Wiring::PerPeer) {
      steps[1].barrier_sema[lane] = sema_addr(comp, *p, l, sema_index::kTierArrival + static_cast<std::uint32_t>(i));
      steps[1].target_sema_val[lane] = 1;
      steps[2].barrier_sema[lane] = sema_addr(comp, c, l, sema_index::kTierArrival + static_cast<std::uint32_t>(i));
      steps[2].target_sema_val[lane] = 1;
    } else {
      steps[1].barrier_sema[lane] = sema_addr(comp, *p, l, sema_index::kTierArrival);
      steps[1].target_sema_val[lane] = 1;
    }
  }
  if (comp.topo.wiring == Wiring::Counting && first_lane >= 0) {
    steps[2].barrier_sema[static_cast<std::size_t>(first_lane)] = sema_addr(comp, c, l, sema_index::kTierArrival);
    steps[2].target_sema_val[static_cast<std::size_t>(first_lane)] = partners;
  }
}

}  // namespace

Result<Composition> compose(const Topology& topo, const SemaMapping& mapping) {
  static_assert(kLeaderRange.hi == static_cast<std::uint32_t>(kMaxLeaders));
  if (const Status st = check_ranges(topo); !st) return st.error();

  Composition out;
  out.topo = topo;
  out.mapping = mapping;
  const std::vector<int> lanes = tier_lanes(topo.fabric);
  for (std::uint32_t c = 0; c < topo.chips; ++c) {
    DriverContext ctx;
    ctx.set_host_cc(topo.host_cc ? 1 : 0);
    ctx.set_leader_count(topo.leaders);
    for (std::uint32_t l = 0; l < topo.leaders; ++l) ctx.set_sp_sema_base(l, out.sp_base(c, l));
    out.contexts.push_back(std::move(ctx));
  }
  for (std::uint32_t c = 0; c < topo.chips; ++c) {
    for (std::uint32_t l = 0; l < topo.leaders; ++l) {
      BarrierConfigs cfg;
      cfg.execute_device_barrier = 1;
      std::vector<std::uint32_t> g;  // whose arrival this leader's DEPART follows
      wire_intra_chip(out, c, l, cfg.device_barrier.barrier_step_config, g);
      wire_tiers(out, lanes, c, l, cfg.device_barrier.barrier_step_config, g);
      std::sort(g.begin(), g.end());
      g.erase(std::unique(g.begin(), g.end()), g.end());
      out.configs.push_back(encode(cfg));
      out.guarantee.push_back(std::move(g));
    }
  }
  return out;
}

std::string_view name(Wiring w) { return enum_name(w); }
std::string_view name(Lowering l) { return enum_name(l); }

}  // namespace neffbar::model
