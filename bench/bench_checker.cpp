// The checker: states/s on the reference topologies; composer + lowering cost as the
// topology grows (C = 1..64) to show how it scales; and their floor, a fixed arithmetic
// loop (the checker hashes and compares states: integer work with no memory traffic
// to speak of), so both are gated as ratios that the machine's speed cancels out of.
#include <benchmark/benchmark.h>

#include "measured.h"

#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/frontend/lowering.h"

namespace {

using neffbar::bench::measured;

using namespace neffbar;
using namespace neffbar::model;

// Floor: 65,536 steps of splitmix64's finaliser, one dependent chain.
void BM_Arith_Floor(benchmark::State& state) {
  std::uint64_t h = 1;
  for (auto _ : state) {
    measured([&] {
      for (int i = 0; i < 65536; ++i) {
        h += 0x9E3779B97F4A7C15ull;
        h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
        h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
        h ^= h >> 31;
      }
      benchmark::DoNotOptimize(h);
    });
  }
}
BENCHMARK(BM_Arith_Floor)->Unit(benchmark::kMicrosecond);

void BM_Checker(benchmark::State& state) {
  const Topology t{static_cast<std::uint32_t>(state.range(0)), static_cast<std::uint32_t>(state.range(1)),
                   state.range(2) ? Fabric::Switch : Fabric::Default, false, 2, Wiring::PerPeer, Lowering::Table};
  const Lowered low = *lower_with_hints(*compose(t), {});
  const System& sys = low.system;
  CheckOptions o;
  o.guarantee = GuaranteeMode::Declared;
  o.symmetry_hints = low.hints;
  std::uint64_t states = 0;
  for (auto _ : state) {
    measured([&] {
      const CheckResult r = check_explicit(sys, o);
      states += r.search().states;
      benchmark::DoNotOptimize(r.verdict);
    });
  }
  state.counters["states"] = benchmark::Counter(static_cast<double>(states) / static_cast<double>(state.iterations()));
  state.counters["states_per_s"] = benchmark::Counter(static_cast<double>(states), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Checker)->Args({1, 4, 0})->Args({2, 4, 0})->Args({2, 2, 1})->Args({4, 4, 0})->Unit(benchmark::kMillisecond);

void BM_ComposeAndLower(benchmark::State& state) {
  const Topology t{static_cast<std::uint32_t>(state.range(0)), 4, Fabric::Default, false, 1, Wiring::PerPeer,
                   Lowering::Table};
  for (auto _ : state) {
    measured([&] {
      const System sys = *lower(*compose(t), {});
      benchmark::DoNotOptimize(sys.procs.size());
    });
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_ComposeAndLower)->RangeMultiplier(2)->Range(1, 64)->Complexity()->Unit(benchmark::kMicrosecond);

}  // namespace
