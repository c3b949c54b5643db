// A law run on one chosen case inside a gtest, outside rapidcheck: a failed check is a
// test failure naming the case and the check; a discard ends the case quietly.  Not
// thorough (Judge::thorough): the callers pick their cases and the engines to compare.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>

#include "judge.h"

namespace neffbar::props {

class CaseJudge final : public Judge {
 public:
  struct Stop {};
  explicit CaseJudge(std::string where) : where_(std::move(where)) {}
  [[noreturn]] void fail(std::string_view what) override {
    ADD_FAILURE() << where_ << ": " << what;
    throw Stop{};
  }
  [[noreturn]] void discard() override { throw Stop{}; }
  bool thorough() const override { return false; }

 private:
  std::string where_;
};

// law(judge) on the case `where`; true when it held (false: it failed, or discarded).
template <class Law>
bool holds_on(std::string where, const Law& law) {
  CaseJudge j(std::move(where));
  try {
    law(j);
    return true;
  } catch (const CaseJudge::Stop&) {
    return false;
  }
}

}  // namespace neffbar::props
