// What a user reads of a counterexample's sequence chart (sequence_chart.h), read back
// from the page's text as a browser would: the inline JSON the script draws from must
// say what the counterexample says (every process and its group, every step, the
// violating one, the verdict and its sentence) and draw exactly the arrows a plain
// loop written here derives; the title and the sentence show HTML-escaped.  Titles,
// sentences and process names carry hostile text ("</script>", quotes, ampersands).
#pragma once

#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "law_prelude.h"
#include "neffbar/model/exports/sequence_chart.h"

namespace neffbar::props {

// Text a page must survive in its title, its sentence and its process names.
inline constexpr std::array<std::string_view, 7> kHostileText{
    "", "<b>\"bold\" & 'quoted'</b>", "</script><script>alert(1)</script>", "</SCRIPT >x", "a & b < c > d", "caf\xc3\xa9 <!-- x -->",
    "&lt;not an entity&gt;"};

// The page's data block as a browser reads it: from its opening tag to the first
// "</script" in any case (where the HTML parser ends the element).  nullopt when the
// tag is not there exactly once.
inline std::optional<std::string> script_block(const std::string& page, std::string_view open) {
  const std::size_t at = page.find(open);
  if (at == std::string::npos || page.find(open, at + 1) != std::string::npos) return std::nullopt;
  const std::size_t from = at + open.size();
  std::string lower = page.substr(from);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::size_t end = lower.find("</script");
  if (end == std::string::npos) return std::nullopt;
  return page.substr(from, end);
}

// The data block parsed: no '<' in it (nothing there can end or reopen the element),
// and JSON, its escapes (\u003c) undone by the parser.
inline nlohmann::json read_script_json(const std::string& page, std::string_view open, Judge& j) {
  const std::optional<std::string> block = script_block(page, open);
  j.require(block.has_value(), "the page holds its data block once, closed");
  j.require(block->find('<') == std::string::npos, "no '<' inside the data block");
  nlohmann::json d = nlohmann::json::parse(*block, nullptr, false);
  j.require(!d.is_discarded(), "the data block is JSON");
  return d;
}

// &, <, > and " as entities: text as it must stand in an element or an attribute.
inline std::string html_text(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

// The lifeline group a process's name puts it in: a chip's leader cN.lM in cN, the
// proxies, check-configs' files (cfgK), the host and everything else in host.
inline std::string group_of(std::string_view name) {
  if (name.starts_with("proxy")) return "proxy";
  if (name.starts_with("cfg")) return "configs";
  std::size_t digits = 1;
  while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits]))) ++digits;
  if (name.starts_with("c") && digits > 1) return std::string(name.substr(0, digits));
  return "host";
}

// The arrows a chart must draw: for each wait of the trace, the last entry before it of
// another process that raised the same semaphore.
inline std::vector<std::pair<std::uint32_t, std::uint32_t>> expected_arrows(const System& sys, const Counterexample& c) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  const auto instr = [&](const TraceEntry& e) { return sys.procs[e.proc].program[e.pc]; };
  for (std::uint32_t t = 0; t < c.trace.size(); ++t) {
    const Instr w = instr(c.trace[t]);
    const Prim p = w.op.prim;
    const bool wait = p == Prim::WaitGe || p == Prim::WaitGeAndDec || p == Prim::WaitEqAndInc || p == Prim::WaitEqAndClear;
    if (w.marker != Marker::None || !wait) continue;
    std::optional<std::uint32_t> last;
    for (std::uint32_t k = 0; k < t; ++k) {
      const TraceEntry& e = c.trace[k];
      const Instr r = instr(e);
      if (e.proc != c.trace[t].proc && r.marker == Marker::None && r.op.sema == w.op.sema && e.after > e.before) last = k;
    }
    if (last) out.emplace_back(*last, t);
  }
  return out;
}

// A chart's data (parsed from a page) against the counterexample it draws.
inline void chart_data_reads(const nlohmann::json& d, const System& sys, const Counterexample& c, std::string_view title,
                             std::string_view sentence, Judge& j) {
  j.require(d.is_object() && d.contains("procs") && d.contains("entries") && d.contains("releases") && d.contains("involved") &&
                d["procs"].is_array() && d["entries"].is_array() && d["releases"].is_array() && d["involved"].is_array(),
            "the chart's data has the shape its script reads");
  j.require(d.value("title", "\x01") == title && d.value("sentence", "\x01") == sentence, "the chart's title and sentence read back");
  j.require(d.value("kind", "") == verdict_name(c.kind), "the chart names the counterexample's verdict");
  const nlohmann::json& procs = d["procs"];
  j.require(procs.size() == sys.procs.size(), "every process reads back");
  for (std::size_t p = 0; p < procs.size(); ++p) {
    j.require(procs[p].value("name", "\x01") == sys.procs[p].name && procs[p].value("group", "\x01") == group_of(sys.procs[p].name),
              "every process reads back, with its group");
  }
  j.require(d.value("unfolded", false) == (sys.procs.size() <= 16), "a chart of up to 16 processes opens unfolded");
  const nlohmann::json& entries = d["entries"];
  j.require(entries.size() == c.trace.size(), "every step reads back");
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const TraceEntry& e = c.trace[k];
    const Instr in = sys.procs[e.proc].program[e.pc];
    const nlohmann::json& x = entries[k];
    j.require(x.value("step", -1) == static_cast<std::int64_t>(e.step) && x.value("proc", -1) == static_cast<std::int64_t>(e.proc) &&
                  x.value("round", -1) == static_cast<std::int64_t>(in.round) && x.value("text", "") == describe(sys, e.proc, e.pc),
              "every step reads back (proc, step, round, text)");
    const std::string change =
        in.marker == Marker::None ? sys.semas[in.op.sema].name + ": " + std::to_string(e.before) + " -> " + std::to_string(e.after) : "";
    j.require(x.value("change", "") == change, "every operation shows its semaphore's change");
  }
  const std::int64_t last = static_cast<std::int64_t>(c.trace.size()) - 1;
  j.require(d.value("violating", -2) == last, "the violating step is the trace's last");
  std::vector<std::pair<std::uint32_t, std::uint32_t>> arrows;
  for (const nlohmann::json& a : d["releases"]) {
    j.require(a.is_array() && a.size() == 2 && a[0].is_number_unsigned() && a[1].is_number_unsigned(), "an arrow is a pair of steps");
    arrows.emplace_back(a[0].get<std::uint32_t>(), a[1].get<std::uint32_t>());
  }
  const auto expected = expected_arrows(sys, c);
  j.require(arrows == expected, "the arrows are exactly the last raises before each wait");
  std::vector<std::uint32_t> involved;
  for (const nlohmann::json& p : d["involved"]) {
    j.require(p.is_number_unsigned() && p.get<std::size_t>() < sys.procs.size(), "an involved process exists");
    involved.push_back(p.get<std::uint32_t>());
  }
  j.require(std::is_sorted(involved.begin(), involved.end()) && std::adjacent_find(involved.begin(), involved.end()) == involved.end(),
            "the involved processes are listed once each, in order");
  if (c.trace.empty()) return;
  const auto has = [&](std::uint32_t p) { return std::find(involved.begin(), involved.end(), p) != involved.end(); };
  const std::uint32_t culprit = c.trace.back().proc;
  j.require(has(culprit), "the culprit is involved");
  for (const auto& [from, to] : expected) {
    if (c.trace[to].proc == culprit) j.require(has(c.trace[from].proc), "what released the culprit is involved");
  }
  if (c.kind == Verdict::Deadlock) {  // the dead state holds every process the trace left unfinished
    std::vector<std::size_t> ran(sys.procs.size(), 0);
    for (const TraceEntry& e : c.trace) ran[e.proc] = std::max<std::size_t>(ran[e.proc], e.pc + std::size_t{1});
    for (std::uint32_t p = 0; p < sys.procs.size(); ++p) {
      if (ran[p] < sys.procs[p].program.size()) j.require(has(p), "every process a deadlock holds is involved");
    }
  }
  if (c.kind == Verdict::Unsafe || c.kind == Verdict::GlobalUnsafe) {  // "... departed ... before Q arrived"
    for (std::uint32_t p = 0; p < sys.procs.size(); ++p) {
      if (p != culprit && c.what.find(" before " + sys.procs[p].name + " ") != std::string::npos) {
        j.require(has(p), "the process the sentence names is involved");
      }
    }
  }
}

// ------------------------------------------------------------- sequence chart -----
// A composed topology (a fault injected at a leader, or none) or an arbitrary small
// system, checked; its counterexample (or its global finding, or none: the page of no
// counterexample) drawn under a hostile title and sentence, one process renamed with
// hostile text.
struct ChartInput {
  static constexpr bool kPropertyInput = true;
  bool composed = true;
  Topology topo;
  Fault fault = Fault::None;
  std::uint32_t leader = 0;
  System sys;  // when not composed
  std::uint32_t title = 0, sentence = 0, rename = 0;  // kHostileText
  bool finding = false;  // draw the global finding where there is one
  bool failure = true;
};
inline ChartInput draw_chart(Source& s) {
  ChartInput in;
  in.composed = s.coin();
  if (in.composed) {
    in.topo = draw_topology(s, 4, 2);
    in.topo.wiring = s.element({Wiring::PerPeer, Wiring::Counting});
    in.topo.lowering = s.element({Lowering::Table, Lowering::ArriveWait, Lowering::Hierarchical});
    if (in.topo.chips * in.topo.leaders > 8) in.topo.leaders = 8 / in.topo.chips;  // the search stays small
    in.fault = s.element({Fault::None, Fault::RaiseThreshold, Fault::ZeroLane, Fault::DoubleSignal});
    in.leader = s.in_range<std::uint32_t>(0, in.topo.chips * in.topo.leaders);
  } else {
    in.sys = arbitrary_system(s);
  }
  const auto hostile = [&s] { return static_cast<std::uint32_t>(s.below(kHostileText.size())); };
  in.title = hostile();
  in.sentence = hostile();
  in.rename = hostile();
  in.finding = s.coin();
  in.failure = !s.coin();
  return in;
}

using ChartPageFn = std::function<std::string(const System&, const Counterexample&, std::string_view, std::string_view, bool)>;
inline std::string real_chart_page(const System& sys, const Counterexample& c, std::string_view title, std::string_view sentence,
                                   bool failure) {
  return sequence_chart_html(sys, c, title, sentence, failure);
}

inline void sequence_chart_reads_back(const ChartInput& in, const ChartPageFn& page_of, Judge& j) {
  System sys = in.sys;
  if (in.composed) {
    Composition comp = *compose(in.topo);
    if (in.fault != Fault::None && in.topo.leaders >= 2) inject(comp, in.fault, in.leader);
    Hypotheses h;
    h.dec = in.topo.wiring == Wiring::Counting ? DecMode::Target : DecMode::One;
    const Result<Lowered> low = lower_with_hints(comp, h);
    j.require(low.ok(), "a composition lowers");
    sys = low->system;
  }
  j.assume(!sys.procs.empty());
  sys.procs[0].name += kHostileText[in.rename];  // names reach the page through the data and the sentence
  CheckOptions o;
  o.guarantee = GuaranteeMode::Global;
  o.max_states = j.thorough() ? 20'000 : 2'000;
  o.max_seconds = 5;
  const CheckResult r = check_explicit(sys, o);
  const Counterexample c = in.finding && r.global_finding ? *r.global_finding : r.cex ? *r.cex : Counterexample{};
  const std::string title = "chart " + std::string(kHostileText[in.title]);
  const std::string sentence = std::string(verdict_name(c.kind)) + ": " + c.what + std::string(kHostileText[in.sentence]);
  const std::string page = page_of(sys, c, title, sentence, in.failure);
  j.tags(c.trace.empty() ? "no counterexample" : verdict_name(c.kind), in.composed ? "composed" : "arbitrary",
         sys.procs.size() > 16 ? "opens folded" : "opens unfolded");

  try {
    chart_data_reads(read_script_json(page, "<script type=\"application/json\" id=\"data\">", j), sys, c, title, sentence, j);
  } catch (const nlohmann::json::exception&) {
    j.fail("the chart's data has the shape its script reads");
  }
  j.require(page.find("<title>" + html_text(title) + "</title>") != std::string::npos &&
                page.find("<h1>" + html_text(title) + "</h1>") != std::string::npos,
            "the title shows HTML-escaped");
  j.require(page.find(std::string(in.failure ? "<p class=\"verdict\">" : "<p class=\"verdict neutral\">") + html_text(sentence) + "</p>") !=
                std::string::npos,
            "the sentence shows HTML-escaped, in red when a failure");
  for (const std::string_view raw : {kHostileText[in.title], kHostileText[in.sentence]}) {
    j.require(raw.find('<') == std::string_view::npos || page.find(raw) == std::string::npos, "no hostile text stands raw in the page");
  }
}

}  // namespace neffbar::props
