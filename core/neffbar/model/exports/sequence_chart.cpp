#include "neffbar/model/exports/sequence_chart.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace neffbar::model {
namespace {

bool is_wait(Prim p) {
  return p == Prim::WaitGe || p == Prim::WaitGeAndDec || p == Prim::WaitEqAndInc || p == Prim::WaitEqAndClear;
}

Instr instr_of(const System& sys, const TraceEntry& e) { return sys.procs[e.proc].program[e.pc]; }

// The chart's script: drawChart(D, svg, open) lays chart D out in svg.  Columns go
// group by group; a group's folded members share one lifeline, drawn after its shown
// ones, and their marks sit on it.  `open` holds the unfolded groups ('all': every
// one); a click on a fold adds its group and draws again.
constexpr std::string_view kScript = R"JS(
const NS = 'http://www.w3.org/2000/svg';
const COL = 92, FOLD = 44, ROW = 18, TOP = 64, LEFT = 56;
function el(tag, attrs, parent, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}
function drawChart(D, svg, open) {
  const shown = p => D.unfolded || open.has('all') || open.has(D.procs[p].group) || D.involved.includes(p);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const defs = el('defs', {}, svg);
  const mk = el('marker', {id: 'head', viewBox: '0 0 10 10', refX: '10', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse'}, defs);
  el('path', {d: 'M 0 0 L 10 5 L 0 10 z', fill: '#2563eb'}, mk);
  const x = new Array(D.procs.length), groups = [];
  for (const p of D.procs) if (!groups.includes(p.group)) groups.push(p.group);
  let right = LEFT;
  const bottom = TOP + ROW * (D.entries.length + 1);
  for (const g of groups) {
    const members = D.procs.map((p, i) => i).filter(i => D.procs[i].group === g);
    for (const i of members.filter(shown)) { x[i] = right + COL / 2; right += COL; }
    const folded = members.filter(i => !shown(i));
    if (folded.length) {
      const fx = right + FOLD / 2;
      right += FOLD;
      for (const i of folded) x[i] = fx;
      const f = el('g', {class: 'fold', 'data-group': g, 'data-members': folded.length}, svg);
      f.addEventListener('click', () => { open.add(g); drawChart(D, svg, open); });
      el('title', {}, f, g + ': ' + folded.length + ' folded (click to unfold)');
      el('line', {x1: fx, y1: TOP - 8, x2: fx, y2: bottom}, f);
      el('text', {x: fx, y: TOP - 30, 'text-anchor': 'middle'}, f, g);
      el('text', {x: fx, y: TOP - 16, 'text-anchor': 'middle', class: 'hint'}, f, '+' + folded.length);
    }
  }
  D.procs.forEach((p, i) => {
    const s = shown(i);
    const l = el('g', {class: s ? 'lifeline' : 'lifeline folded', 'data-proc': i, 'data-name': p.name, 'data-group': p.group}, svg);
    if (!s) { l.setAttribute('display', 'none'); return; }
    el('line', {x1: x[i], y1: TOP - 8, x2: x[i], y2: bottom}, l);
    el('text', {x: x[i], y: TOP - 16, 'text-anchor': 'middle', class: D.involved.includes(i) ? 'involved' : ''}, l, p.name);
  });
  const y = k => TOP + ROW * (k + 1);
  D.releases.forEach(([a, b]) => {
    el('line', {class: 'arrow', 'data-from': a, 'data-to': b, x1: x[D.entries[a].proc], y1: y(a),
                x2: x[D.entries[b].proc], y2: y(b), 'marker-end': 'url(#head)'}, svg);
  });
  // Each step's instruction in a column right of the lifelines: a still picture (the
  // docs' figure) has no hover titles.
  let widest = 0;
  D.entries.forEach((e, k) => {
    const v = k === D.violating;
    const m = el('g', {class: v ? 'mark violating' : 'mark', 'data-entry': k, 'data-proc': e.proc, 'data-step': e.step, 'data-round': e.round}, svg);
    const said = e.text + (e.change ? '   ' + e.change : '');
    el('text', {x: 8, y: y(k) + 4, class: 'row'}, m, e.step);
    el('circle', {cx: x[e.proc], cy: y(k), r: v ? 7 : 4}, m);
    el('title', {}, m, e.step + '. ' + said);
    el('text', {x: right + 16, y: y(k) + 4, class: v ? 'step violating' : 'step'}, m, said);
    widest = Math.max(widest, said.length);
    if (v) el('text', {x: x[e.proc] + 12, y: y(k) + 4, class: 'violating-label'}, m, D.kind + ' (the sentence above)');
  });
  svg.setAttribute('width', right + 32 + 7 * widest);
  svg.setAttribute('height', bottom + 24);
}
// The words of the address's fragment after `prefix` ('#unfold=' takes 'c3,proxy'); a
// malformed escape is taken as written.
function hashWords(prefix) {
  const h = location.hash;
  if (!h.startsWith(prefix)) return [];
  return h.slice(prefix.length).split(',').map(w => { try { return decodeURIComponent(w); } catch (e) { return w; } });
}
)JS";

// The one-chart page: its data (#data), unfolded by #unfold=GROUP[,GROUP...] and clicks.
constexpr std::string_view kPageScript = R"JS(
const D = JSON.parse(document.getElementById('data').textContent);
const open = new Set();
function from_hash() { for (const g of hashWords('#unfold=')) open.add(g); }
from_hash();
drawChart(D, document.getElementById('chart'), open);
window.addEventListener('hashchange', () => { from_hash(); drawChart(D, document.getElementById('chart'), open); });
)JS";

constexpr std::string_view kStyle = R"CSS(
body { font: 13px system-ui, sans-serif; margin: 16px; color: #111; }
h1 { font-size: 17px; margin: 0 0 6px; }
p.verdict { color: #b91c1c; font-weight: 600; margin: 0 0 4px; }
p.verdict.neutral { color: #374151; }
p.legend { color: #555; margin: 0 0 8px; }
svg text { font: 11px ui-monospace, monospace; }
.lifeline line, .fold line { stroke: #9ca3af; stroke-width: 1; }
.fold line { stroke-dasharray: 4 3; stroke-width: 6; stroke: #d1d5db; }
.fold { cursor: pointer; }
.fold .hint { fill: #2563eb; }
text.involved { font-weight: 700; }
.mark circle { fill: #374151; }
.mark.violating circle { fill: #dc2626; }
.violating-label { fill: #b91c1c; font-weight: 700; }
.row { fill: #6b7280; }
text.step { fill: #374151; }
text.step.violating { fill: #b91c1c; font-weight: 700; }
line.arrow { stroke: #2563eb; stroke-width: 1.2; }
)CSS";

constexpr std::string_view kChartLegend =
    "One lifeline per process; a dot per executed instruction (hover: its round, config step and lane, and the "
    "semaphore's change); an arrow from each increment to the wait it released; the violating step in red. Dashed "
    "lifelines are folded processes: click one to unfold it.";

}  // namespace

std::string html_escaped(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string script_json(const nlohmann::ordered_json& j) {
  // '<' only occurs inside JSON strings: as \u003c it cannot end the script element.
  std::string out;
  for (const char c : j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

std::string_view chart_style() { return kStyle; }
std::string_view chart_script() { return kScript; }
std::string_view chart_legend() { return kChartLegend; }

std::vector<Release> releases(const System& sys, const Counterexample& cex) {
  std::vector<Release> out;
  for (std::uint32_t t = 0; t < cex.trace.size(); ++t) {
    const Instr in = instr_of(sys, cex.trace[t]);
    if (in.marker != Marker::None || !is_wait(in.op.prim)) continue;
    for (std::uint32_t k = t; k-- > 0;) {
      const TraceEntry& e = cex.trace[k];
      const Instr src = instr_of(sys, e);
      if (e.proc != cex.trace[t].proc && src.marker == Marker::None && src.op.sema == in.op.sema && e.after > e.before) {
        out.push_back({k, t});
        break;
      }
    }
  }
  return out;
}

std::vector<std::uint32_t> involved(const System& sys, const Counterexample& cex, std::span<const Release> rel) {
  std::vector<bool> in(sys.procs.size(), false);
  if (cex.trace.empty()) return {};
  const TraceEntry& last = cex.trace.back();
  const std::uint32_t culprit = last.proc;
  in[culprit] = true;
  for (const Release& r : rel) {
    if (cex.trace[r.to].proc == culprit) in[cex.trace[r.from].proc] = true;
  }
  if (cex.kind == Verdict::Deadlock) {  // every process the dead state holds
    std::vector<std::size_t> next(sys.procs.size(), 0);
    for (const TraceEntry& e : cex.trace) next[e.proc] = std::max<std::size_t>(next[e.proc], e.pc + std::size_t{1});
    for (std::uint32_t p = 0; p < sys.procs.size(); ++p) {
      if (next[p] < sys.procs[p].program.size()) in[p] = true;
    }
  }
  if (cex.kind == Verdict::Unsafe || cex.kind == Verdict::GlobalUnsafe) {
    const std::uint32_t round = instr_of(sys, last).round;
    std::vector<bool> arrived(sys.procs.size(), false);
    for (const TraceEntry& e : cex.trace) {
      const Instr i = instr_of(sys, e);
      if (i.marker == Marker::Arrive && i.round == round) arrived[e.proc] = true;
    }
    std::vector<std::uint32_t> owed = sys.procs[culprit].guarantee;
    if (cex.kind == Verdict::GlobalUnsafe) {
      owed.clear();
      for (std::uint32_t q = 0; q < sys.procs.size(); ++q) {
        if (sys.procs[q].participant) owed.push_back(q);
      }
    }
    // The one the sentence names (unsafe_what, global_what: "... before Q ..."), else
    // every one of them that had not arrived.
    std::vector<std::uint32_t> missing;
    for (const std::uint32_t q : owed) {
      if (q != culprit && q < in.size() && !arrived[q]) missing.push_back(q);
    }
    const auto named = std::find_if(missing.begin(), missing.end(), [&](std::uint32_t q) {
      return cex.what.find(" before " + sys.procs[q].name + " ") != std::string::npos;
    });
    if (named != missing.end()) missing = {*named};
    for (const std::uint32_t q : missing) in[q] = true;
  }
  std::vector<std::uint32_t> out;
  for (std::uint32_t p = 0; p < in.size(); ++p) {
    if (in[p]) out.push_back(p);
  }
  return out;
}

std::string chart_group(std::string_view name) {
  if (name.starts_with("proxy")) return "proxy";
  if (name.starts_with("cfg")) return "configs";  // check-configs' leaders, one a file
  if (name.size() > 1 && name[0] == 'c' && std::isdigit(static_cast<unsigned char>(name[1]))) {
    const std::size_t dot = name.find('.');
    return std::string(name.substr(0, dot));
  }
  return "host";
}

nlohmann::ordered_json sequence_chart_data(const System& sys, const Counterexample& cex, std::string_view title,
                                           std::string_view sentence) {
  const std::vector<Release> rel = releases(sys, cex);
  nlohmann::ordered_json d;
  d["title"] = std::string(title);
  d["sentence"] = std::string(sentence);
  d["kind"] = std::string(verdict_name(cex.kind));
  d["unfolded"] = sys.procs.size() <= kChartUnfoldedUpTo;
  d["violating"] = cex.trace.empty() ? -1 : static_cast<std::int64_t>(cex.trace.size() - 1);
  auto procs = nlohmann::ordered_json::array();
  for (const Process& p : sys.procs) procs.push_back({{"name", p.name}, {"group", chart_group(p.name)}});
  d["procs"] = std::move(procs);
  d["involved"] = involved(sys, cex, rel);
  auto entries = nlohmann::ordered_json::array();
  for (const TraceEntry& e : cex.trace) {
    const Instr in = instr_of(sys, e);
    // describe(): "c0.l1: wait_ge_and_dec(c0.l1#8 >= 1, -1)  [round 0, step 3 lane 0]".
    nlohmann::ordered_json j{{"step", e.step}, {"proc", e.proc}, {"round", in.round}, {"text", describe(sys, e.proc, e.pc)}};
    if (in.marker == Marker::None) {
      j["change"] = sys.semas[in.op.sema].name + ": " + std::to_string(e.before) + " -> " + std::to_string(e.after);
    }
    entries.push_back(std::move(j));
  }
  d["entries"] = std::move(entries);
  auto arrows = nlohmann::ordered_json::array();
  for (const Release& r : rel) arrows.push_back({r.from, r.to});
  d["releases"] = std::move(arrows);
  return d;
}

std::string sequence_chart_html(const System& sys, const Counterexample& cex, std::string_view title,
                                std::string_view sentence, bool failure) {
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>";
  page += html_escaped(title);
  page += "</title><style>";
  page += kStyle;
  page += "</style></head><body>\n<h1>";
  page += html_escaped(title);
  page += failure ? "</h1>\n<p class=\"verdict\">" : "</h1>\n<p class=\"verdict neutral\">";
  page += html_escaped(sentence);
  page += "</p>\n<p class=\"legend\">";
  page += kChartLegend;
  page += "</p>\n<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\"></svg>\n<script type=\"application/json\" id=\"data\">";
  page += script_json(sequence_chart_data(sys, cex, title, sentence));
  page += "</script>\n<script>";
  page += kScript;
  page += kPageScript;
  page += "</script>\n</body></html>\n";
  return page;
}

}  // namespace neffbar::model
