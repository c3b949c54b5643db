// Two config images compared field by field through the schema (schema.h): every leaf,
// reserved and padding bytes included, in offset order.  What `neffbar diff` prints.
#pragma once

#include <string>
#include <vector>

#include "neffbar/codec.h"
#include "neffbar/schema.h"

namespace neffbar {

struct FieldDiff {
  const Leaf* leaf;
  std::uint64_t a = 0, b = 0;
  // A field no decoder reads: the gate byte's bits 1..7, the 3 bytes after it, the
  // device struct's last byte (names starting "__").
  [[nodiscard]] bool reserved() const;
  // "0x066 device_barrier.barrier_step_config[1].barrier_sema[1]: 0x...1020 -> 0x...1021 (OBSERVED)";
  // addresses in hex, other values in decimal; a reserved field says so.
  [[nodiscard]] std::string line() const;
};

// The leaves whose values differ, in offset order; empty when the images are equal.
std::vector<FieldDiff> diff_configs(const ConfigBytes& a, const ConfigBytes& b);

// The value as the line prints it: 0x%016X for an address, else decimal.
std::string field_text(const Field& f, std::uint64_t v);

}  // namespace neffbar
