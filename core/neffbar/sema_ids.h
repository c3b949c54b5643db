// TOP_SP semaphore ids, the leader-done id arithmetic and the semaphore address
// mapping (core/neffbar/README.md, "Semaphores").  The driver context that selects
// among them is driver_context.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "neffbar/error.h"

namespace neffbar {

// ENCD_*_SEMA_ID slot constants (OBSERVED).  NULL is MAX-1; MAX itself is not in the
// seed, so no number is given for it here.
enum class SemaId : std::uint32_t {
  Trigger = 0,
  Completion = 1,
  BarrierId0 = 2,
  BarrierId1 = 3,
  BarrierDmaSync = 4,  // == dma_sync_sema
  FunctionSwitch = 5,
  HostBarrierId0 = 6,
  HostBarrierId1 = 7,
};

inline constexpr int kMaxLeaders = 4;  // NEFF_DEVICE_BARRIER_MAX_LEADERS (OBSERVED)

// The observed selection at 0x240d9b..0x240dad, instruction by instruction, for any al:
//   cmp al,1 ; sbb edi,edi ; and edi,0xfffffffc ; add edi,6
constexpr std::uint32_t leader_done_sema_id_from_al(std::uint8_t al) {
  const std::uint32_t carry = al < 1u ? 1u : 0u;  // cmp al,1 sets CF when al < 1 (unsigned)
  std::uint32_t edi = 0u - carry;                 // sbb edi,edi: edi - edi - CF
  edi &= 0xFFFF'FFFCu;                            // and edi,~3
  edi += 6u;                                      // add edi,6
  return edi;                                     // 6 when al==1 (host-CC), 2 when al==0
}
constexpr SemaId leader_done_sema_id(bool host_cc) {
  return static_cast<SemaId>(leader_done_sema_id_from_al(host_cc ? 1 : 0));
}
static_assert(leader_done_sema_id(true) == SemaId::HostBarrierId0);
static_assert(leader_done_sema_id(false) == SemaId::BarrierId0);

// ---- semaphore address mapping (ASSUMED defaults from the public kernel driver) ------
enum class Window : std::uint8_t { Read, Set, Inc, Dec };

struct SemaMapping {
  std::uint64_t block_size = 0x2000;
  std::uint64_t read_offset = 0x1000;
  std::uint64_t set_offset = 0x1400;
  std::uint64_t inc_offset = 0x1800;
  std::uint64_t dec_offset = 0x1C00;
  std::uint64_t bytes_per_sema = 4;
  std::uint32_t semas_per_block = 256;
  std::uint64_t top_sp_stride = 0x400000;
  bool operator==(const SemaMapping&) const = default;

  [[nodiscard]] constexpr std::uint64_t window_offset(Window w) const {
    switch (w) {
      case Window::Read: return read_offset;
      case Window::Set: return set_offset;
      case Window::Inc: return inc_offset;
      case Window::Dec: return dec_offset;
    }
    return read_offset;
  }
  // encd_arch_get_sp_sema_{r,i}_ofst...: offset of semaphore `id` in a window.
  [[nodiscard]] constexpr std::uint64_t sema_offset(std::uint32_t id, Window w) const {
    return window_offset(w) + std::uint64_t{id} * bytes_per_sema;
  }
  // Base address of TOP_SP block `sp` (the composer's choice of where SPs live).
  [[nodiscard]] constexpr std::uint64_t sp_base(std::uint64_t origin, std::uint32_t sp) const {
    return origin + std::uint64_t{sp} * top_sp_stride;
  }
};

// A semaphore's identity: the address with the window stripped, i.e. the same
// semaphore read through any window maps to one key.  nullopt when `addr` is not in
// any window of a block (not a semaphore under this mapping).
struct SemaRef {
  std::uint64_t block_base;
  std::uint32_t index;
  Window window;
  [[nodiscard]] std::uint64_t key() const { return block_base + index; }
};
std::optional<SemaRef> resolve(const SemaMapping& m, std::uint64_t addr);

}  // namespace neffbar
