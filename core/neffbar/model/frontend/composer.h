// The composer (core/neffbar/model/README.md): topology -> one real 0x128-byte config per leader, one
// driver-context blob per chip, and each leader's declared guarantee.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "neffbar/codec.h"
#include "neffbar/error.h"
#include "neffbar/driver_context.h"
#include "neffbar/sema_address.h"
#include "neffbar/sema_ids.h"
#include "neffbar/semaphore.h"
#include "neffbar/tables.h"

namespace neffbar::model {

enum class Wiring : std::uint8_t { PerPeer, Counting };
enum class Lowering : std::uint8_t { Table, ArriveWait, Hierarchical };

}  // namespace neffbar::model

namespace neffbar {
template <>
struct EnumNames<model::Wiring> {
  static constexpr NameTable<model::Wiring, 2> table{{{model::Wiring::PerPeer, "per_peer"}, {model::Wiring::Counting, "counting"}}};
};
template <>
struct EnumNames<model::Lowering> {
  static constexpr NameTable<model::Lowering, 3> table{
      {{model::Lowering::Table, "table"}, {model::Lowering::ArriveWait, "arrive_wait"}, {model::Lowering::Hierarchical, "hierarchical"}}};
};
}  // namespace neffbar

namespace neffbar::model {

struct Topology {
  std::uint32_t chips = 1;    // 1..64
  std::uint32_t leaders = 1;  // 1..4 per chip
  Fabric fabric = Fabric::Default;
  bool host_cc = true;
  std::uint32_t rounds = 1;   // 1..1000
  Wiring wiring = Wiring::PerPeer;
  Lowering lowering = Lowering::Table;  // the composer allocates the closing round for hierarchical
  bool operator==(const Topology&) const = default;
};

// The ranges a topology may take, in one place: the composer, check-configs and the
// CLI all check these.  Leaders: NEFF_DEVICE_BARRIER_MAX_LEADERS.  Chips and rounds are
// neffbar's own bounds (ASSUMED): 64 chips is the largest deployment users model, 1000
// rounds bounds every run.
struct Range {
  std::uint32_t lo, hi;
  [[nodiscard]] constexpr bool contains(std::uint32_t v) const { return v >= lo && v <= hi; }
  [[nodiscard]] std::string text() const { return std::to_string(lo) + ".." + std::to_string(hi); }
};
inline constexpr Range kChipRange{1, 64};
inline constexpr Range kLeaderRange{1, 4};
inline constexpr Range kRoundRange{1, 1000};

// An error naming the field ("chips", "leaders", "rounds") when a topology is outside
// its ranges.
Status check_ranges(const Topology& topo);
// The same for a round count alone (check-configs).
Status check_rounds(std::uint32_t rounds);

// Semaphore indices in each leader's TOP_SP block (ASSUMED; core/neffbar/model/README.md).
namespace sema_index {
inline constexpr std::uint32_t kIntraArrival = 8;   // 8+j: arrival of leader j (intra-chip)
inline constexpr std::uint32_t kTierArrival = 12;   // 12+i: arrival on tier lane i
inline constexpr std::uint32_t kClosingRound = 16;  // 16+j: hierarchical closing intra round
}  // namespace sema_index

struct Composition {
  Topology topo;
  SemaMapping mapping;
  std::uint64_t origin = kSpOrigin;                       // SP c*4+l lives at origin + (c*4+l)*stride
  std::vector<ConfigBytes> configs;                      // [c*L + l]
  std::vector<DriverContext> contexts;                   // [c]
  std::vector<std::vector<std::uint32_t>> guarantee;     // [c*L + l] -> leader indices c*L+l
  [[nodiscard]] std::uint32_t leader_count() const { return topo.chips * topo.leaders; }
  [[nodiscard]] std::uint64_t sp_base(std::uint32_t chip, std::uint32_t leader) const {
    return mapping.sp_base(origin, chip * 4 + leader);
  }
};

// Validates (chips 1..64, leaders 1..4, rounds 1..1000) and composes.
Result<Composition> compose(const Topology& topo, const SemaMapping& mapping = {});

// Tier lanes of a fabric: entry index i of step 1 for each tier type (search result).
std::vector<int> tier_lanes(Fabric f);
// Partner chip of `chip` on tier lane i: chip xor 2^i, when it exists.
std::optional<std::uint32_t> tier_partner(std::uint32_t chips, std::uint32_t chip, int lane);

std::string_view name(Wiring w);
std::string_view name(Lowering l);

}  // namespace neffbar::model
