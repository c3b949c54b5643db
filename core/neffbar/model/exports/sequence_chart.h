// A counterexample as a message sequence chart: one self-contained HTML page (inline
// SVG drawn by an inline script from the data it embeds; no network), with one lifeline
// per process grouped by chip (the host and the proxies apart), each executed
// instruction a mark on its process's lifeline (with its round, config step and lane),
// an arrow from each increment to the wait it released, and the violating step
// highlighted beside the verdict's sentence.  At the deployed size (hundreds of
// processes) the page opens on the processes the violation involves; the others fold
// into one lifeline per group, which a click (or #unfold=GROUP, #unfold=all in the
// address) unfolds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "neffbar/model/system/system.h"
#include "neffbar/model/system/verdict.h"

namespace neffbar::model {

// The wait at trace entry `to` was released by the increment at entry `from`.
struct Release {
  std::uint32_t from = 0, to = 0;
  bool operator==(const Release&) const = default;
};

// For every wait of the trace, the last earlier entry of another process that raised
// the wait's semaphore (its value after above its value before): the signal that let
// it through.  A wait whose semaphore nobody else raised before it (its initial value
// sufficed, or only its own process raised it) has none.
std::vector<Release> releases(const System& sys, const Counterexample& cex);

// The processes the violation involves, in process order: the culprit (the process of
// the trace's last entry), the processes whose increments released its waits, and, for
// DEADLOCK, every process the dead state holds unfinished; for
// UNSAFE and GLOBAL_UNSAFE, the one it should have waited for: of the members of its
// guarantee (UNSAFE) or the participants (GLOBAL_UNSAFE) whose ARRIVE of the violating
// round is not in the trace, the one the sentence names (all of them when it names
// none).
std::vector<std::uint32_t> involved(const System& sys, const Counterexample& cex, std::span<const Release> rel);

// A process's group: "c<N>" for chip N's leaders, "configs" for check-configs' files,
// "proxy", or "host".
std::string chart_group(std::string_view process_name);

// Systems of at most this many processes open unfolded.
inline constexpr std::size_t kChartUnfoldedUpTo = 16;

// What a chart's script draws (a page embeds it as JSON): the title and the verdict's
// sentence, the processes with their groups, the involved ones, the trace's entries
// (step, process, round, describe()'s text, the semaphore's change) and the releases.
nlohmann::ordered_json sequence_chart_data(const System& sys, const Counterexample& cex, std::string_view title,
                                           std::string_view sentence);

// The page: `title` heads it, `sentence` is the verdict's ("UNSAFE: c0.l1 departed ..."),
// in red when `failure` (a finding under --guarantee declared, or no counterexample, is
// not one).
std::string sequence_chart_html(const System& sys, const Counterexample& cex, std::string_view title,
                                std::string_view sentence, bool failure = true);

// The pieces of any page that draws charts (the hypothesis matrix's): the style, the
// script that defines drawChart(D, svg, open) and hashWords(prefix), and the legend.
std::string_view chart_style();
std::string_view chart_script();
std::string_view chart_legend();
// Text safe in an HTML element or attribute; JSON safe inside a <script> element.
std::string html_escaped(std::string_view s);
std::string script_json(const nlohmann::ordered_json& j);

}  // namespace neffbar::model
