// The memory figure of every benchmark: its operation's peak bytes and allocations, in
// Google Benchmark's JSON through its MemoryManager hook (max_bytes_used, allocs_per_iter).
//
// memory_manager.cpp replaces the global operator new and delete of the bench executable
// (every form: sized, aligned, nothrow, arrays), which stay malloc and free behind one
// flag test.  Google Benchmark measures once per repetition, after the timed iterations:
// an extra batch of min(16, iterations) iterations between Start() and Stop()
// (benchmark_runner.cc), so timed iterations never pay for the counting.  In that batch,
// measured() (measured.h) counts what each operation allocates and frees (each block in
// a table with the size asked for, Blocks), and nothing of the harness or the setup:
//  - max_bytes_used: the most the blocks one operation allocated and had not yet freed
//    ever held at once (what the call needs free; a block allocated before it and freed
//    in it is not counted);
//  - num_allocs: the operations' allocations; Google Benchmark divides them by the
//    batch's iterations (one operation each) and writes allocs_per_iter.
// Bytes are the sizes asked for, not what the allocator rounds them to, so the figure is
// the same on every machine and allocator for the same binary: deterministic, as
// instruction counts are.  malloc called directly (C code) is not seen.  The batch totals
// (total_allocated_bytes, net_heap_growth) are left out: they scale with the batch's
// iteration count, which depends on the machine's speed.
//
// JsonReporter writes them right with Google Benchmark 1.7 (see repoint_memory_results).
#pragma once

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace neffbar::bench {

class HeapMemoryManager final : public benchmark::MemoryManager {
 public:
  void Start() override;
  void Stop(Result& result) override;
  // Google Benchmark 1.7 calls this one (deprecated there, and pure virtual).
  BENCHMARK_DISABLE_DEPRECATED_WARNING
  void Stop(Result* result) override { Stop(*result); }
  BENCHMARK_RESTORE_DEPRECATED_WARNING
};

namespace heap {

// True between Start() and Stop(): measured() then counts its operation.
extern std::atomic<bool> measuring;

// The blocks the counted operation allocated and has not freed: address -> size asked
// for.  Open addressing, linear probing, deletion by backward shift (no tombstones), at
// most half full; its storage from calloc and free, so that it is never counted and never
// calls back into operator new.
class Blocks {
 public:
  // Where the probe for `k` (a block's address) starts: public for the test.
  std::size_t home(std::uintptr_t k) const { return static_cast<std::size_t>((k >> 4) * 0x9E3779B97F4A7C15ull) & mask_; }
  std::size_t capacity() const { return slots_ == nullptr ? 0 : mask_ + 1; }

  void insert(const void* p, std::size_t n) {
    if (2 * (count_ + 1) > capacity()) grow();
    put(key(p), n);
    ++count_;
  }

  // The size of `p`'s block, removed from the table; false when the table does not hold it.
  bool erase(const void* p, std::size_t& n) {
    if (count_ == 0) return false;
    std::size_t i = home(key(p));
    while (slots_[i].key != key(p)) {
      if (slots_[i].key == 0) return false;
      i = (i + 1) & mask_;
    }
    n = slots_[i].size;
    for (std::size_t j = (i + 1) & mask_; slots_[j].key != 0; j = (j + 1) & mask_) {
      const std::size_t h = home(slots_[j].key);
      // The entry at j stays unless its home is cyclically outside (i, j]: then it moves to i.
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (!stays) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = {};
    --count_;
    return true;
  }

  void clear() {
    if (count_ == 0) return;
    std::memset(static_cast<void*>(slots_), 0, capacity() * sizeof(Slot));
    count_ = 0;
  }

 private:
  struct Slot {
    std::uintptr_t key;  // the block's address; 0: empty
    std::size_t size;
  };

  static std::uintptr_t key(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

  void put(std::uintptr_t k, std::size_t n) {
    std::size_t i = home(k);
    while (slots_[i].key != 0) i = (i + 1) & mask_;
    slots_[i] = {k, n};
  }

  void grow() {
    const std::size_t old_capacity = capacity(), grown = old_capacity == 0 ? 1024 : 2 * old_capacity;
    Slot* const old = slots_;
    slots_ = static_cast<Slot*>(std::calloc(grown, sizeof(Slot)));
    if (slots_ == nullptr) {  // the figure would be wrong: no figure at all
      std::fputs("neffbar_bench: out of memory for the memory manager's block table\n", stderr);
      std::abort();
    }
    mask_ = grown - 1;
    for (std::size_t i = 0; i < old_capacity; ++i) {
      if (old[i].key != 0) put(old[i].key, old[i].size);
    }
    std::free(old);
  }

  Slot* slots_ = nullptr;
  std::size_t mask_ = 0, count_ = 0;
};

// Counts the allocations and frees made in its lifetime as one operation's.
class Operation {
 public:
  Operation();
  ~Operation();
  Operation(const Operation&) = delete;
  Operation& operator=(const Operation&) = delete;
};

}  // namespace heap

// Google Benchmark before 1.9.2 keeps each repetition's memory result in a std::vector
// and its report points at the element (benchmark_runner.cc; google/benchmark#1939,
// fixed by #1941): the next repetition's push_back can move the vector, and the JSON
// reporter, which writes every repetition once the benchmark's last one has run, then
// reads freed memory for all but the last.  The last report's pointer is always good
// (nothing was pushed after it) and the vector holds one result per repetition, in
// order: this points each repetition's report (`runs`, one benchmark's repetitions in
// order, as the runner reports them) at its element.  When `runs` is not that, only the
// last report keeps its memory result.  Aggregates and BigO carry none: left as they are.
void repoint_memory_results(std::vector<benchmark::BenchmarkReporter::Run>& runs);

// Google Benchmark's JSON reporter, each run's memory result repointed first.
class JsonReporter final : public benchmark::JSONReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override;
};

}  // namespace neffbar::bench
