// The memory figure of every benchmark: its operation's peak bytes and allocations, in
// Google Benchmark's JSON through its MemoryManager hook (max_bytes_used, allocs_per_iter).
//
// memory_manager.cpp replaces the global operator new and delete of the bench executable
// (every form: sized, aligned, nothrow, arrays); each block carries a header holding the
// size the code asked for.  Google Benchmark measures once per repetition, after the timed
// iterations: an extra batch of min(16, iterations) iterations between Start() and Stop()
// (benchmark_runner.cc), so timed iterations never pay for the counting.  In that batch,
// measured() (measured.h) counts what each operation allocates and frees, and nothing of
// the harness or the setup around it:
//  - max_bytes_used: the most one operation raised the live bytes above their level when
//    it started (what the call needs free; a block it frees that was allocated before it
//    lowers the level);
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
