// bytes <-> logical struct, driven by schema.h and Boost.PFR (core/neffbar/README.md "Layout").  Lossless:
// encode(decode(b)) == b for every 0x128-byte b; any other length is an Error.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "neffbar/bytes.h"
#include "neffbar/error.h"
#include "neffbar/config.h"

namespace neffbar {

using ConfigBytes = std::array<std::uint8_t, kConfigSize>;

// Exactly 0x128 bytes, or Errc::WrongLength naming the length seen.
Result<BarrierConfigs> decode(std::span<const std::uint8_t> bytes);
// Same, into an existing struct (the hot path: no Result, no copy).  bytes must be 0x128.
void decode_into(const ConfigBytes& bytes, BarrierConfigs& out);
// Bit-fields are masked to their width (execute_device_barrier & 1, reserved0 & 0x7F).
ConfigBytes encode(const BarrierConfigs& cfg);
void encode_into(const BarrierConfigs& cfg, ConfigBytes& out);

// The host view from the same bytes (offset 0, the overlay: libncfw @0x11313/@0x11330).
HostBarrierConfig decode_host(const ConfigBytes& bytes);
// The host view computed from the device view by the overlay laws (core/neffbar/README.md "Layout", P2).
HostBarrierConfig host_view_by_overlay(const DeviceBarrierConfig& dev);

}  // namespace neffbar
