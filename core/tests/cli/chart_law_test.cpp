// The chart a user opens from the command line reads as the verdict printed beside it:
// `check --html` and `check-configs DIR --html` (DIR named with hostile text) write a
// page whose data and headings say what --json says: the scenario's title, the
// processes, and the counterexample shown (else the global finding, as a finding; else
// that there is none): its kind and sentence, each step's process, number, instruction
// and semaphore change; the sentence in red only for a failure.  The page is read back
// as the sequence_chart law reads it (props/chart_laws.h).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <nlohmann/json.hpp>

#include "chart_laws.h"
#include "in_process.h"
#include "rc_driver.h"

namespace neffbar::cli::laws {
namespace {

using props::html_text;

// Directory names a title carries into the page (no '/': one directory each).
const std::vector<std::string> kHostileDirs{"plain", "a&b", "<b>bold", "q\"uote", "caf\xc3\xa9 <!--"};

void chart_reads_as_the_verdict(bool from_files) {
  Scratch scratch;
  const ComposeOptions o = any_compose_options();
  const std::string page_path = scratch.path("chart.html");
  std::vector<std::string> words;
  if (from_files) {
    const std::string dir = scratch.path(*rc::gen::elementOf(kHostileDirs));
    std::vector<std::string> compose{"compose", "-o", dir};
    const std::vector<std::string> ow = o.words();
    compose.insert(compose.end(), ow.begin(), ow.end());
    RC_ASSERT(run_cli(compose).code == 0);
    words = {"check-configs", dir};
  } else {
    words = o.words();
    words.insert(words.begin(), "check");
  }
  words.insert(words.end(), {"--json", "--max-states", "20000", "--max-seconds", "30", "--html", page_path});
  const Ran r = run_cli(words);
  RC_LOG() << show(words) << ": exit " << r.code << "\n" << r.out << r.err;
  RC_ASSERT(r.code == 0 || r.code == 4);
  const nlohmann::json x = nlohmann::json::parse(r.out, nullptr, false);
  RC_ASSERT(!x.is_discarded());
  const std::string page = read_bytes(page_path);

  props::RcJudge judge;
  const nlohmann::json d = props::read_script_json(page, "<script type=\"application/json\" id=\"data\">", judge);
  // The title: the scenario's, shown escaped.
  const std::string title = x.value("scenario", "");
  RC_ASSERT(d.value("title", "") == title);
  RC_ASSERT(page.find("<h1>" + html_text(title) + "</h1>") != std::string::npos);
  // The processes, as --json names them.
  RC_ASSERT(d["procs"].size() == x["processes"].size());
  for (std::size_t p = 0; p < d["procs"].size(); ++p) RC_ASSERT(d["procs"][p].value("name", "") == x["processes"][p]);
  // The counterexample shown, else the finding, else none; its sentence.
  const bool failure = x.contains("counterexample");
  const nlohmann::json none = {{"kind", "OK"}, {"what", ""}, {"trace", nlohmann::json::array()}};
  const nlohmann::json& c = failure ? x["counterexample"] : x.contains("global_finding") ? x["global_finding"] : none;
  const std::string said = c.value("kind", "") + ": " + c.value("what", "");
  const std::string sentence = failure                        ? said
                               : x.contains("global_finding") ? "finding (not a failure under --guarantee declared), " + said
                                                              : x.value("verdict", "") + ": no counterexample to show";
  RC_TAG(failure ? "counterexample" : x.contains("global_finding") ? "finding" : "none", from_files ? "check-configs" : "check");
  RC_ASSERT(d.value("sentence", "") == sentence);
  RC_ASSERT(d.value("kind", "") == c.value("kind", ""));
  RC_ASSERT(page.find(std::string(failure ? "<p class=\"verdict\">" : "<p class=\"verdict neutral\">") + html_text(sentence) + "</p>") !=
            std::string::npos);
  // Its steps.
  const nlohmann::json& trace = c["trace"];
  RC_ASSERT(d["entries"].size() == trace.size());
  for (std::size_t k = 0; k < trace.size(); ++k) {
    const nlohmann::json& e = d["entries"][k];
    const nlohmann::json& t = trace[k];
    RC_ASSERT(e.value("text", "") == t.value("instruction", "?"));
    RC_ASSERT(e.value("step", -1) == t.value("step", -2));
    RC_ASSERT(d["procs"][e.value("proc", 0u)].value("name", "") == t.value("process", "?"));
    const std::string change = t.contains("semaphore") ? t.value("semaphore", "") + ": " + std::to_string(t.value("before", std::int64_t{0})) +
                                                             " -> " + std::to_string(t.value("after", std::int64_t{0}))
                                                       : "";
    RC_ASSERT(e.value("change", "") == change);
  }
}

RC_GTEST_PROP(ChartLaw, CheckHtmlReadsAsItsVerdict, ()) { chart_reads_as_the_verdict(false); }
RC_GTEST_PROP(ChartLaw, CheckConfigsHtmlReadsAsItsVerdict, ()) { chart_reads_as_the_verdict(true); }

}  // namespace
}  // namespace neffbar::cli::laws
