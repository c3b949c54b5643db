// The hypothesis matrix's page (report/matrix_page.h): one cell per scenario, each
// coloured by its row's verdict, a failing row that kept its counterexample linked to a
// chart of exactly that counterexample, and the grid's axes covering every row once.
// What Chromium draws from it: core/tests/chart_in_chromium.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "neffbar/model/exports/sequence_chart.h"
#include "neffbar/model/scenarios/matrix.h"
#include "neffbar/model/scenarios/scenario.h"
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
  // Still marked: each cell holds its verdict's letter, and is closed.
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::size_t at = page.find("data-cell=\"" + std::to_string(k) + "\"");
    ASSERT_NE(at, std::string::npos) << k;
    const std::size_t open = page.find('>', at) + 1;
    EXPECT_EQ(page.substr(open, page.find("</td>", open) - open), verdict_mark(rows[k].verdict)) << k;
    EXPECT_LT(page.find("</td>", open), page.find("<td", open)) << "cell " << k << " is closed before the next opens";
  }
}

TEST(MatrixPage, NamesCannotBreakOutOfThePage) {
  std::vector<MatrixRow> rows = some_rows();
  const std::string page = matrix_html(rows, "<script>x</script>");
  EXPECT_EQ(page.find("<script>x"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;x"), std::string::npos);
}

std::vector<std::string> words(const std::string& key) {
  std::vector<std::string> out;
  std::istringstream in(key);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The grid of the whole small matrix: the legend counts each verdict; each column
// dimension's header row merges the columns whose values agree up to it and spans
// every column; each body row opens with its row's values and holds a cell (or an
// empty one) per column; a cell's hover text says its scenario, verdict, global
// property and the round it broke in.
TEST(MatrixPage, HeadersLegendAndRowsDescribeEveryColumnAndRow) {
  MatrixOptions o;
  o.small = true;
  const std::vector<MatrixRow> rows = run_matrix(o);
  const std::string page = matrix_html(rows, "t");
  std::map<Verdict, std::size_t> counts;
  std::vector<std::vector<std::string>> columns;
  for (const MatrixRow& r : rows) {
    ++counts[r.verdict];
    if (std::find(columns.begin(), columns.end(), words(grid_column_key(r))) == columns.end()) {
      columns.push_back(words(grid_column_key(r)));
    }
  }
  ASSERT_GT(counts.size(), 2u);
  for (const auto& [v, n] : counts) {
    const std::string name(verdict_name(v));
    EXPECT_NE(page.find("<span class=\"key v-" + name + "\">" + name + "</span> " + std::to_string(n)), std::string::npos) << name;
  }
  const std::string head = page.substr(page.find("<thead>"), page.find("</thead>") - page.find("<thead>"));
  const std::regex span("<th colspan=\"([0-9]+)\">([^<]*)</th>");
  std::size_t at = 0;
  for (std::size_t d = 0; d < columns[0].size(); ++d) {
    at = head.find("<tr><th class=\"dim\" colspan=\"4\">", at);
    ASSERT_NE(at, std::string::npos) << "no header row for dimension " << d;
    const std::string row = head.substr(at, head.find("</tr>", at) - at);
    ++at;
    std::vector<std::pair<std::size_t, std::string>> want, got;
    for (std::size_t c = 0; c < columns.size();) {
      std::size_t e = c + 1;
      while (e < columns.size() && std::equal(columns[c].begin(), columns[c].begin() + d + 1, columns[e].begin())) ++e;
      want.emplace_back(e - c, columns[c][d]);
      c = e;
    }
    for (auto it = std::sregex_iterator(row.begin(), row.end(), span); it != std::sregex_iterator(); ++it) {
      got.emplace_back(std::stoul((*it)[1]), (*it)[2]);
    }
    EXPECT_EQ(got, want) << "dimension " << d;
  }
  EXPECT_NE(head.find("<tr><th class=\"dim\">topology</th><th class=\"dim\">host-CC</th><th class=\"dim\">rounds</th>"
                      "<th class=\"dim\">lowering</th><th colspan=\"" + std::to_string(columns.size()) + "\"></th></tr>"),
            std::string::npos);
  const std::string body = page.substr(page.find("<tbody>"));
  std::set<std::string> row_keys;
  for (const MatrixRow& r : rows) row_keys.insert(grid_row_key(r));
  std::size_t body_rows = 0;
  const std::regex th("<th>([^<]*)</th>");
  for (std::size_t p = body.find("<tr>"); p != std::string::npos; p = body.find("<tr>", p + 1)) {
    const std::string row = body.substr(p, body.find("</tr>", p) - p);
    std::string key;
    for (auto it = std::sregex_iterator(row.begin(), row.end(), th); it != std::sregex_iterator(); ++it) {
      key += (key.empty() ? "" : " ") + (*it)[1].str();
    }
    EXPECT_TRUE(row_keys.count(key)) << key;
    std::size_t cells = 0;
    for (std::size_t q = row.find("<td"); q != std::string::npos; q = row.find("<td", q + 1)) ++cells;
    EXPECT_EQ(cells, columns.size()) << key;
    ++body_rows;
  }
  EXPECT_EQ(body_rows, row_keys.size());
  const MatrixRow& failed = *std::find_if(rows.begin(), rows.end(), [](const MatrixRow& r) { return r.broke_in_round > 0; });
  const std::string tip = scenario_title(failed.topo, failed.hyp) + ": " + std::string(verdict_name(failed.verdict)) +
                          ", global property " + std::string(global_status_name(failed.global)) + ", broke in round " +
                          std::to_string(failed.broke_in_round - 1);  // numbered from 0, as the steps are
  ASSERT_TRUE(failed.exact);
  EXPECT_NE(page.find("title=\"" + html_escaped(tip) + "\">"), std::string::npos) << tip << " (and no \"not exact\")";
}

// The axes as a reader sees them, and a page that needs nothing from the network: the
// chart's style and the grid's own inline.
TEST(MatrixPage, TheAxesNameTheirValuesAndThePageCarriesItsStyle) {
  const std::vector<MatrixRow> rows = some_rows();
  EXPECT_EQ(grid_row_key(rows[0]), "1x4 default host-CC rounds=1 table");
  EXPECT_EQ(grid_column_key(rows[0]), "ge dec=one per_peer roles=code addrs=ctx");
  MatrixRow no_cc = rows[0];
  no_cc.topo.host_cc = false;
  EXPECT_EQ(grid_row_key(no_cc), "1x4 default no host-CC rounds=1 table");
  const std::string page = matrix_html(rows, "t");
  EXPECT_NE(page.find(std::string(chart_style())), std::string::npos);
  EXPECT_NE(page.find("table.grid { border-collapse: collapse;"), std::string::npos);
  EXPECT_NE(page.find("<p class=\"legend\">" + std::string(chart_legend()) + "</p>"), std::string::npos);
  // Five scenarios over fewer grid cells: a (row, column) no scenario has is an empty cell.
  std::set<std::string> row_keys, column_keys;
  for (const MatrixRow& r : rows) {
    row_keys.insert(grid_row_key(r));
    column_keys.insert(grid_column_key(r));
  }
  std::size_t empty = 0;
  for (std::size_t q = page.find("<td class=\"none\"></td>"); q != std::string::npos; q = page.find("<td class=\"none\"></td>", q + 1)) {
    ++empty;
  }
  ASSERT_GT(row_keys.size() * column_keys.size(), rows.size()) << "the sample fills its grid: nothing checked";
  EXPECT_EQ(empty, row_keys.size() * column_keys.size() - rows.size());
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
