// main() of the benchmarks: Google Benchmark's own (benchmark_main), with the memory
// figure of every benchmark registered (memory_manager.h) and its JSON written by
// JsonReporter, which reads each repetition's memory result where it is.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "memory_manager.h"

namespace benchmark {
// Google Benchmark's flags, exported by libbenchmark (BM_DEFINE_string in
// src/commandlineflags.h) but not declared in its public header: which reporters
// RunSpecifiedBenchmarks would create, read after Initialize() parsed the command line
// and the environment.
extern std::string FLAGS_benchmark_format;
extern std::string FLAGS_benchmark_out;
extern std::string FLAGS_benchmark_out_format;
}  // namespace benchmark

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  neffbar::bench::HeapMemoryManager memory;
  benchmark::RegisterMemoryManager(&memory);
  // The JSON reporters are ours; any other format is Google Benchmark's own (nullptr).
  std::unique_ptr<benchmark::BenchmarkReporter> display, file;
  if (benchmark::FLAGS_benchmark_format == "json") display = std::make_unique<neffbar::bench::JsonReporter>();
  if (!benchmark::FLAGS_benchmark_out.empty() && benchmark::FLAGS_benchmark_out_format == "json") {
    file = std::make_unique<neffbar::bench::JsonReporter>();
  }
  benchmark::RunSpecifiedBenchmarks(display.get(), file.get());
  benchmark::RegisterMemoryManager(nullptr);
  benchmark::Shutdown();
  return 0;
}
