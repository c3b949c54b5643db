// The laws of P7 (host-CC's merge of the done semaphores) and P8 (the semaphore-id
// arithmetic): each a typed input, its generator and its law (properties.h says how they
// are written and plugged in).
#pragma once

#include "law_prelude.h"

namespace neffbar::props {

// ------------------------------------------------------------------ P7 merge -------
struct CtxInput {
  static constexpr bool kPropertyInput = true;
  std::vector<std::uint8_t> ctx;
};
inline CtxInput draw_p7(Source& s) { return {draw_ctx_blob(s)}; }
using HostCcFn = std::function<Result<bool>(std::span<const std::uint8_t>)>;

inline void p7_host_cc_merge(const CtxInput& in, const HostCcFn& host_cc, Judge& j) {
  const std::vector<std::uint8_t>& ctx = in.ctx;
  const Result<std::vector<std::uint64_t>> addrs = leader_done_inc_addrs(ctx);
  const Result<bool> hcc = host_cc(ctx);
  if (!addrs.ok()) {
    j.require(ctx.size() < ctx_layout::kMinSize || load_le(ctx.data() + ctx_layout::kLeaderCount, 4) > 4,
              "refused only when short or over 4 leaders");
    j.tag("rejected");
    return;
  }
  j.require(hcc.ok(), "is_host_cc answers where the addresses do");
  const SemaMapping m;
  for (std::size_t i = 0; i < addrs->size(); ++i) {
    const std::uint64_t base = *sp_sema_base(ctx, static_cast<std::uint32_t>(i));
    const std::uint64_t host_done = base + m.sema_offset(static_cast<std::uint32_t>(SemaId::HostBarrierId0), Window::Inc);
    j.require((addrs->at(i) == host_done) == *hcc, "leader done address == host barrier_done iff host-CC");
  }
  j.tags(*hcc ? "host-cc" : "not host-cc", ctx[ctx_layout::kHostCc] > 1 ? "byte > 1" : "byte 0/1");
}

// ------------------------------------------------------------------ P8 arithmetic --
struct P8Input {
  static constexpr bool kPropertyInput = true;
  std::uint8_t al = 0;
  std::vector<std::uint8_t> ctx;
};
inline P8Input draw_p8(Source& s) {
  P8Input in;
  in.al = static_cast<std::uint8_t>(s.below(256));
  in.ctx.assign(ctx_layout::kHostCc + 1 + s.below(16), 0);
  in.ctx[ctx_layout::kHostCc] =
      s.coin() ? static_cast<std::uint8_t>(s.below(256)) : s.element<std::uint8_t>({0, 1, 2});
  return in;
}
using SemaIdFn = std::function<std::uint32_t(std::uint8_t)>;

inline void p8_sema_id_arithmetic(const P8Input& in, const SemaIdFn& from_al, const HostCcFn& host_cc, Judge& j) {
  // Independent model of cmp al,1 / sbb / and ~3 / add 6: CF is (al <u 1).
  const std::uint32_t cf = in.al == 0 ? 1u : 0u;
  j.require(from_al(in.al) == (((0u - cf) & ~3u) + 6u), "sema id == (-(al <u 1) & ~3) + 6");
  j.require(*host_cc(in.ctx) == (in.ctx[ctx_layout::kHostCc] == 1), "is_host_cc == (ctx[0x231] == 1)");
  j.classify(in.ctx[ctx_layout::kHostCc] > 1, "byte > 1");
}

}  // namespace neffbar::props
