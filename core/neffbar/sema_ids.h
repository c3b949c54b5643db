// TOP_SP semaphore ids and the leader-done id arithmetic (core/neffbar/README.md,
// "Semaphores").  Where a semaphore lives is sema_address.h; the driver context that
// selects among them is driver_context.h.
#pragma once

#include <array>
#include <cstdint>

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

}  // namespace neffbar
