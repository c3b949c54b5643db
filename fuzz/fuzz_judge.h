// A law's Judge (props/judge.h) inside a fuzz target: a failed check prints the target,
// the check and the input's size, then aborts (libFuzzer keeps the input as a crash); a
// discard throws Discarded, which the target catches and returns.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "judge.h"

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

}  // namespace neffbar::fuzz
