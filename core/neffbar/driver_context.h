// The driver context: the runtime's per-context struct, held as a byte blob so it can
// be fuzzed, and the readers that take the handshake's facts from it (host-CC, the
// leader count, each leader SP's semaphore base, the leader-done increment addresses).
// Offsets and provenance: core/neffbar/README.md, "The driver context".
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "neffbar/error.h"
#include "neffbar/sema_address.h"
#include "neffbar/sema_ids.h"

namespace neffbar {

namespace ctx_layout {
inline constexpr std::size_t kHostCc = 0x231;        // u8 flag (OBSERVED: cmp byte [rdi+0x231],1)
inline constexpr std::size_t kLeaderCount = 0x90;    // leader SP count (OBSERVED offset; u32 ASSUMED)
inline constexpr std::size_t kSpStride = 0x138;      // per-SP record stride (OBSERVED)
inline constexpr std::size_t kSpSemaBase = 0x6820;   // u64 semaphore base in an SP record (OBSERVED)
// Smallest blob that holds every field read for MAX_LEADERS leaders.
inline constexpr std::size_t kMinSize = kSpSemaBase + (kMaxLeaders - 1) * kSpStride + 8;
}  // namespace ctx_layout

// encd_is_host_cc @0x234a90: ctx[0x231] == 1 exactly (QUIRK: 2..255 are NOT host-CC).
Result<bool> is_host_cc(std::span<const std::uint8_t> ctx);

// The semaphore base of leader SP `leader`: the u64 at ctx + leader*0x138 + 0x6820
// (OBSERVED: mov rbx,[sp_struct+0x6820]).  ShortContext when the blob ends before it.
Result<std::uint64_t> sp_sema_base(std::span<const std::uint8_t> ctx, std::uint32_t leader);

// encd_get_leader_sps_barrier_done_semas_inc_addrs @0x240d40: for each leader SP i,
// u64 at ctx + i*0x138 + 0x6820 plus the inc-window offset of the done id (6 / 2).
// Errors: blob shorter than what is read; more than MAX_LEADERS leaders.
Result<std::vector<std::uint64_t>> leader_done_inc_addrs(std::span<const std::uint8_t> ctx,
                                                         const SemaMapping& m = {});

// A driver-context blob holding what the readers above read.
struct DriverContext {
  std::vector<std::uint8_t> bytes = std::vector<std::uint8_t>(ctx_layout::kMinSize, 0);
  void set_host_cc(std::uint8_t v) { bytes[ctx_layout::kHostCc] = v; }
  void set_leader_count(std::uint32_t n);
  void set_sp_sema_base(std::uint32_t leader, std::uint64_t base);
};

}  // namespace neffbar
