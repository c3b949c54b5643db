// ctest bench_memory_manager: the counting behind every benchmark's memory figure
// (memory_manager.h), each form of operator new and delete, what an operation's peak is,
// what is left out (the harness, anything outside a measurement), the repointing of
// Google Benchmark 1.7's memory results, and a real run's JSON: every repetition of a
// benchmark that allocates a known amount reports exactly it.
// Its own executable, since memory_manager.cpp replaces the global operator new.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "measured.h"
#include "memory_manager.h"

namespace {

using neffbar::bench::HeapMemoryManager;
using neffbar::bench::measured;
using Result = benchmark::MemoryManager::Result;
using Run = benchmark::BenchmarkReporter::Run;
namespace heap = neffbar::bench::heap;

int failures = 0;

// A Result made without its constructor, which reads MemoryManager::TombstoneValue:
// libbenchmark 1.7 defines it but does not export it, so only the library itself can
// construct one.  Result is trivially copyable: its bytes are the object.
Result blank() { return std::bit_cast<Result>(std::array<std::byte, sizeof(Result)>{}); }

void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::printf("memory manager test: FAIL: %s\n", what.c_str());
  }
}

void expect_figures(const Result& r, std::int64_t allocs, std::int64_t peak, const std::string& what) {
  expect(r.num_allocs == allocs && r.max_bytes_used == peak,
         what + ": " + std::to_string(r.num_allocs) + " allocations, peak " + std::to_string(r.max_bytes_used) +
             " bytes; expected " + std::to_string(allocs) + " and " + std::to_string(peak));
}

// Calls the replaceable functions themselves (a new-expression paired with its delete may
// be elided); DoNotOptimize keeps each pointer alive.
void* take(std::size_t n) {
  void* p = ::operator new(n);
  benchmark::DoNotOptimize(p);
  return p;
}

// The sized forms of delete, which the compiler declares only with sized deallocation
// (g++ from C++14 on; clang++ before 19 only with -fsized-deallocation): the unsized
// form where they are not declared.
void delete_sized(void* p, std::size_t n) {
#if __cpp_sized_deallocation
  ::operator delete(p, n);
#else
  (void)n;
  ::operator delete(p);
#endif
}

void delete_array_sized(void* p, std::size_t n) {
#if __cpp_sized_deallocation
  ::operator delete[](p, n);
#else
  (void)n;
  ::operator delete[](p);
#endif
}

void delete_array_sized(void* p, std::size_t n, std::align_val_t a) {
#if __cpp_sized_deallocation
  ::operator delete[](p, n, a);
#else
  (void)n;
  ::operator delete[](p, a);
#endif
}

// One measurement batch of the operations `ops`, each as measured() counts it.
template <class... Ops>
Result batch(Ops&&... ops) {
  HeapMemoryManager m;
  Result r = blank();
  m.Start();
  (measured(ops), ...);
  m.Stop(r);
  return r;
}

// Each operation's allocations: their count and its own peak.
void counting() {
  expect_figures(batch([] { ::operator delete(take(100)); }), 1, 100, "one allocation of 100 bytes");
  expect_figures(batch([] { ::operator delete(take(100)); }, [] { ::operator delete(take(100)); }), 2, 100,
                 "two operations of 100 bytes each: the peak is one operation's");
  std::vector<void*> kept;
  kept.reserve(2);  // its own buffer allocated here, outside the operations
  expect_figures(batch([&] { kept.push_back(take(100)); }, [&] { kept.push_back(take(100)); }), 2, 100,
                 "two operations that each keep 100 bytes: each operation's own peak, not their sum");
  for (void* p : kept) ::operator delete(p);
}

// Blocks that cross an operation's bounds belong to none of the operations.
void counting_across_operations() {
  void* before = take(100);
  expect_figures(batch([&] {
                   ::operator delete(before);
                   ::operator delete(take(150));
                 }),
                 1, 150, "a block from before the operation freed in it is not counted");
  void* kept_over = nullptr;
  expect_figures(batch([&] { kept_over = take(300); },
                       [&] {
                         ::operator delete(kept_over);
                         ::operator delete(take(200));
                       }),
                 2, 300, "a block one operation kept and the next freed is not the next one's");
}

// Many blocks at once (the table grows, and deletes shift entries back): the peak
// against the test's own reckoning, frees in a scrambled order.
void counting_many_blocks() {
  std::vector<void*> many(48000);  // 32,000 live at once: the table half full (65,536 slots), clusters wrap round its end
  std::vector<std::size_t> sizes(many.size());
  std::int64_t expected_peak = 0;
  {
    std::int64_t live = 0;
    for (std::size_t i = 0; i < many.size(); ++i) {
      sizes[i] = 1 + (i * 7919) % 300;
      live += static_cast<std::int64_t>(sizes[i]);
      expected_peak = std::max(expected_peak, live);
      if (i % 3 == 2) live -= static_cast<std::int64_t>(sizes[i - 1]);  // the one before, freed right after
    }
  }
  expect_figures(batch([&] {
                   for (std::size_t i = 0; i < many.size(); ++i) {
                     many[i] = take(sizes[i]);
                     if (i % 3 == 2) {
                       delete_sized(many[i - 1], sizes[i - 1]);
                       many[i - 1] = nullptr;
                     }
                   }
                   for (std::size_t k = 0; k < many.size(); ++k) {
                     void*& p = many[(k * 7907) % many.size()];  // 7907 is prime: every index once
                     ::operator delete(p);
                     p = nullptr;
                   }
                   // Every block given back: the live bytes are 0 again, so a block of
                   // the peak's size reaches the peak and no higher.
                   ::operator delete(take(static_cast<std::size_t>(expected_peak)));
                 }),
                 static_cast<std::int64_t>(many.size()) + 1, expected_peak,
                 "48,000 blocks, a third freed at once, the rest in a scrambled order: the peak to the byte");
}

// Only what an operation allocates, between Start and Stop, counts.
void counting_outside_operations() {
  {
    HeapMemoryManager m;
    Result r = blank();
    m.Start();
    void* harness = take(1000);  // between Start and Stop, outside any operation
    measured([] { ::operator delete(take(10)); });
    ::operator delete(harness);
    m.Stop(r);
    expect_figures(r, 1, 10, "what the harness allocates around the operation is not counted");
  }
  {
    measured([] { ::operator delete(take(10)); });  // no measurement running
    HeapMemoryManager m;
    Result r = blank();
    m.Start();
    m.Stop(r);
    expect_figures(r, 0, 0, "an operation outside a measurement is not counted");
  }
}

// Every form of new and delete (sized, arrays, nothrow, over-aligned) is counted once.
void counting_every_form() {
  expect_figures(batch([] {
                   void* a = take(100);
                   delete_sized(a, 100);
                   ::operator delete(take(100));
                 }),
                 2, 100, "a sized delete gives its bytes back");
  expect_figures(batch([] {
                   void* a = ::operator new[](64);
                   benchmark::DoNotOptimize(a);
                   void* b = ::operator new[](32);
                   benchmark::DoNotOptimize(b);
                   ::operator delete[](a);
                   delete_array_sized(b, 32);
                 }),
                 2, 96, "arrays, sized and unsized delete[]");
  expect_figures(batch([] {
                   void* a = ::operator new(40, std::nothrow);
                   benchmark::DoNotOptimize(a);
                   ::operator delete(a, std::nothrow);
                   void* b = ::operator new[](24, std::nothrow);
                   benchmark::DoNotOptimize(b);
                   ::operator delete[](b, std::nothrow);
                 }),
                 2, 40, "nothrow new and delete");

  bool aligned = true;
  expect_figures(batch([&] {
                   for (const std::size_t align : {32u, 64u, 4096u}) {
                     void* a = ::operator new(200, std::align_val_t{align});
                     benchmark::DoNotOptimize(a);
                     aligned = aligned && reinterpret_cast<std::uintptr_t>(a) % align == 0;
                     std::memset(a, 0xab, 200);
                     ::operator delete(a, std::align_val_t{align});
                     void* b = ::operator new[](10, std::align_val_t{align}, std::nothrow);
                     benchmark::DoNotOptimize(b);
                     aligned = aligned && reinterpret_cast<std::uintptr_t>(b) % align == 0;
                     delete_array_sized(b, 10, std::align_val_t{align});
                   }
                 }),
                 6, 200, "over-aligned new and delete, every form");
  expect(aligned, "over-aligned blocks are aligned");
  void* small = ::operator new(1);
  expect(reinterpret_cast<std::uintptr_t>(small) % __STDCPP_DEFAULT_NEW_ALIGNMENT__ == 0,
         "a plain block keeps the default new alignment");
  ::operator delete(small);
}

// A container's growth, and allocations that fail.
void counting_growth_and_failure() {
  // libstdc++ doubles a vector's capacity (1, 2, 4 ... 1024 ints: 11 buffers); while it
  // moves, the old buffer and the new one are both live: the peak is 512 + 1024 ints.
  expect_figures(batch([] {
                   std::vector<int> v;
                   for (int i = 0; i < 1000; ++i) v.push_back(i);
                   benchmark::DoNotOptimize(v.data());
                 }),
                 11, (512 + 1024) * 4, "a growing std::vector: both buffers live while it moves");

  bool threw = false, null = false;
  volatile std::size_t too_much = SIZE_MAX - 8;  // not a constant the compiler warns about
  const Result r = batch([&] {
    try {
      benchmark::DoNotOptimize(::operator new(too_much));
    } catch (const std::bad_alloc&) {
      threw = true;
    }
    null = ::operator new(too_much, std::nothrow) == nullptr;
  });
  expect(threw, "new of too much throws std::bad_alloc");
  expect(null, "nothrow new of too much: nullptr");
  expect_figures(r, 0, 0, "an allocation that failed is not counted");
}

// The table of an operation's blocks against a std::unordered_map, and its deletions
// in clusters that wrap round the end of the table, where the backward shift must move
// entries from its start to its end.
void block_table() {
  heap::Blocks t;
  std::unordered_map<std::uintptr_t, std::size_t> ref;
  std::vector<std::uintptr_t> keys;
  std::mt19937_64 rng(7);
  bool agree = true;
  for (int step = 0; step < 300000 && agree; ++step) {
    if (keys.empty() || rng() % 3 != 0) {
      const std::uintptr_t k = (1 + rng() % 5'000'000) << 4;
      if (ref.count(k) != 0) continue;
      const std::size_t n = rng() % 1000;
      t.insert(reinterpret_cast<void*>(k), n);
      ref[k] = n;
      keys.push_back(k);
    } else {
      const std::size_t at = rng() % keys.size();
      const std::uintptr_t k = keys[at];
      keys[at] = keys.back();
      keys.pop_back();
      std::size_t n = 0;
      agree = t.erase(reinterpret_cast<void*>(k), n) && n == ref[k];
      ref.erase(k);
    }
  }
  std::size_t n = 0;
  expect(agree && !t.erase(reinterpret_cast<void*>(std::uintptr_t{16}), n),
         "the block table agrees with a std::unordered_map over 300,000 random inserts and erases");

  // Keys homed at the table's last slots: a cluster from the end round to its start.
  for (std::size_t drop = 0; drop < 6; ++drop) {
    heap::Blocks w;
    w.insert(reinterpret_cast<void*>(std::uintptr_t{16}), 1);  // the table made (1024 slots)
    std::size_t dummy = 0;
    w.erase(reinterpret_cast<void*>(std::uintptr_t{16}), dummy);
    // Homes last, 0, last, last - 1, 1, last: in slots last, 0, 1, 2, 3, 4 (last - 1 is
    // free when the fourth comes: it lands at its home), entries at their home and past it.
    const std::size_t last = w.capacity() - 1;
    std::vector<std::uintptr_t> wrap;
    for (const std::size_t want : {last, std::size_t{0}, last, last - 1, std::size_t{1}, last}) {
      std::uintptr_t x = 1;
      while (w.home(x << 4) != want || std::find(wrap.begin(), wrap.end(), x << 4) != wrap.end()) ++x;
      wrap.push_back(x << 4);
    }
    for (std::size_t i = 0; i < wrap.size(); ++i) w.insert(reinterpret_cast<void*>(wrap[i]), 100 + i);
    bool ok = w.erase(reinterpret_cast<void*>(wrap[drop]), n) && n == 100 + drop;
    for (std::size_t i = 0; i < wrap.size(); ++i) {
      if (i != drop) ok = ok && w.erase(reinterpret_cast<void*>(wrap[i]), n) && n == 100 + i;
    }
    expect(ok, "a cluster that wraps round the table's end: erasing block " + std::to_string(drop) + " of 6 keeps the others");
  }
}

Run repetition(const std::string& name, std::int64_t k, std::int64_t n, const Result* memory) {
  Run r;
  r.run_name.function_name = name;
  r.run_type = Run::RT_Iteration;
  r.repetition_index = k;
  r.repetitions = n;
  r.memory_result = memory;
  return r;
}

void repointing() {
  // The runner's vector as it ends, and the buffer its first repetitions were reported
  // from before it moved (scribbled on, as freed memory may be).
  std::vector<Result> final(3, blank()), stale(3, blank());
  for (std::size_t k = 0; k < 3; ++k) final[k].max_bytes_used = static_cast<std::int64_t>(10 * (k + 1)), stale[k].max_bytes_used = -1;
  std::vector<Run> runs{repetition("BM_X", 0, 3, &stale[0]), repetition("BM_X", 1, 3, &stale[1]),
                        repetition("BM_X", 2, 3, &final[2])};
  neffbar::bench::repoint_memory_results(runs);
  expect(runs[0].memory_result == &final[0] && runs[1].memory_result == &final[1] && runs[2].memory_result == &final[2],
         "each repetition's report repointed at its element of the runner's vector");

  for (const auto& [what, bad] : std::vector<std::pair<std::string, Run>>{
           {"another benchmark's report", repetition("BM_Y", 1, 3, &stale[1])},
           {"a repetition out of order", repetition("BM_X", 0, 3, &stale[1])},
           {"a report without a memory result", repetition("BM_X", 1, 3, nullptr)}}) {
    std::vector<Run> mixed{repetition("BM_X", 0, 3, &stale[0]), bad, repetition("BM_X", 2, 3, &final[2])};
    neffbar::bench::repoint_memory_results(mixed);
    expect(mixed[0].memory_result == nullptr && mixed[1].memory_result == nullptr && mixed[2].memory_result == &final[2],
           what + " among them: only the last report keeps its memory result");
  }
  std::vector<Run> one{repetition("BM_X", 0, 1, &final[0])};
  neffbar::bench::repoint_memory_results(one);
  expect(one[0].memory_result == &final[0], "a single repetition keeps its memory result");
}

void a_real_run() {
  benchmark::RegisterBenchmark("BM_ThreeBlocks", [](benchmark::State& state) {
    for (auto _ : state) {
      measured([] {
        void* a = take(1000);
        void* b = take(1000);
        void* c = take(1000);
        ::operator delete(a);
        ::operator delete(b);
        ::operator delete(c);
      });
    }
  });
  benchmark::RegisterBenchmark("BM_Nothing", [](benchmark::State& state) {
    std::vector<void*> harness;  // the benchmark's own allocations around the operation
    for (auto _ : state) {
      harness.push_back(take(8));
      measured([] { benchmark::ClobberMemory(); });
    }
    for (void* p : harness) ::operator delete(p);
  });
  HeapMemoryManager memory;
  benchmark::RegisterMemoryManager(&memory);
  std::ostringstream out, err;
  neffbar::bench::JsonReporter reporter;
  reporter.SetOutputStream(&out);
  reporter.SetErrorStream(&err);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::RegisterMemoryManager(nullptr);
  const nlohmann::json run = nlohmann::json::parse(out.str());
  int seen = 0;
  for (const auto& b : run["benchmarks"]) {
    if (b.value("run_type", "") != "iteration") {
      expect(!b.contains("max_bytes_used"), b.value("name", "?") + ": an aggregate carries no memory figure");
      continue;
    }
    ++seen;
    const bool three = b["run_name"] == "BM_ThreeBlocks";
    const std::string at = b["run_name"].get<std::string>() + " repetition " + std::to_string(b.value("repetition_index", -1));
    expect(b.contains("max_bytes_used") && b.contains("allocs_per_iter"), at + ": the memory figures are written");
    expect(b.value("max_bytes_used", -1) == (three ? 3000 : 0), at + ": max_bytes_used " + b.value("max_bytes_used", nlohmann::json()).dump());
    expect(b.value("allocs_per_iter", -1.0) == (three ? 3.0 : 0.0), at + ": allocs_per_iter " + b.value("allocs_per_iter", nlohmann::json()).dump());
  }
  expect(seen == 10, "5 repetitions of each benchmark reported (" + std::to_string(seen) + ")");
}

}  // namespace

int main(int argc, char** argv) {
  counting();
  counting_across_operations();
  counting_many_blocks();
  counting_outside_operations();
  counting_every_form();
  counting_growth_and_failure();
  block_table();
  repointing();
  std::vector<char*> args{argv[0]};
  std::string reps = "--benchmark_repetitions=5", mix = "--benchmark_enable_random_interleaving=true",
              quick = "--benchmark_min_time=0.001";
  args.insert(args.end(), {reps.data(), mix.data(), quick.data()});
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  (void)argc;
  a_real_run();
  benchmark::Shutdown();
  if (failures) {
    std::printf("memory manager test: FAILED (%d)\n", failures);
    return 1;
  }
  std::printf("memory manager test: passed\n");
  return 0;
}
