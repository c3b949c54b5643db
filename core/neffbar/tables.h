// The 4-step algorithm tables of libnrt .rodata (libnrt .rodata @0x7cf000.., OBSERVED), kept as
// the raw little-endian byte images; the typed view is derived from the bytes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "neffbar/error.h"
#include "neffbar/enum_names.h"

namespace neffbar {

enum class BarrierType : std::uint32_t {  // barrier_type_t (IDA enum, OBSERVED)
  IntraChip = 0,
  IntraPod = 1,
  InterChip = 2,
  InterChipRingLocal = 3,
  InterChipRingRemote = 4,
  IntraRack = 5,
  InterRack = 6,
  TypeMax = 7,  // the (7,_) pad type
};
enum class BarrierOp : std::uint32_t {  // barrier_operation_t (IDA enum, OBSERVED)
  Entry = 0,
  Exit = 1,
  OpTypeMax = 2,  // the (_,2) pad op
};
enum class Fabric : std::uint8_t { Default, Switch };  // nrt_is_neuron_switch_v1_family
template <>
struct EnumNames<Fabric> {
  static constexpr NameTable<Fabric, 2> table{{{Fabric::Default, "default"}, {Fabric::Switch, "switch"}}};
};

inline constexpr int kSteps = 4;           // NEFF_DEVICE_BARRIER_MAX_STEPS
inline constexpr int kEntries = 4;         // entries per step row
inline constexpr int kTypeCount = 7;       // valid barrier types 0..6
inline constexpr std::size_t kTableBytes = 128;  // 4 rows x 0x20

// A table exactly as it sits in .rodata: algorithm_steps[4][4]{u32 type, u32 op}
// plus barrier_step_sizes[4] (u8).
struct TableImage {
  std::array<std::uint8_t, kTableBytes> steps{};
  std::array<std::uint8_t, kSteps> sizes{};
  bool operator==(const TableImage&) const = default;
};

// _ZL23barrier_algorithm_steps + barrier_step_sizes = {1,4,4,1}
inline constexpr TableImage kDefaultTable{
  {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // step 0 entry 0: (0,0)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 0 entry 1: (7,2)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 0 entry 2: (7,2)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 0 entry 3: (7,2)
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // step 1 entry 0: (1,0)
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // step 1 entry 1: (2,0)
    0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // step 1 entry 2: (3,0)
    0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // step 1 entry 3: (4,0)
    0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // step 2 entry 0: (1,1)
    0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // step 2 entry 1: (2,1)
    0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // step 2 entry 2: (3,1)
    0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // step 2 entry 3: (4,1)
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // step 3 entry 0: (0,1)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 3 entry 1: (7,2)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 3 entry 2: (7,2)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 3 entry 3: (7,2)
  },
  {1, 4, 4, 1},
};

// algorithm_steps_for_switch_family + step_sizes_for_switch_family = {1,2,2,1}
inline constexpr TableImage kSwitchTable{
  {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // step 0 entry 0: (0,0)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 0 entry 1: (7,2)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 0 entry 2: (7,2)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 0 entry 3: (7,2)
    0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // step 1 entry 0: (5,0)
    0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // step 1 entry 1: (6,0)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 1 entry 2: (7,2)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 1 entry 3: (7,2)
    0x05, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // step 2 entry 0: (5,1)
    0x06, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // step 2 entry 1: (6,1)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 2 entry 2: (7,2)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 2 entry 3: (7,2)
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // step 3 entry 0: (0,1)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 3 entry 1: (7,2)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 3 entry 2: (7,2)
    0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  // step 3 entry 3: (7,2)
  },
  {1, 2, 2, 1},
};

constexpr const TableImage& table_for(Fabric f) { return f == Fabric::Switch ? kSwitchTable : kDefaultTable; }

struct TableEntry {
  std::uint32_t type;  // field0: the search key
  std::uint32_t op;    // field1: the returned operation
  bool operator==(const TableEntry&) const = default;
};

// Typed view derived from the bytes (not restated).
constexpr TableEntry entry_at(const TableImage& t, int step, int entry) {
  const std::size_t base = static_cast<std::size_t>(step) * 0x20 + static_cast<std::size_t>(entry) * 8;
  auto u32 = [&](std::size_t o) {
    return std::uint32_t{t.steps[o]} | std::uint32_t{t.steps[o + 1]} << 8 |
           std::uint32_t{t.steps[o + 2]} << 16 | std::uint32_t{t.steps[o + 3]} << 24;
  };
  return TableEntry{u32(base), u32(base + 4)};
}

std::string_view type_name(std::uint32_t type);  // "INTRA_CHIP", ... or "?"
std::string_view op_name(std::uint32_t op);      // "ENTRY", "EXIT", "OP_TYPE_MAX" or "?"
// TYPE by name (INTRA_CHIP, intra_chip, BARRIER_INTRA_CHIP) or number 0..6.
Result<BarrierType> parse_type(std::string_view text);
Result<Fabric> parse_fabric(std::string_view text);
std::string_view fabric_name(Fabric f);

}  // namespace neffbar
