// barrier: byte 0 picks the mode.
//  - composed: a topology, hypotheses and a schedule seed from the bytes -> composed
//    systems never fail (no DEADLOCK, UNSAFE, NOT_REUSABLE), checked exhaustively (with
//    the reductions the bytes pick) or by random schedules; faults injected by the bytes
//    are always caught, with a counterexample that replays;
//  - configs: 1..3 arbitrary 0x128-byte configs -> the checker ends within its budget,
//    every counterexample replays, and the static oracle agrees where it applies.
#include <cstdint>
#include <vector>

#include "fuzz_check.h"
#include "neffbar/bytes.h"
#include "neffbar/model/faults.h"
#include "neffbar/model/oracle.h"
#include "neffbar/model/scenario.h"

using namespace neffbar;
using namespace neffbar::model;

namespace {

void composed(const std::uint8_t* d, std::size_t n) {
  if (n < 8) return;
  Topology t;
  t.chips = 1 + d[0] % 4;
  t.leaders = 1 + d[1] % 4;
  t.fabric = d[2] & 1 ? Fabric::Switch : Fabric::Default;
  t.host_cc = (d[2] >> 1) & 1;
  t.rounds = 1 + (d[2] >> 2) % 2;
  t.lowering = (d[2] >> 3) & 1 ? Lowering::Hierarchical : Lowering::Table;
  t.wiring = (d[2] >> 4) & 1 ? Wiring::Counting : Wiring::PerPeer;
  if (t.chips * t.leaders > 8) t.leaders = 8 / t.chips;  // keep the exhaustive search small
  Scenario s;
  s.topo = t;
  s.hyp.dec = t.wiring == Wiring::Counting ? DecMode::Target : DecMode::One;
  s.opt.guarantee = GuaranteeMode::Declared;
  s.opt.reduce = (d[3] & 1) == 0;
  s.opt.por = (d[3] & 2) == 0;
  s.opt.symmetry = (d[3] & 4) == 0;
  s.opt.max_states = 200000;
  if (d[3] & 8) {
    s.random_runs = 1 + (d[3] >> 4) % 4;  // the schedule comes from the bytes
    s.seed = load_le(d + 4, 4);
  }
  Composition comp = *compose(t);
  const Fault f = static_cast<Fault>(d[7] % 4);
  const bool faulty = f != Fault::None && t.leaders >= 2 && inject(comp, f, d[6] % (t.chips * t.leaders));
  const Result<System> sys = lower(comp, s.hyp);
  fuzz::require(sys.ok(), "composition lowers");
  const CheckResult r = s.random_runs ? random_check(*sys, s.random_runs, s.seed, 3, s.opt.guarantee)
                                      : check(*sys, s.opt);
  if (r.verdict == Verdict::Budget) return;
  if (!faulty) {
    fuzz::require(r.verdict == Verdict::Ok, "a composed barrier never fails");
  } else if (r.exhaustive) {
    fuzz::require(r.verdict != Verdict::Ok, "an injected fault is caught");
  }
  if (r.cex) fuzz::require(replay(*sys, *r.cex), "the counterexample replays");
}

void configs(const std::uint8_t* d, std::size_t n) {
  std::vector<ConfigBytes> cfgs;
  for (std::size_t at = 1; at + kConfigSize <= n && cfgs.size() < 3; at += kConfigSize) {
    ConfigBytes b;
    std::copy(d + at, d + at + kConfigSize, b.begin());
    cfgs.push_back(b);
  }
  if (cfgs.empty()) return;
  Hypotheses h;
  h.compare = d[0] & 2 ? Compare::Gt : Compare::Ge;
  h.dec = d[0] & 4 ? DecMode::Target : DecMode::One;
  const Fabric f = d[0] & 8 ? Fabric::Switch : Fabric::Default;
  const Result<System> sys = lower_configs(cfgs, f, Lowering::Table, 1 + ((d[0] >> 4) & 1), h);
  fuzz::require(sys.ok(), "any configs lower");
  CheckOptions o;
  o.max_states = 20000;
  o.max_seconds = 5;
  o.collect_all = true;
  const CheckResult r = check(*sys, o);
  if (r.verdict == Verdict::Budget) return;
  if (r.cex) fuzz::require(replay(*sys, *r.cex), "every counterexample replays");
  if (const auto oracle = static_oracle(*sys)) {
    const std::uint32_t mask = bit(Verdict::Deadlock) | bit(Verdict::Unsafe) | bit(Verdict::GlobalUnsafe) | bit(Verdict::NotReusable);
    fuzz::require((*oracle & mask) == (r.found_mask & mask), "static oracle == exhaustive checker");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (data[0] & 1) {
    configs(data, size);
  } else {
    composed(data + 1, size - 1);
  }
  return 0;
}
