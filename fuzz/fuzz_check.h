// What every fuzz target uses: an oracle failure is a crash libFuzzer can minimise.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <span>
#include <vector>

namespace neffbar::fuzz {

// Prints what broke and aborts (libFuzzer records the input as a crash).
inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "neffbar fuzz oracle failed: %s\n", what);
  std::abort();
}

// Whether an input runs a target's slow oracle (JSON, lint: ~1 ms under ASan+UBSan
// against ~10 us for the binary ones).  One distinct input in 1024 does, chosen by a
// hash of every byte so an input always takes the same path and a crash found there
// reproduces on its own; an input already checked in this process is not checked again
// (the oracle is a pure function of the bytes), because libFuzzer re-runs unchanged
// mutants of exactly the inputs whose slow path added features — without the memo 3 %
// of executions took it, not 0.1 %.  NEFFBAR_FUZZ_EVERY=1 (the ctest replay) runs it for
// every input.
class SlowOracleSample {
 public:
  static constexpr std::uint64_t kOneIn = 1024;
  explicit SlowOracleSample(std::uint64_t one_in = kOneIn) : one_in_(one_in) {}

  bool operator()(std::span<const std::uint8_t> input) {
    if (every_) return true;
    if (hash(input) % one_in_ != 0) return false;
    if (checked_.size() >= kMemo) checked_.clear();
    return checked_.emplace(input.begin(), input.end()).second;
  }

  // Eight bytes a step (this runs for every input), each step and the end mixed with
  // splitmix64's finaliser: a change to any bit of any byte re-draws the low bits.
  static std::uint64_t hash(std::span<const std::uint8_t> input) {
    std::uint64_t h = input.size();
    for (std::size_t at = 0; at < input.size(); at += 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, input.data() + at, std::min<std::size_t>(8, input.size() - at));
      h = mix(h ^ w);
    }
    return mix(h);
  }

 private:
  static std::uint64_t mix(std::uint64_t h) {
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    return h ^ (h >> 31);
  }

  static constexpr std::size_t kMemo = 1 << 16;
  std::uint64_t one_in_;
  bool every_ = std::getenv("NEFFBAR_FUZZ_EVERY") != nullptr;
  std::set<std::vector<std::uint8_t>> checked_;
};

}  // namespace neffbar::fuzz
