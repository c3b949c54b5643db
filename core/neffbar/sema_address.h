// The semaphore address mapping (core/neffbar/README.md, "Semaphores"; ASSUMED defaults
// from the public kernel driver): the windows of a TOP_SP block, where semaphore `id`
// sits in each, and the reverse lookup from an address to the semaphore it names.
#pragma once

#include <cstdint>
#include <optional>

namespace neffbar {

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
  // Base address of TOP_SP block `sp` (the composer's choice of where SPs live: kSpOrigin).
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

// Where the composer, the generators and the dictionaries place TOP_SP block 0 (ASSUMED:
// a modelling choice, not an observed address; block sp is at kSpOrigin + sp * stride).
inline constexpr std::uint64_t kSpOrigin = 0x0100'0000;

}  // namespace neffbar
