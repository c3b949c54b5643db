// The hypothesis matrix (core/neffbar/model/scenarios/matrix.h) and its summary
// (core/neffbar/report/matrix_report.h): rows, counterexamples, progress, budgets.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "neffbar/model/scenarios/matrix.h"
#include "neffbar/model/scenarios/scenario.h"
#include "neffbar/report/matrix_report.h"

namespace neffbar::model {
namespace {

// A matrix row says whether the global property holds, as its own field too.
TEST(Matrix, RowsSayWhetherTheGlobalPropertyHolds) {
  Scenario s;
  s.topo = Topology{2, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table};
  s.run.check.guarantee = GuaranteeMode::Declared;  // OK, with the global finding reported
  const MatrixRow broken = *matrix_row(s);
  EXPECT_EQ(broken.verdict, Verdict::Ok);
  EXPECT_FALSE(broken.global_holds());
  EXPECT_NE(broken.global, GlobalStatus::Holds);
  s.topo.lowering = Lowering::Hierarchical;
  const MatrixRow holds = *matrix_row(s);
  EXPECT_TRUE(holds.global_holds());
  EXPECT_EQ(holds.global, GlobalStatus::Holds);
  EXPECT_TRUE(holds.counterexample.empty());
  EXPECT_EQ(holds.cex_steps, 0u);
  // ... and so do its JSON rows, each its own.
  const nlohmann::json js = nlohmann::json::parse(report::matrix_json({broken, holds}));
  ASSERT_EQ(js.size(), 2u);
  EXPECT_EQ(js[0]["global_property_holds"], false);
  EXPECT_EQ(js[0]["global_property"], global_status_name(broken.global));
  EXPECT_EQ(js[1]["global_property_holds"], true);
  EXPECT_EQ(js[1]["global_property"], "holds");
}

// A row keeps its system and counterexample (for the grid's charts) only when asked:
// the matrix's thousands of rows would otherwise hold every one.
TEST(Matrix, ARowKeepsItsCounterexampleOnlyWhenAsked) {
  Scenario s;
  s.topo = Topology{2, 2, Fabric::Default, true, 1, Wiring::PerPeer, Lowering::Table};
  const MatrixRow plain = *matrix_row(s);
  ASSERT_NE(plain.verdict, Verdict::Ok);
  EXPECT_FALSE(plain.cex.has_value());
  EXPECT_EQ(plain.system, nullptr);
  const MatrixRow kept = *matrix_row(s, true);
  ASSERT_TRUE(kept.cex.has_value());
  ASSERT_NE(kept.system, nullptr);
  EXPECT_EQ(kept.cex->trace.size(), plain.cex_steps);
  MatrixOptions o;
  o.small = true;
  for (const MatrixRow& r : run_matrix(o)) ASSERT_FALSE(r.cex.has_value() || r.system) << "kept without being asked";
}

// The small matrix: one row per scenario, in the scenarios' order, and progress after
// each row as (rows done, rows in all), ending at (768, 768).
TEST(Matrix, RunsEveryScenarioInOrderAndReportsProgressAfterEachRow) {
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  MatrixOptions o;
  o.small = true;
  o.progress = [&](std::size_t done, std::size_t total) { calls.emplace_back(done, total); };
  const std::vector<MatrixRow> rows = run_matrix(o);
  const std::vector<Scenario> all = matrix_scenarios(true);
  ASSERT_EQ(rows.size(), all.size());
  ASSERT_EQ(all.size(), 768u);
  ASSERT_EQ(calls.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(rows[i].topo, all[i].topo) << i;
    EXPECT_EQ(rows[i].hyp, all[i].hyp) << i;
    EXPECT_EQ(calls[i], std::pair(i + 1, all.size())) << i;
  }
}

// Every cell of the matrix and of the full table has its own 60 s budget (a cell that
// runs long is a BUDGET row, not a `hypotheses` that never ends), and the matrix asks
// the explicit search for its shortest counterexamples.
TEST(Matrix, EveryCellHasASixtySecondBudget) {
  for (const bool small : {true, false}) {
    for (const Scenario& s : matrix_scenarios(small)) {
      ASSERT_EQ(s.run.check.max_seconds, 60) << small;
      ASSERT_EQ(s.run.engine, Engine::Explicit) << small;
    }
  }
  for (const Scenario& s : full_scenarios()) ASSERT_EQ(s.run.check.max_seconds, 60);
}

// The full table's summary: per key (lowering, fabric, wiring, dec, host-CC) and per
// leader count 1..4, the chip counts where the row is OK as ranges, then the other
// verdicts counted; only 1-round rows; "(not all exact)" when a row was not exact.
TEST(Matrix, FullSummaryGroupsChipRangesPerLeaderCount) {
  std::vector<MatrixRow> rows;
  const auto row = [&](std::uint32_t C, std::uint32_t L, Verdict v, std::uint32_t rounds = 1, bool exact = true) {
    MatrixRow r;
    r.topo = Topology{C, L, Fabric::Default, true, rounds, Wiring::PerPeer, Lowering::Table};
    r.verdict = v;
    r.exact = exact;
    rows.push_back(r);
  };
  for (std::uint32_t C : {1u, 2u, 3u, 5u}) row(C, 1, Verdict::Ok);
  row(4, 1, Verdict::GlobalUnsafe);
  row(6, 1, Verdict::GlobalUnsafe);
  row(1, 2, Verdict::Ok);
  row(1, 4, Verdict::Ok, 1, /*exact=*/false);
  row(7, 1, Verdict::Ok, /*rounds=*/2);  // not a 1-round row: left out
  const std::string md = report::full_summary_markdown(rows);
  EXPECT_NE(md.find("| table | default | per_peer | one | on | 1-3, 5 | 1 | none | 1 | GLOBAL_UNSAFE x2 (not all exact) |\n"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("7"), std::string::npos) << md;
  rows.pop_back();
  rows.pop_back();  // every row exact now
  EXPECT_NE(report::full_summary_markdown(rows).find("| 1 | none | none | GLOBAL_UNSAFE x2 |\n"), std::string::npos)
      << report::full_summary_markdown(rows);
}

}  // namespace
}  // namespace neffbar::model
