// The checker: states/s on the reference topologies; composer + lowering cost as the
// topology grows (C = 1..64) to show how it scales.
#include <benchmark/benchmark.h>

#include "neffbar/model/checker.h"
#include "neffbar/model/lowering.h"

namespace {

using namespace neffbar;
using namespace neffbar::model;

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
    const CheckResult r = check(sys, o);
    states += r.states;
    benchmark::DoNotOptimize(r.verdict);
  }
  state.counters["states"] = benchmark::Counter(static_cast<double>(states) / static_cast<double>(state.iterations()));
  state.counters["states_per_s"] = benchmark::Counter(static_cast<double>(states), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Checker)->Args({1, 4, 0})->Args({2, 4, 0})->Args({2, 2, 1})->Args({4, 4, 0})->Unit(benchmark::kMillisecond);

void BM_ComposeAndLower(benchmark::State& state) {
  const Topology t{static_cast<std::uint32_t>(state.range(0)), 4, Fabric::Default, false, 1, Wiring::PerPeer,
                   Lowering::Table};
  for (auto _ : state) {
    const System sys = *lower(*compose(t), {});
    benchmark::DoNotOptimize(sys.procs.size());
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_ComposeAndLower)->RangeMultiplier(2)->Range(1, 64)->Complexity()->Unit(benchmark::kMicrosecond);

}  // namespace
