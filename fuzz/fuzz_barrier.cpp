// barrier: byte 0 picks the mode.
//  - composed: a topology and a schedule seed from the bytes -> composed systems never
//    fail (no DEADLOCK, UNSAFE, NOT_REUSABLE; the global property as documented);
//  - configs: 1..3 arbitrary 0x128-byte configs -> the checker ends within its budget,
//    every counterexample replays, and the static oracle agrees where it applies.
#include <cstdint>
#include <vector>

#include "fuzz_check.h"
#include "neffbar/bytes.h"
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
  Scenario s;
  s.topo = t;
  s.hyp.dec = t.wiring == Wiring::Counting ? DecMode::Target : DecMode::One;
  s.opt.guarantee = GuaranteeMode::Declared;
  s.random_runs = 1 + d[3] % 4;  // the schedule comes from the bytes
  s.seed = load_le(d + 4, 4);
  const Result<ScenarioResult> r = run_scenario(s);
  fuzz::require(r.ok(), "composition succeeds");
  fuzz::require(r->result.verdict == Verdict::Ok, "a composed barrier never fails");
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
