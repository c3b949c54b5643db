// search_barr_type_in_step (libnrt @0xf58a0; core/neffbar/README.md "Tables and search") in two variants that must
// agree on every input (P3):
//  - faithful: a scan over the raw table bytes, as disassembled;
//  - fast: a precomputed (step, type) -> hit table, the hot path.
// Both are total.  Where the shipped code has no bounds check we define:
//  - step outside 0..3                 -> not found (shipped: reads sizes[step] OOB);
//  - type outside 0..6 (incl. TYPE_MAX) -> not found (pads are never matched);
//  - sizes[step] > 4                    -> clamped to 4 (shipped: the scan would walk
//                                          into the next row; ASSUMED never happens);
//  - duplicate types in a row          -> the first active match wins (scan order);
//  - any op value (even >= 2)          -> returned as it is; callers validate it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "neffbar/tables.h"

namespace neffbar {

struct SearchHit {
  std::uint32_t op;  // field1 (barrier_operation_t, unvalidated)
  int index;         // the matched entry's position in the row (the lane)
  bool operator==(const SearchHit&) const = default;
};

std::optional<SearchHit> search_faithful(const TableImage& t, std::int64_t type, std::int64_t step);

// 4 steps x 8 type slots (slot 7 always empty, it doubles as the "out of range" slot,
// so a lookup is one compare-free load).
class FastTable {
 public:
  static constexpr int kSlots = kSteps * 8;

  static constexpr FastTable build(const TableImage& t) {
    FastTable f;
    for (auto& h : f.hits_) h = Packed{0, -1};
    for (int step = 0; step < kSteps; ++step) {
      const int n = t.sizes[static_cast<std::size_t>(step)] > kEntries ? kEntries : t.sizes[static_cast<std::size_t>(step)];
      for (int i = 0; i < n; ++i) {
        const TableEntry e = entry_at(t, step, i);
        if (e.type >= kTypeCount) continue;  // never matchable: queries are range-checked
        Packed& slot = f.hits_[static_cast<std::size_t>(step * 8 + static_cast<int>(e.type))];
        if (slot.index < 0) slot = Packed{e.op, i};  // first match wins
      }
    }
    return f;
  }

  // Slot of (type, step): step*8+type, or 7 (always empty) when out of range.
  static constexpr std::size_t slot(std::int64_t type, std::int64_t step) {
    const bool in_range = static_cast<std::uint64_t>(step) < kSteps && static_cast<std::uint64_t>(type) < 8;
    return in_range ? static_cast<std::size_t>(step * 8 + type) : 7;
  }

  [[nodiscard]] constexpr std::optional<SearchHit> find(std::int64_t type, std::int64_t step) const {
    return unpack(hits_[slot(type, step)]);
  }

  struct Packed {
    std::uint32_t op;
    std::int32_t index;  // -1: not found
  };
  static constexpr std::optional<SearchHit> unpack(Packed h) {
    if (h.index < 0) return std::nullopt;
    return SearchHit{h.op, h.index};
  }
  [[nodiscard]] constexpr Packed packed(std::size_t slot) const { return hits_[slot]; }

 private:
  std::array<Packed, kSlots> hits_{};
};

inline constexpr FastTable kFastDefault = FastTable::build(kDefaultTable);
inline constexpr FastTable kFastSwitch = FastTable::build(kSwitchTable);

// The shipped two fabrics in one 64-slot table (fabric << 5 | slot): the hot path is
// one index computation and one load.
inline constexpr std::array<FastTable::Packed, 2 * FastTable::kSlots> kFastBoth = [] {
  std::array<FastTable::Packed, 2 * FastTable::kSlots> a{};
  for (std::size_t i = 0; i < FastTable::kSlots; ++i) {
    a[i] = kFastDefault.packed(i);
    a[FastTable::kSlots + i] = kFastSwitch.packed(i);
  }
  return a;
}();

inline std::optional<SearchHit> search_fast(std::int64_t type, std::int64_t step, Fabric fabric) {
  return FastTable::unpack(kFastBoth[(fabric == Fabric::Switch ? FastTable::kSlots : 0) + FastTable::slot(type, step)]);
}
inline std::optional<SearchHit> search_faithful(std::int64_t type, std::int64_t step, Fabric fabric) {
  return search_faithful(table_for(fabric), type, step);
}

static_assert(kFastDefault.find(2, 1) == SearchHit{0, 1});
static_assert(kFastSwitch.find(6, 2) == SearchHit{1, 1});
static_assert(!kFastSwitch.find(1, 1).has_value());
static_assert(!kFastDefault.find(0, 4).has_value() && !kFastDefault.find(-1, 0).has_value());

}  // namespace neffbar
