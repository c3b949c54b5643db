// The persistent engine at the deployed scale (64 chips x 4 leaders, 1 and 1000
// rounds), against its floor (one pass over the system's instructions, the least any
// engine must do) and against the explicit search on the largest system both decide.
#include <benchmark/benchmark.h>

#include "measured.h"

#include "neffbar/model/engines/engine.h"
#include "neffbar/model/scenarios/matrix.h"
#include "neffbar/model/frontend/lowering.h"

namespace {

using neffbar::bench::measured;

using namespace neffbar;
using namespace neffbar::model;

System composed(std::uint32_t chips, std::uint32_t leaders, bool host_cc, std::uint32_t rounds, Lowering low) {
  return *lower(*compose(Topology{chips, leaders, Fabric::Default, host_cc, rounds, Wiring::PerPeer, low}), {});
}

// The decision alone, on a lowered system (hierarchical, host-CC, 1 round).
void BM_Persistent_Check(benchmark::State& state) {
  const System sys = composed(static_cast<std::uint32_t>(state.range(0)), static_cast<std::uint32_t>(state.range(1)), true, 1,
                              Lowering::Hierarchical);
  std::uint64_t executed = 0;
  for (auto _ : state) {
    measured([&] {
      const Result<CheckResult> r = check_persistent(sys);
      executed += r->work().instructions;
      benchmark::DoNotOptimize(r->verdict);
    });
  }
  // The system's instructions the greedy runs executed per decision (not "instructions":
  // that is the machine-instruction count scripts/bench-count adds).  A counter that is
  // zero in every repetition fails ctest bench_pipeline.
  state.counters["executed"] = benchmark::Counter(static_cast<double>(executed) / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_Persistent_Check)->Args({4, 4})->Args({16, 4})->Args({64, 4})->Unit(benchmark::kMillisecond);

// Floor: one pass over every instruction of the 64x4 system (what one greedy run
// touches), in the same run.
void BM_Persistent_Floor(benchmark::State& state) {
  const System sys = composed(64, 4, true, 1, Lowering::Hierarchical);
  for (auto _ : state) {
    measured([&] {
      std::int64_t sum = 0;
      for (const Process& p : sys.procs) {
        for (const Instr& in : p.program) sum += in.marker == Marker::None ? effect(in.op) + in.op.sema : 1;
      }
      benchmark::DoNotOptimize(sum);
    });
  }
}
BENCHMARK(BM_Persistent_Floor)->Unit(benchmark::kMicrosecond);

// What a user waits for: compose, lower and decide 64x4, host-CC, hierarchical.
void BM_Persistent_EndToEnd(benchmark::State& state) {
  const auto rounds = static_cast<std::uint32_t>(state.range(0));
  for (auto _ : state) {
    measured([&] {
      const System sys = composed(64, 4, true, rounds, Lowering::Hierarchical);
      const Result<CheckResult> r = check_persistent(sys);
      benchmark::DoNotOptimize(r->verdict);
    });
  }
}
BENCHMARK(BM_Persistent_EndToEnd)->Arg(1)->Arg(1000)->Unit(benchmark::kMillisecond);

// Persistent vs explicit on the largest reference system the explicit search decides
// in well under a second: 4x4, no host-CC (16 proxies), 2 rounds, declared guarantees.
void BM_Engine(benchmark::State& state) {
  const Lowered low = *lower_with_hints(*compose(Topology{4, 4, Fabric::Default, false, 2, Wiring::PerPeer, Lowering::Table}), {});
  const System& sys = low.system;
  EngineOptions o;
  o.engine = state.range(0) ? Engine::Persistent : Engine::Explicit;
  o.check.guarantee = GuaranteeMode::Declared;
  o.check.symmetry_hints = low.hints;  // the explicit search at its best: every reduction
  for (auto _ : state) {
    measured([&] {
      const Result<CheckResult> r = decide(sys, o);
      benchmark::DoNotOptimize(r->verdict);
    });
  }
  state.SetLabel(state.range(0) ? "persistent" : "explicit");
}
BENCHMARK(BM_Engine)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The full-scale table (`neffbar hypotheses --full`): every scenario, once.
void BM_FullTable(benchmark::State& state) {
  MatrixOptions o;
  o.full = true;
  for (auto _ : state) {
    measured([&] {
      const auto rows = run_matrix(o);
      benchmark::DoNotOptimize(rows.size());
    });
  }
}
BENCHMARK(BM_FullTable)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
