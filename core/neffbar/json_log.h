// The libncfw logger's JSON shape (core/neffbar/README.md "The JSON log"), and its inverse.
//  - Default log: what ncfw_log_neff_barrier_config prints: the gate (pointer-style,
//    C6), host_barrier and device_barrier, both views from the same bytes.
//  - Full log: adds total_desc_n, __pad, __reserved0 and __reserved, so bytes -> JSON
//    -> bytes is lossless.
// The writer never uses iostreams or snprintf; the reader uses nlohmann-json.
#pragma once

#include <string>
#include <string_view>

#include "neffbar/codec.h"
#include "neffbar/error.h"

namespace neffbar {

enum class LogMode : std::uint8_t { Default, Full };

// Appends to `out` (reuse the buffer on hot paths).
void write_log(const ConfigBytes& bytes, LogMode mode, std::string& out);
std::string write_log(const ConfigBytes& bytes, LogMode mode = LogMode::Default);

// JSON text -> bytes.  Every key the default log prints is required; full-log-only keys
// are optional (absent -> 0).  The gate accepts "0x1", "0x0" and glibc's "(nil)".
// Because both views are printed, host_barrier must agree with the bytes of
// device_barrier.barrier_step_config[0] it overlays (else Errc::Conflict).
Result<ConfigBytes> read_log(std::string_view json);

}  // namespace neffbar
