// The global operator new and delete of the bench executable, counted (memory_manager.h).
//
// A block is what malloc (posix_memalign when over-aligned) gives, nothing added: outside
// a counted operation, new and delete are malloc and free behind one flag test, so the
// timed iterations and the instruction counts see the allocator as the CLI does.  While
// an operation is counted, each block it allocates is noted with the size asked for in
// a table of its own (Blocks, its storage from malloc directly: never counted, never
// back into operator new), and a free finds its size there.  A free of a block the table
// does not hold (one allocated before the operation) is not counted.
#include "memory_manager.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <type_traits>

namespace neffbar::bench {
namespace heap {

constinit std::atomic<bool> measuring{false};

namespace {

constexpr std::size_t kDefaultAlign = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

// Only touched while an operation of a measurement batch runs, on the benchmark's thread
// (Google Benchmark runs the batch on the main thread, and nothing measured starts one).
constinit std::atomic<bool> counting{false};
constinit Blocks blocks;    // constant-initialised: usable by a new before any constructor ran
std::int64_t live = 0;      // the operation's bytes now, from 0 at its start
std::int64_t peak = 0;      // the highest `live` of any operation of the batch
std::int64_t allocs = 0;    // allocations of every operation of the batch

void counted_alloc(void* p, std::size_t n) {
  blocks.insert(p, n);
  ++allocs;
  live += static_cast<std::int64_t>(n);
  if (live > peak) peak = live;
}

void counted_free(void* p) {
  std::size_t n = 0;
  if (blocks.erase(p, n)) live -= static_cast<std::int64_t>(n);
}

// n bytes aligned to `align`; nullptr when there is no memory.
void* raw_allocate(std::size_t n, std::size_t align) {
  void* p = nullptr;
  if (align <= kDefaultAlign) {
    p = std::malloc(n == 0 ? 1 : n);
  } else if (::posix_memalign(&p, align, n == 0 ? 1 : n) != 0) {
    p = nullptr;
  }
  if (p != nullptr && counting.load(std::memory_order_relaxed)) counted_alloc(p, n);
  return p;
}

// operator new's loop: the new-handler may free memory, else it is out of memory.
void* allocate(std::size_t n, std::size_t align) {
  for (;;) {
    if (void* p = raw_allocate(n, align)) return p;
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) return nullptr;
    handler();  // frees memory, or throws std::bad_alloc, or ends the program
  }
}

void* allocate_or_throw(std::size_t n, std::size_t align) {
  if (void* p = allocate(n, align)) return p;
  throw std::bad_alloc();
}

void* allocate_nothrow(std::size_t n, std::size_t align) noexcept {
  try {
    return allocate(n, align);
  } catch (...) {  // a new-handler that threw
    return nullptr;
  }
}

void deallocate(void* p) noexcept {
  if (counting.load(std::memory_order_relaxed)) [[unlikely]] {
    if (p != nullptr) counted_free(p);
  }
  std::free(p);
}

// operator new(size_t), the one nearly every allocation goes through: malloc and one
// flag test when nothing is counted (as many instructions as libstdc++'s own, give or
// take the test), the new-handler loop only when malloc has no memory.
inline void* allocate_default(std::size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p != nullptr) [[likely]] {
    if (counting.load(std::memory_order_relaxed)) [[unlikely]] counted_alloc(p, n);
    return p;
  }
  return allocate_or_throw(n, kDefaultAlign);
}

}  // namespace

Operation::Operation() {
  blocks.clear();  // what an earlier operation kept is not this one's
  live = 0;
  counting.store(true, std::memory_order_relaxed);
}

Operation::~Operation() { counting.store(false, std::memory_order_relaxed); }

}  // namespace heap

void HeapMemoryManager::Start() {
  heap::peak = 0;
  heap::allocs = 0;
  heap::measuring.store(true, std::memory_order_relaxed);
}

void HeapMemoryManager::Stop(Result& result) {
  heap::measuring.store(false, std::memory_order_relaxed);
  result.num_allocs = heap::allocs;
  result.max_bytes_used = heap::peak;
}

void repoint_memory_results(std::vector<benchmark::BenchmarkReporter::Run>& runs) {
  using Run = benchmark::BenchmarkReporter::Run;
  if constexpr (std::is_pointer_v<decltype(Run::memory_result)>) {  // a value from 1.9.2 on
    const std::size_t n = runs.size();
    if (n < 2 || runs.back().memory_result == nullptr) return;
    const std::string name = runs.back().benchmark_name();
    for (std::size_t k = 0; k < n; ++k) {
      const Run& r = runs[k];
      if (r.memory_result == nullptr || r.run_type != Run::RT_Iteration || r.repetition_index != static_cast<std::int64_t>(k) ||
          r.repetitions != static_cast<std::int64_t>(n) || r.benchmark_name() != name) {
        for (std::size_t j = 0; j + 1 < n; ++j) runs[j].memory_result = nullptr;
        return;
      }
    }
    const auto* last = runs.back().memory_result;
    for (std::size_t k = 0; k + 1 < n; ++k) runs[k].memory_result = last - (n - 1 - k);
  }
}

void JsonReporter::ReportRuns(const std::vector<Run>& runs) {
  std::vector<Run> repointed = runs;
  repoint_memory_results(repointed);
  benchmark::JSONReporter::ReportRuns(repointed);
}

}  // namespace neffbar::bench

// ------------------------------------------------------- the replaced functions --
using neffbar::bench::heap::allocate_default;
using neffbar::bench::heap::allocate_nothrow;
using neffbar::bench::heap::allocate_or_throw;
using neffbar::bench::heap::deallocate;
using neffbar::bench::heap::kDefaultAlign;

void* operator new(std::size_t n) { return allocate_default(n); }
void* operator new[](std::size_t n) { return allocate_default(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate_nothrow(n, kDefaultAlign); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate_nothrow(n, kDefaultAlign); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate_nothrow(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate_nothrow(n, static_cast<std::size_t>(a));
}

// Every delete is free: malloc and posix_memalign blocks are both freed by it, and the
// size a sized delete passes is the one the table holds.
void operator delete(void* p) noexcept { deallocate(p); }
void operator delete[](void* p) noexcept { deallocate(p); }
void operator delete(void* p, std::size_t) noexcept { deallocate(p); }
void operator delete[](void* p, std::size_t) noexcept { deallocate(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { deallocate(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { deallocate(p); }
void operator delete(void* p, std::align_val_t) noexcept { deallocate(p); }
void operator delete[](void* p, std::align_val_t) noexcept { deallocate(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { deallocate(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { deallocate(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { deallocate(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { deallocate(p); }
