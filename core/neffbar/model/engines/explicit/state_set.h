// The explicit search's visited set (search.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "neffbar/hot_loop.h"

namespace neffbar::model::detail {

// The visited set is also the BFS queue (states are expanded in insertion order) and
// holds each state's parent and the slot that led to it.  The pcs live in chunks of
// about 64 KiB, so growing never copies them (a doubling vector of 2 GiB would need
// 6 GiB for a moment) and a small check does not map and unmap a large block (under
// ASan every check paid an mmap, page faults and a TLB flush for a 1 MiB first
// chunk: most of a fuzz target's time), and bytes() / next_growth() let the search
// stop before the memory budget is passed.
class StateSet {
 public:
  static constexpr std::size_t kChunkBytes = std::size_t{1} << 16;
  // Starts small (most checks are small; a big first table costs page faults on every
  // call) and doubles at half load.
  // chunk_bytes: the pcs a chunk holds at most (tests: small, so growing the list of
  // chunks is the costliest step of an insert).
  explicit StateSet(std::uint32_t width, std::size_t chunk_bytes = kChunkBytes) : width_(width), table_(1u << 8, 0) {
    while (shift_ > 0 && (std::size_t{2} << shift_) * std::max(width_, 1u) > chunk_bytes) --shift_;
  }

  // (index, inserted)
  NEFFBAR_HOT_LOOP std::pair<std::uint32_t, bool> insert(const std::uint16_t* pcs, std::uint32_t parent, std::uint16_t via) {
    if ((std::uint64_t{count_} + 1) * 2 > table_.size()) grow();
    const std::uint64_t mask = table_.size() - 1;
    for (std::uint64_t h = hash(pcs) & mask;; h = (h + 1) & mask) {
      const std::uint32_t slot = table_[h];
      if (slot == 0) {
        if ((count_ >> shift_) == chunks_.size()) {
          chunks_.emplace_back();
          chunks_.back().reserve(std::size_t{width_} << shift_);
        }
        if (parent_.size() == parent_.capacity()) {
          parent_.reserve(parent_.size() * 2 + 256);
          via_.reserve(parent_.capacity());
        }
        chunks_.back().insert(chunks_.back().end(), pcs, pcs + width_);
        parent_.push_back(parent);
        via_.push_back(via);
        table_[h] = ++count_;
        return {count_ - 1, true};
      }
      if (std::equal(pcs, pcs + width_, at(slot - 1))) return {slot - 1, false};
    }
  }
  [[nodiscard]] const std::uint16_t* at(std::uint32_t i) const {
    return chunks_[i >> shift_].data() + std::size_t{i & ((1u << shift_) - 1)} * width_;
  }
  [[nodiscard]] std::uint32_t size() const { return count_; }
  [[nodiscard]] const std::vector<std::uint32_t>& parents() const { return parent_; }
  [[nodiscard]] const std::vector<std::uint16_t>& vias() const { return via_; }
  // What the set holds now, and the most the next insert can add at its peak.  In its
  // order: it may double the table (the old one kept until the new one is filled), grow
  // the list of chunks (doubling, as std::vector does), take a new chunk, then reserve
  // parent_ and via_ (each old array kept until copied).  bytes() + next_growth() is the
  // set's peak through the next insert of a new state, to the byte (state_set_test.cpp
  // counts every allocation); a state already there adds at most the doubling.
  [[nodiscard]] std::uint64_t bytes() const {
    return std::uint64_t{chunks_.size()} * (std::uint64_t{width_} << shift_) * 2 + table_.capacity() * 4 +
           parent_.capacity() * 4 + via_.capacity() * 2 + chunks_.capacity() * sizeof(Chunk);
  }
  [[nodiscard]] std::uint64_t next_growth() const {
    const bool doubles = (std::uint64_t{count_} + 1) * 2 > table_.size();
    const bool chunk = (count_ >> shift_) == chunks_.size();
    const bool list = chunk && chunks_.size() == chunks_.capacity();
    const bool reserve = parent_.size() == parent_.capacity();
    const std::uint64_t list_cap = std::max<std::uint64_t>(1, chunks_.capacity() * 2);  // chunks_'s new capacity
    const std::uint64_t grown = parent_.capacity() * 2 + 256;                         // parent_'s and via_'s
    std::uint64_t at = 0, peak = 0;
    const auto step = [&](std::uint64_t during, std::uint64_t after) {
      peak = std::max(peak, at + during);
      at += after;
    };
    if (doubles) step(table_.size() * 8, table_.size() * 4);
    if (list) step(list_cap * sizeof(Chunk), (list_cap - chunks_.capacity()) * sizeof(Chunk));
    if (chunk) step((std::uint64_t{width_} << shift_) * 2, (std::uint64_t{width_} << shift_) * 2);
    if (reserve) {
      step(grown * 4, (grown - parent_.capacity()) * 4);
      peak = std::max(peak, at + grown * 2);  // via_'s: the insert's last allocation
    }
    return peak;
  }

 private:
  [[nodiscard]] NEFFBAR_HOT_LOOP std::uint64_t hash(const std::uint16_t* pcs) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ width_;
    for (std::uint32_t i = 0; i < width_; ++i) {
      h = (h ^ pcs[i]) * 0xBF58476D1CE4E5B9ull;
      h ^= h >> 29;
    }
    return h ^ (h >> 32);
  }
  NEFFBAR_HOT_LOOP void grow() {
    std::vector<std::uint32_t> old(table_.size() * 2, 0);
    old.swap(table_);
    const std::uint64_t mask = table_.size() - 1;
    for (std::uint32_t i = 0; i < count_; ++i) {
      std::uint64_t h = hash(at(i)) & mask;
      while (table_[h] != 0) h = (h + 1) & mask;
      table_[h] = i + 1;
    }
  }
  std::uint32_t width_;
  std::uint32_t shift_ = 19;  // states per chunk: 2^shift_, about kChunkBytes of pcs
  std::uint32_t count_ = 0;
  using Chunk = std::vector<std::uint16_t>;
  std::vector<Chunk> chunks_;
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint16_t> via_;
  std::vector<std::uint32_t> table_;
};

// What the search found and where: rebuilt concretely by rebuild().

}  // namespace neffbar::model::detail
