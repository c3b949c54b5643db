// The rapidcheck driver of the properties (properties.h): a Source whose choices are
// rapidcheck picks (so counterexamples shrink), a Judge that fails with the check's
// name, and the printing of typed inputs in counterexamples.
#pragma once

#include <rapidcheck.h>

#include <string>

#include "draw.h"
#include "judge.h"
#include "show.h"
#include "source.h"

namespace neffbar::props {

class RcSource final : public Source {
 public:
  std::uint64_t below(std::uint64_t n) override { return n <= 1 ? 0 : *rc::gen::inRange<std::uint64_t>(0, n); }
  std::uint64_t any64() override { return *rc::gen::arbitrary<std::uint64_t>(); }
};

class RcJudge final : public Judge {
 public:
  [[noreturn]] void fail(std::string_view what) override {
    RC_FAIL(std::string(what));
    std::abort();  // not reached: RC_FAIL throws
  }
  [[noreturn]] void discard() override {
    RC_DISCARD("outside the property");
    std::abort();
  }
  void classify(bool cond, std::string_view label) override { RC_CLASSIFY(cond, std::string(label)); }
  void tag(std::string_view label) override { RC_TAG(std::string(label)); }
};

// Draws the typed input as one rapidcheck value (shown whole in a counterexample,
// shrunk choice by choice) and runs the law on it.
template <class In, class Law>
void rc_run(In (*draw)(Source&), const Law& law) {
  const In in = *rc::gen::exec([draw] {
    RcSource s;
    return draw(s);
  });
  RcJudge judge;
  law(in, judge);
}

}  // namespace neffbar::props

namespace rc {
// Every logical struct with a schema, from the same Boost.PFR walk the fuzz targets use.
template <class T>
  requires neffbar::has_schema_v<T>
struct Arbitrary<T> {
  static Gen<T> arbitrary() {
    return gen::exec([] {
      neffbar::props::RcSource s;
      return neffbar::props::draw_logical<T>(s);
    });
  }
};
}  // namespace rc
