// The random engine at the deployed scale: one PCT schedule (`neffbar check --random 1`)
// of 64 chips x 4 leaders, host-CC, hierarchical, R rounds, the lowered system built
// before the loop; against the persistent engine's floor (one pass over the 64x4
// system's instructions), in the same run.
#include <benchmark/benchmark.h>

#include "measured.h"

#include "neffbar/model/engines/engine.h"
#include "neffbar/model/frontend/lowering.h"

namespace {

using neffbar::bench::measured;

using namespace neffbar;
using namespace neffbar::model;

void BM_Random_Schedule(benchmark::State& state) {
  const auto rounds = static_cast<std::uint32_t>(state.range(0));
  const System sys =
      *lower(*compose(Topology{64, 4, Fabric::Default, true, rounds, Wiring::PerPeer, Lowering::Hierarchical}), {});
  EngineOptions o;
  o.engine = Engine::Random;
  o.random_runs = 1;
  o.seed = 1;
  for (auto _ : state) {
    measured([&] {
      const Result<CheckResult> r = decide(sys, o);
      benchmark::DoNotOptimize(r->verdict);
    });
  }
}
// Seconds a schedule for now: Google Benchmark's first batch (one iteration) already
// passes its minimum time, so each repetition runs it once (and once more for memory),
// and the name stays BM_Random_Schedule/1000 (->Iterations(1) would add /iterations:1).
BENCHMARK(BM_Random_Schedule)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
