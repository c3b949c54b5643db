// What a user reads of the hypothesis matrix's grid (matrix_page.h), read back from the
// page's markup and its inline JSON: every row drawn is one cell, under the row and
// column headers of its own topology and readings, saying its verdict (colour, letter),
// global line, round it broke in, exactness and scenario; a cell links to a chart
// exactly when its row kept a counterexample, and that chart is its own row's.
#pragma once

#include <map>
#include <tuple>
#include <string>
#include <string_view>
#include <vector>

#include "chart_laws.h"
#include "neffbar/model/scenarios/matrix.h"
#include "neffbar/report/matrix_page.h"

namespace neffbar::props {

// ------------------------------------------------------------------ matrix grid -----
// 1..6 rows of the small hypothesis matrix, each kept with its counterexample or not,
// some cut by a tiny state budget (BUDGET, not exact), some decided by one random
// schedule (which measures no round it broke in), under a hostile title.
struct GridInput {
  static constexpr bool kPropertyInput = true;
  std::vector<std::uint32_t> rows;  // indices into matrix_scenarios(true)
  std::vector<bool> keep, cut, random;
  std::uint32_t title = 0;  // kHostileText
};
inline GridInput draw_grid(Source& s) {
  GridInput in;
  const std::uint64_t n = s.in_range<std::uint64_t>(1, 7);
  for (std::uint64_t i = 0; i < n; ++i) {
    in.rows.push_back(static_cast<std::uint32_t>(s.below(1u << 16)));
    in.keep.push_back(!s.coin());
    in.cut.push_back(s.weighted({5, 1}) == 1);
    in.random.push_back(s.weighted({5, 1}) == 1);
  }
  in.title = static_cast<std::uint32_t>(s.below(kHostileText.size()));
  return in;
}

using GridPageFn = std::function<std::string(const std::vector<MatrixRow>&, std::string_view)>;
inline std::string real_grid_page(const std::vector<MatrixRow>& rows, std::string_view title) { return report::matrix_html(rows, title); }

inline const std::vector<Scenario>& small_matrix() {
  static const std::vector<Scenario> scenarios = matrix_scenarios(/*small=*/true);
  return scenarios;
}

// Row k of the small matrix, decided once per (row, cut, random) across cases.
inline const MatrixRow& grid_row(std::uint32_t k, bool cut, bool random) {
  const std::vector<Scenario>& scenarios = small_matrix();
  static std::map<std::tuple<std::uint32_t, bool, bool>, MatrixRow> decided;
  auto it = decided.find({k, cut, random});
  if (it == decided.end()) {
    Scenario s = scenarios[k];
    s.run.check.max_states = cut ? 3 : 200'000;
    s.run.check.max_seconds = 5;
    if (random) {
      s.run.engine = Engine::Random;
      s.run.random_runs = 1;
    }
    it = decided.emplace(std::tuple{k, cut, random}, *matrix_row(s, /*keep=*/true)).first;
  }
  return it->second;
}

// The page's markup as text pieces: each <tr> of a section, its <th> texts and its <td>
// elements whole.
struct GridRow {
  std::vector<std::string> heads;  // <th ...>TEXT</th>, repeated colspan times
  std::vector<std::string> cells;  // <td ...>...</td>
};
inline std::vector<GridRow> grid_section(const std::string& page, std::string_view open, std::string_view close) {
  std::vector<GridRow> out;
  const std::size_t from = page.find(open), to = page.find(close);
  if (from == std::string::npos || to == std::string::npos || to < from) return out;
  const std::string body = page.substr(from, to - from);
  for (std::size_t tr = body.find("<tr>"); tr != std::string::npos; tr = body.find("<tr>", tr + 4)) {
    const std::string row = body.substr(tr, body.find("</tr>", tr) - tr);
    GridRow g;
    for (std::size_t at = row.find("<t"); at != std::string::npos; at = row.find("<t", at + 1)) {
      const bool th = row.compare(at, 3, "<th") == 0;
      if (!th && row.compare(at, 3, "<td") != 0) continue;
      const std::size_t end = row.find(th ? "</th>" : "</td>", at);
      const std::string el = row.substr(at, end + 5 - at);
      if (!th) {
        g.cells.push_back(el);
        continue;
      }
      std::size_t span = 1;
      if (const std::size_t c = el.find("colspan=\""); c != std::string::npos && c < el.find('>')) span = std::stoul(el.substr(c + 9));
      const std::size_t gt = el.find('>') + 1;
      const std::string text = el.substr(gt, el.size() - 5 - gt);
      if (el.find("class=\"dim\"") == std::string::npos) g.heads.insert(g.heads.end(), span, text);
    }
    out.push_back(std::move(g));
  }
  return out;
}

// An attribute's value in an element's opening tag ("" when absent).
inline std::string attribute(const std::string& el, std::string_view name) {
  const std::string key = " " + std::string(name) + "=\"";
  const std::size_t at = el.find(key), gt = el.find('>');
  if (at == std::string::npos || at > gt) return "";
  const std::size_t from = at + key.size();
  return el.substr(from, el.find('"', from) - from);
}

// The cell's letter: the verdict's initial (G for GLOBAL_UNSAFE, R for NOT_REUSABLE),
// none for OK.
inline std::string_view grid_letter(Verdict v) {
  switch (v) {
    case Verdict::Ok: return "";
    case Verdict::Deadlock: return "D";
    case Verdict::Unsafe: return "U";
    case Verdict::GlobalUnsafe: return "G";
    case Verdict::NotReusable: return "R";
    case Verdict::Overflow: return "O";
    case Verdict::Budget: return "B";
  }
  return "?";
}

inline void grid_reads_back(const GridInput& in, const GridPageFn& page_of, Judge& j) {
  std::vector<MatrixRow> rows;
  std::vector<bool> asked;  // each row's counterexample kept
  std::vector<std::uint32_t> seen;
  for (std::size_t i = 0; i < in.rows.size(); ++i) {
    const std::uint32_t k = in.rows[i] % static_cast<std::uint32_t>(small_matrix().size());
    if (std::find(seen.begin(), seen.end(), k) != seen.end()) continue;  // one cell a scenario
    seen.push_back(k);
    MatrixRow row = grid_row(k, in.cut[i], in.random[i]);
    if (!in.keep[i]) {
      row.system.reset();
      row.cex.reset();
    }
    rows.push_back(std::move(row));
    asked.push_back(in.keep[i]);
  }
  const std::string title = "grid " + std::string(kHostileText[in.title]);
  const std::string page = page_of(rows, title);
  j.require(page.find("<h1>" + html_text(title) + "</h1>") != std::string::npos, "the title shows HTML-escaped");
  nlohmann::json charts;
  try {
    charts = read_script_json(page, "<script type=\"application/json\" id=\"charts\">", j);
  } catch (const nlohmann::json::exception&) {
    j.fail("the grid's charts are a JSON object");
  }
  j.require(charts.is_object(), "the grid's charts are a JSON object");

  // The columns' readings, each header row expanded by its colspans.
  const std::vector<GridRow> head = grid_section(page, "<thead>", "</thead>");
  const std::vector<GridRow> body = grid_section(page, "<tbody>", "</tbody>");
  j.require(head.size() == 6, "five header rows of readings and one of the row dimensions");
  std::map<Verdict, std::size_t> counts;
  std::size_t linked = 0, cells = 0;
  for (const GridRow& r : body) cells += static_cast<std::size_t>(std::count_if(r.cells.begin(), r.cells.end(), [](const std::string& c) {
    return c.find("data-cell=") != std::string::npos;
  }));
  j.require(cells == rows.size(), "one cell a row");
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const MatrixRow& row = rows[k];
    ++counts[row.verdict];
    const std::string v(verdict_name(row.verdict));
    // Its cell, where it stands.
    const GridRow* tr = nullptr;
    std::size_t column = 0, found = 0;
    for (const GridRow& r : body) {
      for (std::size_t c = 0; c < r.cells.size(); ++c) {
        if (attribute(r.cells[c], "data-cell") == std::to_string(k)) tr = &r, column = c, ++found;
      }
    }
    j.require(found == 1, "every row has its one cell");
    const std::string& cell = tr->cells[column];
    const std::vector<std::string> row_heads{topo_name(row.topo), row.topo.host_cc ? "host-CC" : "no host-CC",
                                             "rounds=" + std::to_string(row.topo.rounds), std::string(name(row.topo.lowering))};
    const std::vector<std::string> column_heads{std::string(name(row.hyp.compare)), "dec=" + std::string(name(row.hyp.dec)),
                                                std::string(name(row.topo.wiring)), "roles=" + std::string(name(row.hyp.roles)),
                                                "addrs=" + std::string(name(row.hyp.host_addrs))};
    std::vector<std::string> escaped;
    for (const std::string& h : row_heads) escaped.push_back(html_text(h));
    j.require(tr->heads == escaped, "a cell stands in its topology's row");
    for (std::size_t d = 0; d < column_heads.size(); ++d) {
      j.require(column < head[d].heads.size() && head[d].heads[column] == html_text(column_heads[d]), "a cell stands in its readings' column");
    }
    // What it says.
    j.require(attribute(cell, "class") == "v-" + v && attribute(cell, "data-verdict") == v, "a cell's colour and data say its verdict");
    std::string tip = scenario_title(row.topo, row.hyp) + ": " + v + ", global property " + std::string(global_status_name(row.global));
    // broke_in_round counts the rounds run (1: the first); users read the round's index
    // from 0, as the counterexample's steps number them.
    if (row.broke_in_round != 0) tip += ", broke in round " + std::to_string(row.broke_in_round - 1);
    if (!row.exact) tip += " (not exact)";
    j.require(attribute(cell, "title") == html_text(tip), "a cell's tooltip says its scenario, verdict, global line, round and exactness");
    const std::size_t gt = cell.find('>') + 1;
    const std::string inner = cell.substr(gt, cell.size() - 5 - gt);
    const std::string letter(grid_letter(row.verdict));
    const std::string key = std::to_string(k);
    const bool kept = row.cex && row.system;
    const bool failed = row.verdict != Verdict::Ok && row.verdict != Verdict::Budget;
    j.require(!failed || !asked[k] || kept, "a failing row keeps its counterexample when asked");
    if (!kept) {
      j.require(inner == letter && !charts.contains(key), "a cell without a counterexample links nowhere");
      continue;
    }
    ++linked;
    j.require(inner == "<a href=\"#cell=" + key + "\">" + letter + "</a>", "a failing cell links to its own chart");
    j.require(charts.contains(key), "a linked cell's chart is on the page");
    try {
      chart_data_reads(charts[key], *row.system, *row.cex, scenario_title(row.topo, row.hyp),
                       std::string(verdict_name(row.cex->kind)) + ": " + row.cex->what, j);
    } catch (const nlohmann::json::exception&) {
      j.fail("the chart's data has the shape its script reads");
    }
  }
  j.require(charts.size() == linked, "a chart for every linked cell, and no other");
  // The legend's counts.
  j.require(page.find(">" + std::to_string(rows.size()) + " scenarios, one cell each:") != std::string::npos, "the legend counts the scenarios");
  for (const auto& [v, n] : counts) {
    const std::string name(verdict_name(v));
    const std::string key = "<span class=\"key v-" + name + "\">" + name + "</span> " + std::to_string(n);
    j.require(page.find(key + " ") != std::string::npos || page.find(key + ".") != std::string::npos, "the legend counts each verdict");
  }
  j.tags(std::to_string(rows.size()) + " cells", std::to_string(linked) + " linked");
}

}  // namespace neffbar::props
