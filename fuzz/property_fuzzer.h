// The libFuzzer driver of the properties (props/registry.h): the target prop_<name>
// decodes its input bytes into the property's typed input with the same generator
// rapidcheck uses (props/draw.h over a ByteSource) and runs the law.  A failed check
// prints the property, the check and the input's size, then aborts (libFuzzer keeps the
// input as a crash); an input outside the property (a discard) returns.  The laws'
// expensive cross-checks (Judge::thorough) run for a hash-sampled one distinct input in
// 1024 while fuzzing and for every input in the ctest replay (SlowOracleSample,
// fuzz_check.h, NEFFBAR_FUZZ_EVERY=1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

#include "judge.h"
#include "source.h"

namespace neffbar::fuzz {

class FuzzJudge final : public props::Judge {
 public:
  struct Discarded {};
  FuzzJudge(std::string_view property, std::size_t size, bool thorough)
      : property_(property), size_(size), thorough_(thorough) {}
  [[noreturn]] void fail(std::string_view what) override {
    std::fprintf(stderr, "neffbar property %.*s failed: %.*s (input of %zu bytes)\n", static_cast<int>(property_.size()),
                 property_.data(), static_cast<int>(what.size()), what.data(), size_);
    std::abort();
  }
  [[noreturn]] void discard() override { throw Discarded{}; }
  bool thorough() const override { return thorough_; }

 private:
  std::string_view property_;
  std::size_t size_;
  bool thorough_;
};

// Never skips: the default of run_from_bytes.
struct DecideEveryInput {
  template <class In>
  bool decided(const In&, bool) {
    return false;
  }
};

// One property from bytes: draw its input from `data`, run the law (with its expensive
// checks when `thorough`) unless `memo` says this process already decided that input.
template <class In, class Law, class Memo = DecideEveryInput>
void run_from_bytes(std::string_view name, In (*draw)(props::Source&), const Law& law, std::span<const std::uint8_t> data,
                    bool thorough = true, Memo&& memo = {}) {
  props::ByteSource source(data);
  FuzzJudge judge(name, data.size(), thorough);
  try {
    const In in = draw(source);
    if (memo.decided(in, thorough)) return;
    law(in, judge);
  } catch (const FuzzJudge::Discarded&) {
  }
}

// Runs property `name` of the registry on `data`, thorough for the inputs the sample
// draws (every input under NEFFBAR_FUZZ_EVERY=1); aborts on an unknown name, so a
// target list that drifts from the registry fails its first replay.
int run_property(std::string_view name, const std::uint8_t* data, std::size_t size);

}  // namespace neffbar::fuzz
