// The operation a benchmark measures, named once, so it can be counted as well as timed.
//
// Every benchmark's loop body is `measured([&] { ... })`.  Timed (Google Benchmark),
// it is one call.  Counted (scripts/bench-count runs one benchmark under
// `valgrind --tool=callgrind --collect-atstart=no` with NEFFBAR_COUNT=N), the first call
// runs the operation once untimed and uncounted (lazy tables, allocator warm-up), then
// N more times with callgrind collecting, prints "neffbar-count: N" and exits: the
// collected instructions / N are the operation's own, without the setup before the loop
// and without the harness, and the same on every run of the same binary.
//
// Memory (memory_manager.h): in the batch Google Benchmark runs with the memory manager
// on, each call counts its operation's allocations and peak bytes, and nothing around it.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "memory_manager.h"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define NEFFBAR_HAVE_CALLGRIND 1
#endif

namespace neffbar::bench {

// NEFFBAR_COUNT=N (N >= 1): how many runs to count; 0 when timing.
inline int count_runs() {
  static const int n = [] {
    const char* v = std::getenv("NEFFBAR_COUNT");
    return v ? std::max(0, std::atoi(v)) : 0;
  }();
  return n;
}

inline void toggle_collect() {
#ifdef NEFFBAR_HAVE_CALLGRIND
  CALLGRIND_TOGGLE_COLLECT;
#endif
}

template <class Op>
[[gnu::noinline]] void measured(Op&& op) {
  const int n = count_runs();
  if (n == 0) {
    if (heap::measuring.load(std::memory_order_relaxed)) [[unlikely]] {
      const heap::Operation counted;
      op();
    } else {
      op();
    }
    return;
  }
  op();  // warm-up, not counted
  toggle_collect();
  for (int i = 0; i < n; ++i) op();
  toggle_collect();
  std::fprintf(stderr, "neffbar-count: %d\n", n);
  std::fflush(stderr);
  std::_Exit(0);  // callgrind writes what it collected; the rest of the run is not needed
}

}  // namespace neffbar::bench
