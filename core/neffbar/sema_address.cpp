#include "neffbar/sema_address.h"

namespace neffbar {

std::optional<SemaRef> resolve(const SemaMapping& m, std::uint64_t addr) {
  if (m.block_size == 0 || m.bytes_per_sema == 0) return std::nullopt;
  const std::uint64_t off = addr % m.block_size;
  const std::uint64_t base = addr - off;
  for (Window w : {Window::Read, Window::Set, Window::Inc, Window::Dec}) {
    const std::uint64_t wo = m.window_offset(w);
    if (off < wo) continue;
    const std::uint64_t rel = off - wo;
    if (rel % m.bytes_per_sema != 0) continue;
    const std::uint64_t idx = rel / m.bytes_per_sema;
    if (idx < m.semas_per_block) return SemaRef{base, static_cast<std::uint32_t>(idx), w};
  }
  return std::nullopt;
}

}  // namespace neffbar
