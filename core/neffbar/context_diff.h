// Two driver-context blobs compared: the fields whose layout is known (driver_context.h's
// ctx_layout: the host-CC flag @0x231, the leader count @0x90, each leader SP's
// semaphore base @0x6820 + i*0x138), then every other run of differing bytes, then the
// lengths.  What `neffbar diff` prints for compose's chipNN_context.bin files.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "neffbar/schema.h"

namespace neffbar {

// A field of the driver context the readers read (driver_context.h).
struct ContextField {
  std::string_view name;  // "leader_count", "sp[2].sema_base"
  std::size_t offset;
  std::size_t size;  // bytes, little-endian
  Tag tag;
};

// Every known field, in offset order (from ctx_layout: one copy of each offset).
std::span<const ContextField> context_fields();

// One difference: a known field's two values, or a run [offset, offset + length) of
// bytes outside the known fields that differ (or that only one blob holds).
struct ContextDiff {
  std::size_t offset = 0;
  std::size_t length = 0;
  const ContextField* field = nullptr;  // null: a byte run
  std::optional<std::uint64_t> a, b;    // a field's values; nullopt where that blob ends before it
  // "0x090 leader_count: 4 -> 2 (OBSERVED offset, u32 ASSUMED)" / "0x100..0x103: 4 bytes differ".
  [[nodiscard]] std::string line() const;
};

// The differences in offset order; empty exactly when the blobs are byte-identical.
std::vector<ContextDiff> diff_contexts(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

// The first offset at which two byte strings differ (a shorter one ends there); nullopt
// when they are identical.
std::optional<std::size_t> first_difference(std::string_view a, std::string_view b);

}  // namespace neffbar
