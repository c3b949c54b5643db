// Hot lookup: the fast table vs the faithful raw-byte scan vs the floor (one load from
// a constexpr 64-entry array), over every (fabric, type, step) and a random stream.
#include <benchmark/benchmark.h>

#include "measured.h"

#include <array>
#include <random>
#include <vector>

#include "neffbar/search.h"

namespace {

using neffbar::bench::measured;

using namespace neffbar;

struct Query {
  std::int64_t type, step;
  Fabric fabric;
};

std::vector<Query> sweep() {
  std::vector<Query> q;
  for (Fabric f : {Fabric::Default, Fabric::Switch}) {
    for (std::int64_t s = -1; s <= 4; ++s) {
      for (std::int64_t t = -1; t <= 8; ++t) q.push_back({t, s, f});
    }
  }
  return q;
}

std::vector<Query> stream() {
  std::mt19937 rng(42);
  std::vector<Query> q(4096);
  for (auto& x : q) x = {static_cast<std::int64_t>(rng() % 9), static_cast<std::int64_t>(rng() % 5),
                         rng() % 2 ? Fabric::Switch : Fabric::Default};
  return q;
}

constexpr std::array<std::uint64_t, 64> kFloor = [] {
  std::array<std::uint64_t, 64> a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = i * 0x9E3779B97F4A7C15ull;
  return a;
}();

template <class F>
void run(benchmark::State& state, const std::vector<Query>& qs, F f) {
  std::uint64_t acc = 0;
  for (auto _ : state) {
    measured([&] {
      for (const Query& q : qs) acc += f(q);
      benchmark::DoNotOptimize(acc);
    });
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * qs.size()));
}

const auto kSweep = sweep();
const auto kStream = stream();

std::uint64_t floor_load(const Query& q) {
  return kFloor[static_cast<std::size_t>((q.step * 8 + q.type) & 63) ^ (q.fabric == Fabric::Switch ? 32u : 0u)];
}
// The consumer is branch-free (value_or), so the comparison measures the lookups, not
// the harness's branch predictor.
std::uint64_t fast(const Query& q) {
  return static_cast<std::uint64_t>(search_fast(q.type, q.step, q.fabric).value_or(SearchHit{0, -1}).index + 1);
}
std::uint64_t faithful(const Query& q) {
  return static_cast<std::uint64_t>(search_faithful(q.type, q.step, q.fabric).value_or(SearchHit{0, -1}).index + 1);
}

// Each lookup is passed as a lambda, a type of its own, so it inlines into the loop
// inside measured() (a function pointer there would be an indirect call per query).
constexpr auto kFloorLoad = [](const Query& q) { return floor_load(q); };
constexpr auto kFast = [](const Query& q) { return fast(q); };
constexpr auto kFaithful = [](const Query& q) { return faithful(q); };

void BM_Search_Floor_Sweep(benchmark::State& s) { run(s, kSweep, kFloorLoad); }
void BM_Search_Fast_Sweep(benchmark::State& s) { run(s, kSweep, kFast); }
void BM_Search_Faithful_Sweep(benchmark::State& s) { run(s, kSweep, kFaithful); }
void BM_Search_Floor_Stream(benchmark::State& s) { run(s, kStream, kFloorLoad); }
void BM_Search_Fast_Stream(benchmark::State& s) { run(s, kStream, kFast); }
void BM_Search_Faithful_Stream(benchmark::State& s) { run(s, kStream, kFaithful); }

BENCHMARK(BM_Search_Floor_Sweep);
BENCHMARK(BM_Search_Fast_Sweep);
BENCHMARK(BM_Search_Faithful_Sweep);
BENCHMARK(BM_Search_Floor_Stream);
BENCHMARK(BM_Search_Fast_Stream);
BENCHMARK(BM_Search_Faithful_Stream);

}  // namespace
