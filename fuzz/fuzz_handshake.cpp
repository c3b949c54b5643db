// handshake: a raw driver-context blob of any length.  What is specific to raw bytes:
// is_host_cc answers exactly when byte 0x231 is there; the done-increment addresses are
// refused exactly for a short blob or more than 4 leaders, with the documented error
// naming the offset and what it got; otherwise there is one address per leader.  (The
// host-CC merge is P7, the byte test P8: the targets prop_p7_merge, prop_p8_arithmetic.)
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "neffbar/bytes.h"
#include "neffbar/driver_context.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace neffbar;
  // Short inputs are expanded into a full blob so the interesting bytes stay reachable:
  // [0] host-CC byte, [1..4] leader count, then SP bases.
  std::vector<std::uint8_t> ctx(data, data + size);
  if (size < 64) {
    DriverContext d;
    if (size > 0) d.set_host_cc(data[0]);
    if (size > 4) d.set_leader_count(static_cast<std::uint32_t>(load_le(data + 1, 4)));
    for (std::uint32_t i = 0; i < 4 && 5 + 8 * (i + 1) <= size; ++i) d.set_sp_sema_base(i, load_le(data + 5 + 8 * i, 8));
    ctx = d.bytes;
  }
  const Result<bool> hcc = is_host_cc(ctx);
  fuzz::require(hcc.ok() == (ctx.size() > ctx_layout::kHostCc), "is_host_cc needs byte 0x231");
  const Result<std::vector<std::uint64_t>> addrs = leader_done_inc_addrs(ctx);
  if (!addrs.ok()) {
    // Exactly the two documented refusals, each saying which byte and what it needed.
    const Error& e = addrs.error();
    const bool long_enough = ctx.size() >= ctx_layout::kLeaderCount + 4;
    const std::uint64_t count = long_enough ? load_le(ctx.data() + ctx_layout::kLeaderCount, 4) : 0;
    if (long_enough && count > kMaxLeaders) {
      fuzz::require(e.code == Errc::TooManyLeaders && e.got == std::to_string(count), "too many leaders, naming the count");
    } else {
      fuzz::require(e.code == Errc::ShortContext && e.got == std::to_string(ctx.size()) + " bytes", "a short context, naming its size");
    }
    fuzz::require(e.message().find("@0x") != std::string::npos, "the error names the offset");
    return 0;
  }
  fuzz::require(addrs->size() == load_le(ctx.data() + ctx_layout::kLeaderCount, 4), "one address per leader");
  return 0;
}
