// The hypothesis matrix's page (report/matrix_page.h): one cell per scenario, each
// coloured by its row's verdict, a failing row that kept its counterexample linked to a
// chart of exactly that counterexample, and the grid's axes covering every row once.
// What Chromium draws from it: core/tests/chart_in_chromium.py.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "neffbar/model/scenarios/matrix.h"
#include "neffbar/report/matrix_page.h"

namespace neffbar::report {
namespace {

using namespace model;

// Five rows of the small matrix, decided, each keeping its counterexample: OK and
// failing ones.
std::vector<MatrixRow> some_rows() {
  std::vector<MatrixRow> rows;
  const std::vector<Scenario> all = matrix_scenarios(true);
  for (const std::size_t i : {0u, 1u, 2u, 40u, 41u}) rows.push_back(*matrix_row(all[i], true));
  return rows;
}

std::string data_of(const std::string& page) {
  const std::size_t a = page.find("id=\"charts\">") + 12;
  return page.substr(a, page.find("</script>", a) - a);
}

TEST(MatrixPage, EveryRowIsOneCellOfItsVerdictAndEveryKeptCounterexampleIsLinkedToItsChart) {
  const std::vector<MatrixRow> rows = some_rows();
  const std::string page = matrix_html(rows, "t");
  const std::regex cell("<td class=\"v-([A-Z_]+)\" data-cell=\"([0-9]+)\" data-verdict=\"([A-Z_]+)\"");
  std::set<std::size_t> seen;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), cell); it != std::sregex_iterator(); ++it) {
    const std::size_t k = std::stoul((*it)[2]);
    ASSERT_LT(k, rows.size());
    EXPECT_TRUE(seen.insert(k).second) << "row " << k << " has two cells";
    EXPECT_EQ((*it)[1], std::string(verdict_name(rows[k].verdict)));
    EXPECT_EQ((*it)[3], std::string(verdict_name(rows[k].verdict)));
  }
  EXPECT_EQ(seen.size(), rows.size());
  EXPECT_EQ(grid_row_key(rows[0]), grid_row_key(rows[1]));  // a row of the grid holds several scenarios
  EXPECT_NE(grid_column_key(rows[0]), grid_column_key(rows[1]));
  const nlohmann::json charts = nlohmann::json::parse(data_of(page));
  std::size_t linked = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const bool link = page.find("href=\"#cell=" + std::to_string(k) + "\"") != std::string::npos;
    EXPECT_EQ(link, rows[k].cex.has_value()) << "row " << k;
    EXPECT_EQ(charts.contains(std::to_string(k)), rows[k].cex.has_value()) << "row " << k;
    if (rows[k].cex) {
      ++linked;
      const nlohmann::json& d = charts[std::to_string(k)];
      EXPECT_EQ(d["entries"].size(), rows[k].cex->trace.size());
      EXPECT_EQ(d["procs"].size(), rows[k].system->procs.size());
      EXPECT_EQ(d["title"], scenario_title(rows[k].topo, rows[k].hyp));
    }
  }
  EXPECT_GT(linked, 0u) << "no failing row among the sample: nothing checked";
  EXPECT_LT(linked, rows.size()) << "no OK row among the sample";
}

TEST(MatrixPage, ARowWithoutItsCounterexampleIsMarkedButLinksNowhere) {
  std::vector<MatrixRow> rows = some_rows();
  rows.resize(5);
  for (MatrixRow& r : rows) {
    r.cex.reset();
    r.system.reset();
  }
  const std::string page = matrix_html(rows, "t");
  EXPECT_EQ(page.find("href=\"#cell="), std::string::npos);
  EXPECT_EQ(data_of(page), "{}");
}

TEST(MatrixPage, NamesCannotBreakOutOfThePage) {
  std::vector<MatrixRow> rows = some_rows();
  const std::string page = matrix_html(rows, "<script>x</script>");
  EXPECT_EQ(page.find("<script>x"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;x"), std::string::npos);
}

TEST(MatrixPage, VerdictMarksAreDistinctAndOkHasNone) {
  std::set<std::string> marks;
  for (const Verdict v : {Verdict::Deadlock, Verdict::Unsafe, Verdict::GlobalUnsafe, Verdict::NotReusable,
                          Verdict::Overflow, Verdict::Budget}) {
    EXPECT_FALSE(verdict_mark(v).empty());
    EXPECT_TRUE(marks.insert(std::string(verdict_mark(v))).second);
  }
  EXPECT_TRUE(verdict_mark(Verdict::Ok).empty());
}

}  // namespace
}  // namespace neffbar::report
