#include "neffbar/report/matrix_page.h"

#include <algorithm>
#include <array>
#include <map>

#include "neffbar/model/exports/sequence_chart.h"

namespace neffbar::report {

using namespace model;

namespace {

constexpr std::array kVerdicts{Verdict::Ok,          Verdict::GlobalUnsafe, Verdict::Unsafe, Verdict::Deadlock,
                               Verdict::NotReusable, Verdict::Overflow,     Verdict::Budget};

using RowValues = std::array<std::string, 4>;
using ColumnValues = std::array<std::string, 5>;

RowValues row_values(const MatrixRow& r) {
  return {topo_name(r.topo), r.topo.host_cc ? "host-CC" : "no host-CC", "rounds=" + std::to_string(r.topo.rounds),
          std::string(name(r.topo.lowering))};
}

ColumnValues column_values(const MatrixRow& r) {
  return {std::string(name(r.hyp.compare)), "dec=" + std::string(name(r.hyp.dec)), std::string(name(r.topo.wiring)),
          "roles=" + std::string(name(r.hyp.roles)), "addrs=" + std::string(name(r.hyp.host_addrs))};
}

template <std::size_t N>
std::string joined(const std::array<std::string, N>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

// The cells' colours, one a verdict; the grid's own layout.
constexpr std::string_view kGridStyle = R"CSS(
table.grid { border-collapse: collapse; margin: 8px 0 16px; }
table.grid th { font: 11px ui-monospace, monospace; padding: 1px 4px; white-space: nowrap; color: #374151; }
table.grid th.dim { text-align: right; color: #6b7280; font-weight: 400; }
table.grid thead th { border-bottom: 1px solid #e5e7eb; }
table.grid tbody th { text-align: left; font-weight: 400; }
table.grid td { width: 16px; height: 16px; padding: 0; border: 1px solid #fff; text-align: center;
                font: 10px ui-monospace, monospace; color: #fff; }
table.grid td a { color: #fff; text-decoration: none; display: block; }
table.grid td.selected { outline: 2px solid #111; }
.v-OK { background: #16a34a; }
.v-GLOBAL_UNSAFE { background: #f59e0b; }
.v-UNSAFE { background: #dc2626; }
.v-DEADLOCK { background: #7f1d1d; }
.v-NOT_REUSABLE { background: #9333ea; }
.v-OVERFLOW { background: #ea580c; }
.v-BUDGET { background: #9ca3af; }
h2 { font-size: 15px; margin: 12px 0 4px; }
span.key { display: inline-block; padding: 0 5px; color: #fff; border-radius: 3px; margin-left: 8px; }
)CSS";

// #cell=K draws chart K (the cells' links) and marks its cell; any other address hides
// the chart.
constexpr std::string_view kMatrixScript = R"JS(
const C = JSON.parse(document.getElementById('charts').textContent);
function select() {
  const k = hashWords('#cell=')[0];
  const box = document.getElementById('cex');
  document.querySelectorAll('td.selected').forEach(td => td.classList.remove('selected'));
  if (k === undefined || !Object.prototype.hasOwnProperty.call(C, k)) { box.hidden = true; return; }
  const D = C[k];
  box.hidden = false;
  document.getElementById('cex-title').textContent = D.title;
  document.getElementById('cex-verdict').textContent = D.sentence;
  document.querySelector('td[data-cell="' + k + '"]').classList.add('selected');
  drawChart(D, document.getElementById('chart'), new Set());
}
select();
window.addEventListener('hashchange', select);
)JS";

}  // namespace

std::string grid_row_key(const MatrixRow& r) { return joined(row_values(r)); }
std::string grid_column_key(const MatrixRow& r) { return joined(column_values(r)); }

std::string_view verdict_mark(Verdict v) {
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

namespace {

// The axes in the order the rows first show them; a cell per (row, column).
struct Grid {
  std::vector<RowValues> row_axis;
  std::vector<ColumnValues> column_axis;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> cell;  // (row, column) -> index in rows
  std::map<Verdict, std::size_t> counts;
};

template <class Axis, class Values>
std::size_t position(Axis& axis, const Values& v) {
  auto it = std::find(axis.begin(), axis.end(), v);
  if (it == axis.end()) it = axis.insert(axis.end(), v);
  return static_cast<std::size_t>(it - axis.begin());
}

Grid grid(const std::vector<MatrixRow>& rows) {
  Grid g;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    g.cell[{position(g.row_axis, row_values(rows[i])), position(g.column_axis, column_values(rows[i]))}] = i;
    ++g.counts[rows[i].verdict];
  }
  return g;
}

constexpr std::array<std::string_view, 5> kColumnDims{"compare", "dec", "wiring", "roles", "host addrs"};
constexpr std::array<std::string_view, 4> kRowDims{"topology", "host-CC", "rounds", "lowering"};

std::string legend(std::size_t scenarios, const std::map<Verdict, std::size_t>& counts) {
  std::string out = "<p class=\"legend\">" + std::to_string(scenarios) + " scenarios, one cell each:";
  for (const Verdict v : kVerdicts) {
    if (counts.contains(v)) {
      const std::string n(verdict_name(v));
      out += " <span class=\"key v-" + n + "\">" + n + "</span> " + std::to_string(counts.at(v));
    }
  }
  return out + ". A lettered cell failed: click it for its counterexample as a sequence chart.</p>\n";
}

// One header row a column dimension, equal prefixes merged; then the row dimensions'.
std::string table_head(const std::vector<ColumnValues>& column_axis) {
  std::string out = "<thead>\n";
  for (std::size_t d = 0; d < kColumnDims.size(); ++d) {
    out += "<tr><th class=\"dim\" colspan=\"4\">" + std::string(kColumnDims[d]) + "</th>";
    for (std::size_t c = 0; c < column_axis.size();) {
      std::size_t e = c + 1;
      auto same = [&](std::size_t a, std::size_t b) {
        return std::equal(column_axis[a].begin(), column_axis[a].begin() + static_cast<std::ptrdiff_t>(d) + 1, column_axis[b].begin());
      };
      while (e < column_axis.size() && same(c, e)) ++e;
      out += "<th colspan=\"" + std::to_string(e - c) + "\">" + html_escaped(column_axis[c][d]) + "</th>";
      c = e;
    }
    out += "</tr>\n";
  }
  out += "<tr>";
  for (const std::string_view d : kRowDims) out += "<th class=\"dim\">" + std::string(d) + "</th>";
  return out + "<th colspan=\"" + std::to_string(column_axis.size()) + "\"></th></tr>\n</thead>";
}

// Row k's cell: its verdict's colour and tooltip, and a link to its counterexample's
// chart (added to charts) where it has one.
std::string cell_html(const MatrixRow& row, std::size_t k, nlohmann::ordered_json& charts) {
  const std::string v(verdict_name(row.verdict));
  const std::string scenario = scenario_title(row.topo, row.hyp);
  std::string tip = scenario + ": " + v + ", global property " + std::string(global_status_name(row.global));
  if (const auto round = broken_round(row.broke_in_round)) tip += ", broke in round " + std::to_string(*round);
  if (!row.exact) tip += " (not exact)";
  std::string out = "<td class=\"v-" + v + "\" data-cell=\"" + std::to_string(k) + "\" data-verdict=\"" + v +
                    "\" title=\"" + html_escaped(tip) + "\">";
  if (row.cex && row.system) {
    charts[std::to_string(k)] =
        sequence_chart_data(*row.system, *row.cex, scenario, std::string(verdict_name(row.cex->kind)) + ": " + row.cex->what);
    out += "<a href=\"#cell=" + std::to_string(k) + "\">" + std::string(verdict_mark(row.verdict)) + "</a>";
  } else {
    out += verdict_mark(row.verdict);
  }
  return out + "</td>";
}

std::string table_body(const std::vector<MatrixRow>& rows, const Grid& g, nlohmann::ordered_json& charts) {
  std::string out = "<tbody>\n";
  for (std::size_t r = 0; r < g.row_axis.size(); ++r) {
    out += "<tr>";
    for (const std::string& v : g.row_axis[r]) out += "<th>" + html_escaped(v) + "</th>";
    for (std::size_t c = 0; c < g.column_axis.size(); ++c) {
      const auto it = g.cell.find({r, c});
      out += it == g.cell.end() ? std::string("<td class=\"none\"></td>") : cell_html(rows[it->second], it->second, charts);
    }
    out += "</tr>\n";
  }
  return out + "</tbody>";
}

}  // namespace

std::string matrix_html(const std::vector<MatrixRow>& rows, std::string_view title) {
  const Grid g = grid(rows);
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>";
  page += html_escaped(title);
  page += "</title><style>";
  page += chart_style();
  page += kGridStyle;
  page += "</style></head><body>\n<h1>" + html_escaped(title) + "</h1>\n";
  page += legend(rows.size(), g.counts);
  nlohmann::ordered_json charts = nlohmann::ordered_json::object();
  page += "<table class=\"grid\">" + table_head(g.column_axis) + table_body(rows, g, charts) + "</table>\n";
  page += "<section id=\"cex\" hidden><h2 id=\"cex-title\"></h2><p class=\"verdict\" id=\"cex-verdict\"></p>"
          "<p class=\"legend\">";
  page += chart_legend();
  page += "</p>\n<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\"></svg></section>\n"
          "<script type=\"application/json\" id=\"charts\">";
  page += script_json(charts);
  page += "</script>\n<script>";
  page += chart_script();
  page += kMatrixScript;
  page += "</script>\n</body></html>\n";
  return page;
}

}  // namespace neffbar::report
