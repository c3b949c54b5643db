// What a user runs, end to end and in process: `neffbar check --chips 64 --leaders 4
// --host-cc --lowering hierarchical --rounds R` through neffbar::cli::run (what main()
// calls): parsing, composing, lowering, deciding and writing the report, whose bytes go
// to a sink that drops them (what > /dev/null costs, without the system calls).  Built
// where the CLI is (NEFFBAR_CLI); against the persistent engine's floor.
#include <benchmark/benchmark.h>

#include "measured.h"

#include <iostream>
#include <streambuf>
#include <string>
#include <vector>

#include "app.h"

namespace {

using neffbar::bench::measured;

class NullBuffer final : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

void BM_Cli_Check(benchmark::State& state) {
  std::vector<std::string> words{"neffbar", "check",        "--chips",  "64", "--leaders", "4", "--host-cc",
                                 "--lowering", "hierarchical", "--rounds", std::to_string(state.range(0))};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  NullBuffer sink;
  int rc = 0;
  for (auto _ : state) {
    measured([&] {
      // stderr too: the check's progress lines (one a second) would land in the bench log.
      std::streambuf* out = std::cout.rdbuf(&sink);
      std::streambuf* err = std::cerr.rdbuf(&sink);
      rc = neffbar::cli::run(static_cast<int>(words.size()), argv.data());
      std::cout.rdbuf(out);
      std::cerr.rdbuf(err);
    });
  }
  // GLOBAL_UNSAFE (README.md, "The CLI"): any other exit measured something else.
  if (rc != 4) state.SkipWithError(("exit " + std::to_string(rc) + ", expected 4 (a failing verdict)").c_str());
}
// Seconds a run for now: each repetition runs it once (see bench_random.cpp).
BENCHMARK(BM_Cli_Check)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
