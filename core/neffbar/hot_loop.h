// NEFFBAR_HOT_LOOP marks the engines' innermost data loops (the state table, the
// greedy run, the value sums) as not coverage-instrumented in fuzz builds.  Every
// input runs their branches; what instrumentation adds there is a comparison trace per
// iteration (~20 % of a property target's CPU under libFuzzer) and hit-count features
// that only say how large a system was.  ASan and UBSan still check them; the logic
// that decides a verdict (run_block, the analysis) stays instrumented.
#pragma once

#if defined(__has_feature)
#if __has_feature(coverage_sanitizer)
// noinline: inlined into an instrumented caller, the body would be instrumented there.
#define NEFFBAR_HOT_LOOP __attribute__((no_sanitize("coverage"), noinline))
#endif
#endif
#ifndef NEFFBAR_HOT_LOOP
#define NEFFBAR_HOT_LOOP
#endif
