// --max-seconds bounds the whole command: check and check-configs run in process
// (neffbar::cli::run) with an injected clock cut at every read it makes, without timing
// anything.  At every cut the command answers the uncut verdict or BUDGET (exit 4,
// never exact), its JSON is whole, and it reads the clock at most a few times after the
// cut: no phase (composing and lowering, the decision, a re-check of fewer rounds)
// starts once the budget is spent.
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app.h"
#include "run_in_process.h"
#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"

namespace neffbar::cli {
namespace {

// As main() does: check-configs without hints finds its symmetry with nauty.
[[maybe_unused]] const bool kNautyRegistered = (model::use_nauty_automorphisms(), true);

struct Answer {
  int code = 0;
  nlohmann::json out;
  std::uint64_t reads = 0;        // clock reads in all
  std::uint64_t after_cut = 0;    // of which after the first one past the budget
};

Answer run_cut(std::vector<std::string> words, std::uint64_t cut_at) {
  auto reads = std::make_shared<std::uint64_t>(0);
  auto past = std::make_shared<std::uint64_t>(0);
  const model::SecondsClock clock = [reads, past, cut_at] {
    if ((*reads)++ < cut_at) return 0.0;
    ++*past;
    return 1e9;
  };
  const in_process::Ran r = in_process::run_cli(std::move(words), clock);
  Answer a;
  a.code = r.code;
  a.out = nlohmann::json::parse(r.out, nullptr, false);
  a.reads = *reads;
  a.after_cut = *past > 0 ? *past - 1 : 0;
  return a;
}

std::uint64_t sweep(const std::vector<std::string>& words) {
  const Answer full = run_cut(words, UINT64_MAX);
  EXPECT_FALSE(full.out.is_discarded()) << "the uncut command's JSON";
  const std::string verdict = full.out.value("verdict", "?");
  std::uint64_t budgets = 0;
  for (std::uint64_t k = 0; k <= full.reads; ++k) {
    const Answer c = run_cut(words, k);
    const std::string what = words[0] + " cut at read " + std::to_string(k) + " of " + std::to_string(full.reads);
    EXPECT_FALSE(c.out.is_discarded()) << what << ": its JSON is whole";
    if (c.out.is_discarded()) continue;
    const std::string v = c.out.value("verdict", "?");
    EXPECT_TRUE(v == verdict || v == "BUDGET") << what << ": " << v << " (uncut " << verdict << ")";
    EXPECT_EQ(c.code, v == verdict ? full.code : 4) << what;
    if (v == "BUDGET") {
      ++budgets;
      EXPECT_FALSE(c.out.value("exact", true)) << what;
    }
    EXPECT_LE(c.after_cut, 3u) << what << ": the clock read " << c.after_cut << " more times after the cut";
  }
  EXPECT_GT(budgets, 0u) << words[0] << ": no cut changed the answer";
  return full.reads + 1;
}

TEST(ModelCmdsBudget, CheckWithItsReChecksAtEveryClockRead) {
  // The explicit search on a failing 2-round scenario: the decision, then a re-check of
  // 1 round, each reading the clock at every poll.
  EXPECT_GT(sweep({"check", "--chips", "1", "--leaders", "2", "--rounds", "2", "--engine", "explicit", "--json"}), 3u);
}

TEST(ModelCmdsBudget, CheckThroughThePersistentEngineAtEveryClockRead) {
  EXPECT_GT(sweep({"check", "--chips", "2", "--leaders", "2", "--host-cc", "--rounds", "3", "--json"}), 3u);
}

TEST(ModelCmdsBudget, RandomSchedulesAtEveryClockRead) {
  EXPECT_GT(sweep({"check", "--chips", "1", "--leaders", "2", "--random", "3", "--json"}), 3u);
}

TEST(ModelCmdsBudget, CheckConfigsAtEveryClockRead) {
  const std::string cfg = std::string(NEFFBAR_CORPUS_DIR) + "/examples/two_leaders_gate.json";
  // check-configs reads config images: encode the shipped example first.
  const std::string bin = ::testing::TempDir() + "/cli_budget_two_leaders.bin";
  std::vector<std::string> enc{"neffbar", "encode", cfg, "-o", bin};
  std::vector<char*> argv;
  for (std::string& w : enc) argv.push_back(w.data());
  argv.push_back(nullptr);
  ASSERT_EQ(run(static_cast<int>(enc.size()), argv.data()), 0);
  EXPECT_GT(sweep({"check-configs", bin, bin, "--engine", "explicit", "--json"}), 3u);
  // Four copies: the symmetry found by nauty, its search tree polled too.
  const std::vector<std::string> four{"check-configs", bin, bin, bin, bin, "--engine", "explicit", "--json"};
  EXPECT_EQ(run_cut(four, UINT64_MAX).out.value("symmetry_source", ""), model::nauty_automorphisms()->name());
  EXPECT_GT(sweep(four), 3u);
}

}  // namespace
}  // namespace neffbar::cli
