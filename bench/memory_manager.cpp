// The global operator new and delete of the bench executable, counted (memory_manager.h).
//
// A block is [header | the bytes asked for]: the header holds the size asked for, so a
// free knows what it gives back whichever form of delete frees it (unsized delete, a
// delete[] of a type without a destructor, a library compiled without sized deallocation).
// The header is kDefaultAlign bytes, so what operator new returns keeps malloc's
// alignment; an over-aligned block puts `align` bytes before what it returns, the size in
// their last kDefaultAlign.
#include "memory_manager.h"

#include <algorithm>
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
static_assert(kDefaultAlign >= sizeof(std::size_t) && kDefaultAlign % alignof(std::size_t) == 0);

// Only touched while an operation of a measurement batch runs (one thread: the
// benchmark's); atomics all the same, so an allocation on another thread is never a race.
constinit std::atomic<bool> counting{false};
constinit std::atomic<std::int64_t> live{0};    // the operation's bytes now, from 0 at its start
constinit std::atomic<std::int64_t> peak{0};    // the highest `live` of any operation of the batch
constinit std::atomic<std::int64_t> allocs{0};  // allocations of every operation of the batch

void counted_alloc(std::size_t n) {
  if (!counting.load(std::memory_order_relaxed)) return;
  allocs.fetch_add(1, std::memory_order_relaxed);
  const std::int64_t now = live.fetch_add(static_cast<std::int64_t>(n), std::memory_order_relaxed) + static_cast<std::int64_t>(n);
  std::int64_t high = peak.load(std::memory_order_relaxed);
  while (now > high && !peak.compare_exchange_weak(high, now, std::memory_order_relaxed)) {
  }
}

void counted_free(std::size_t n) {
  if (!counting.load(std::memory_order_relaxed)) return;
  live.fetch_sub(static_cast<std::int64_t>(n), std::memory_order_relaxed);
}

std::size_t offset_for(std::size_t align) { return std::max(align, kDefaultAlign); }

// n bytes aligned to `align`, with the header before them; nullptr when there is no memory.
void* raw_allocate(std::size_t n, std::size_t align) {
  const std::size_t offset = offset_for(align);
  if (n > SIZE_MAX - offset) return nullptr;
  void* base = nullptr;
  if (offset == kDefaultAlign) {
    base = std::malloc(n + offset);
  } else if (::posix_memalign(&base, offset, n + offset) != 0) {
    base = nullptr;
  }
  if (base == nullptr) return nullptr;
  auto* user = static_cast<std::byte*>(base) + offset;
  *reinterpret_cast<std::size_t*>(user - kDefaultAlign) = n;
  counted_alloc(n);
  return user;
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

void deallocate(void* p, std::size_t align) noexcept {
  if (p == nullptr) return;
  auto* user = static_cast<std::byte*>(p);
  counted_free(*reinterpret_cast<const std::size_t*>(user - kDefaultAlign));
  std::free(user - offset_for(align));
}

}  // namespace

Operation::Operation() {
  live.store(0, std::memory_order_relaxed);
  counting.store(true, std::memory_order_relaxed);
}

Operation::~Operation() { counting.store(false, std::memory_order_relaxed); }

}  // namespace heap

void HeapMemoryManager::Start() {
  heap::peak.store(0, std::memory_order_relaxed);
  heap::allocs.store(0, std::memory_order_relaxed);
  heap::measuring.store(true, std::memory_order_relaxed);
}

void HeapMemoryManager::Stop(Result& result) {
  heap::measuring.store(false, std::memory_order_relaxed);
  result.num_allocs = heap::allocs.load(std::memory_order_relaxed);
  result.max_bytes_used = heap::peak.load(std::memory_order_relaxed);
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
using neffbar::bench::heap::allocate_nothrow;
using neffbar::bench::heap::allocate_or_throw;
using neffbar::bench::heap::deallocate;
using neffbar::bench::heap::kDefaultAlign;

void* operator new(std::size_t n) { return allocate_or_throw(n, kDefaultAlign); }
void* operator new[](std::size_t n) { return allocate_or_throw(n, kDefaultAlign); }
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

void operator delete(void* p) noexcept { deallocate(p, kDefaultAlign); }
void operator delete[](void* p) noexcept { deallocate(p, kDefaultAlign); }
void operator delete(void* p, std::size_t) noexcept { deallocate(p, kDefaultAlign); }
void operator delete[](void* p, std::size_t) noexcept { deallocate(p, kDefaultAlign); }
void operator delete(void* p, const std::nothrow_t&) noexcept { deallocate(p, kDefaultAlign); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { deallocate(p, kDefaultAlign); }
void operator delete(void* p, std::align_val_t a) noexcept { deallocate(p, static_cast<std::size_t>(a)); }
void operator delete[](void* p, std::align_val_t a) noexcept { deallocate(p, static_cast<std::size_t>(a)); }
void operator delete(void* p, std::size_t, std::align_val_t a) noexcept { deallocate(p, static_cast<std::size_t>(a)); }
void operator delete[](void* p, std::size_t, std::align_val_t a) noexcept { deallocate(p, static_cast<std::size_t>(a)); }
void operator delete(void* p, std::align_val_t a, const std::nothrow_t&) noexcept {
  deallocate(p, static_cast<std::size_t>(a));
}
void operator delete[](void* p, std::align_val_t a, const std::nothrow_t&) noexcept {
  deallocate(p, static_cast<std::size_t>(a));
}
