#include "neffbar/driver_context.h"

#include <string>

#include "neffbar/bytes.h"
#include "neffbar/hex.h"

namespace neffbar {
namespace {

Error short_ctx(std::size_t need, std::size_t have, const char* what) {
  return Error{Errc::ShortContext, std::string("driver context ") + what,
               "at least " + std::to_string(need) + " bytes", std::to_string(have) + " bytes"};
}

}  // namespace

Result<bool> is_host_cc(std::span<const std::uint8_t> ctx) {
  if (ctx.size() <= ctx_layout::kHostCc) return short_ctx(ctx_layout::kHostCc + 1, ctx.size(), "host_cc @0x231");
  return ctx[ctx_layout::kHostCc] == 1;  // setz: exactly 1
}

Result<std::uint64_t> sp_sema_base(std::span<const std::uint8_t> ctx, std::uint32_t leader) {
  const std::size_t at = ctx_layout::kSpSemaBase + std::size_t{leader} * ctx_layout::kSpStride;
  if (ctx.size() < at + 8) return short_ctx(at + 8, ctx.size(), ("SP semaphore base @" + hex(at)).c_str());
  return load_le(ctx.data() + at, 8);
}

Result<std::vector<std::uint64_t>> leader_done_inc_addrs(std::span<const std::uint8_t> ctx,
                                                         const SemaMapping& m) {
  if (ctx.size() < ctx_layout::kLeaderCount + 4) {
    return short_ctx(ctx_layout::kLeaderCount + 4, ctx.size(), "leader count @0x90");
  }
  const auto count = static_cast<std::uint32_t>(load_le(ctx.data() + ctx_layout::kLeaderCount, 4));
  if (count > kMaxLeaders) {
    return Error{Errc::TooManyLeaders, "driver context leader count @0x90",
                 "at most " + std::to_string(kMaxLeaders) + " (NEFF_DEVICE_BARRIER_MAX_LEADERS)",
                 std::to_string(count)};
  }
  const Result<bool> host_cc = is_host_cc(ctx);
  if (!host_cc) return host_cc.error();
  const auto id = static_cast<std::uint32_t>(leader_done_sema_id(*host_cc));
  std::vector<std::uint64_t> out;
  out.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const Result<std::uint64_t> base = sp_sema_base(ctx, i);             // mov rbx,[sp+0x6820]
    if (!base) return base.error();
    out.push_back(*base + m.sema_offset(id, Window::Inc));                // add rbx,rcx
  }
  return out;
}

void DriverContext::set_leader_count(std::uint32_t n) {
  store_le(bytes.data() + ctx_layout::kLeaderCount, 4, n);
}

void DriverContext::set_sp_sema_base(std::uint32_t leader, std::uint64_t base) {
  store_le(bytes.data() + ctx_layout::kSpSemaBase + leader * ctx_layout::kSpStride, 8, base);
}

}  // namespace neffbar
