// verdict.h: the note's one renderer.  What a cut means for the verdict is said from the
// verdict and the counterexample; the remarks follow in order, and an unmeasured round
// comes last.
#include "neffbar/model/system/verdict.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace neffbar::model {
namespace {

CheckResult cut_by(Stop by, std::string detail = "") {
  CheckResult r;
  r.verdict = Verdict::Budget;
  r.exhaustive = false;
  r.note.cut = Cut{by, std::move(detail)};
  return r;
}

TEST(Note, NothingToSayIsEmpty) { EXPECT_EQ(note_text(CheckResult{}), ""); }

TEST(Note, EachBudgetIsNamed) {
  std::set<std::string> said;
  for (Stop s : {Stop::Time, Stop::States, Stop::Memory, Stop::OutOfMemory, Stop::Instructions, Stop::TooLarge}) {
    EXPECT_TRUE(said.insert(note_text(cut_by(s))).second) << enum_name(s);
  }
  EXPECT_EQ(note_text(cut_by(Stop::Time, " while verifying the symmetry")), "time budget exhausted while verifying the symmetry");
  EXPECT_EQ(note_text(cut_by(Stop::States)), "state budget exhausted");
  EXPECT_EQ(note_text(cut_by(Stop::TooLarge, ": a program is longer than 65534 instructions")),
            "too large for the explicit search: a program is longer than 65534 instructions");
  EXPECT_EQ(enum_name(Stop::OutOfMemory), "out_of_memory");
  EXPECT_EQ(enum_choices<Stop>(), "time|states|memory|out_of_memory|instructions|too_large");
  EXPECT_FALSE(parse_enum<Stop>("").has_value());
}

TEST(Note, WhatWasFoundBeforeTheCutIsSaid) {
  CheckResult real = cut_by(Stop::Time);
  real.verdict = Verdict::Unsafe;
  EXPECT_EQ(note_text(real), "time budget exhausted after the violation was found: the violation is real, but the run did "
                             "not finish, so other kinds of violation may be missed");
  CheckResult lesser = cut_by(Stop::States);
  lesser.cex = Counterexample{Verdict::GlobalUnsafe, "p0 departed", {}, true};
  EXPECT_EQ(note_text(lesser), "state budget exhausted after a GLOBAL_UNSAFE was found (the counterexample): a more severe "
                               "violation may come later, so the verdict is undecided");
  CheckResult ok;
  ok.cex = lesser.cex;  // no cut: nothing said of one
  EXPECT_EQ(note_text(ok), "");
}

TEST(Note, RemarksInOrderAndTheUnmeasuredRoundLast) {
  CheckResult r;
  r.verdict = Verdict::Unsafe;
  r.note.remarks = {"first", "second"};
  r.note.round_unmeasured = true;
  EXPECT_EQ(note_text(r), "first; second; broke in round: not measured (the budget ran out)");
  r.note.cut = Cut{Stop::Instructions, ""};
  EXPECT_EQ(note_text(r).rfind("instruction budget exhausted after the violation was found", 0), 0u) << note_text(r);
  EXPECT_NE(note_text(r).find("may be missed; first; second; broke in round"), std::string::npos) << note_text(r);
}

}  // namespace
}  // namespace neffbar::model
