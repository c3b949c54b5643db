// The sequence chart's data (sequence_chart.h): which increment released which wait,
// which processes the violation involves, the groups, and a page that no name can break
// out of.  What Chromium draws from it: core/tests/chart_in_chromium.py.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hand_made.h"

#include <string>
#include <vector>

#include "neffbar/model/exports/sequence_chart.h"

namespace neffbar::model {
namespace {

using namespace hand_made;

TraceEntry at(std::uint32_t step, std::uint32_t proc, std::uint32_t pc, std::int64_t before = 0, std::int64_t after = 0) {
  return TraceEntry{step, proc, pc, before, after};
}

// p0 raises s0 twice, p2 raises it once, p1 waits on it twice; p1 also raises s1 and
// waits on it itself (no arrow: its own signal).
System three() {
  return make(2, {{inc(0), inc(0), arrive(), depart()},
                  {inc(1), wait(1), wait(0), wait(0, 1), arrive(), depart()},
                  {inc(0), arrive(), depart()}},
              {{1, 2}, {0}, {}});
}

TEST(SequenceChart, AWaitIsReleasedByTheLastRaiseOfItsSemaphoreByAnotherProcess) {
  const System sys = three();
  Counterexample c;
  c.kind = Verdict::Unsafe;
  c.trace = {at(1, 0, 0, 0, 1),   // 0: p0 inc s0
             at(2, 1, 0, 0, 1),   // 1: p1 inc s1
             at(3, 2, 0, 1, 2),   // 2: p2 inc s0
             at(4, 1, 1, 1, 0),   // 3: p1 wait s1: its own raise only
             at(5, 1, 2, 2, 1),   // 4: p1 wait s0: p2's raise (entry 2), the last
             at(6, 0, 1, 1, 2),   // 5: p0 inc s0
             at(7, 1, 3, 2, 1)};  // 6: p1 wait s0: p0's (entry 5)
  const std::vector<Release> r = releases(sys, c);
  EXPECT_EQ(r, (std::vector<Release>{{2, 4}, {5, 6}}));
}

TEST(SequenceChart, AWaitNobodyRaisedHasNoArrowAndADecreaseIsNoRelease) {
  System sys = make(1, {{inc_val(0, -1), arrive(), depart()}, {wait(0, 0), arrive(), depart()}});
  sys.semas[0].initial = 1;
  Counterexample c;
  c.trace = {at(1, 0, 0, 1, 0), at(2, 1, 0, 0, 0)};
  EXPECT_TRUE(releases(sys, c).empty());
}

TEST(SequenceChart, TheInvolvedAreTheCulpritItsReleasersAndTheOneItShouldHaveWaitedFor) {
  const System sys = make(1, {{inc(0), arrive(), depart()}, {wait(0), arrive(), depart()},
                              {arrive(), depart()}, {arrive(), depart()}},
                          {{}, {2, 3}, {}, {}});
  Counterexample c;
  c.kind = Verdict::Unsafe;
  c.what = "p1 departed round 0 before p3 (in its guarantee) arrived";
  c.trace = {at(1, 0, 0, 0, 1), at(2, 1, 0, 1, 0), at(3, 1, 1), at(4, 2, 0), at(5, 1, 2)};
  const std::vector<Release> r = releases(sys, c);
  ASSERT_EQ(r, (std::vector<Release>{{0, 1}}));
  // p1 the culprit, p0 released it, p3 is named (p2 arrived: not missing).
  EXPECT_EQ(involved(sys, c, r), (std::vector<std::uint32_t>{0, 1, 3}));
  // A sentence that names nobody: every member of the guarantee that had not arrived.
  c.what = "departed early";
  c.trace = {at(1, 0, 0, 0, 1), at(2, 1, 0, 1, 0), at(3, 1, 1), at(4, 1, 2)};
  EXPECT_EQ(involved(sys, c, releases(sys, c)), (std::vector<std::uint32_t>{0, 1, 2, 3}));
  // GLOBAL_UNSAFE owes every participant; p1's guarantee does not matter.
  c.kind = Verdict::GlobalUnsafe;
  c.what = "p1 departed round 0 before p2 arrived (global barrier property)";
  EXPECT_EQ(involved(sys, c, releases(sys, c)), (std::vector<std::uint32_t>{0, 1, 2}));
  // A deadlock owes nobody: it shows every process the dead state holds (p2 and p3
  // never ran, p0 stopped before its DEPART), beside the culprit and its releaser.
  c.kind = Verdict::Deadlock;
  c.trace = {at(1, 0, 0, 0, 1), at(2, 1, 0, 1, 0), at(3, 1, 1), at(4, 1, 2)};
  EXPECT_EQ(involved(sys, c, releases(sys, c)), (std::vector<std::uint32_t>{0, 1, 2, 3}));
  c.trace = {at(1, 0, 0, 0, 1), at(2, 0, 1), at(3, 0, 2), at(4, 2, 0), at(5, 2, 1), at(6, 3, 0), at(7, 3, 1),
             at(8, 1, 0, 1, 0)};
  EXPECT_EQ(involved(sys, c, releases(sys, c)), (std::vector<std::uint32_t>{0, 1})) << "only p1 is held, and p0 released it";
}

TEST(SequenceChart, GroupsAreChipsThenTheHostAndTheProxiesApart) {
  EXPECT_EQ(chart_group("c0.l1"), "c0");
  EXPECT_EQ(chart_group("c63.l3"), "c63");
  EXPECT_EQ(chart_group("host"), "host");
  EXPECT_EQ(chart_group("proxy.c2.l0"), "proxy");
  EXPECT_EQ(chart_group("cfg17"), "configs");
  EXPECT_EQ(chart_group("cx"), "host");
}

TEST(SequenceChart, NoNameCanEndTheScriptOrTheMarkup) {
  System sys = three();
  sys.procs[0].name = "</script><b>x</b>";
  Counterexample c;
  c.trace = {at(1, 0, 0, 0, 1)};
  const std::string page = sequence_chart_html(sys, c, "a <title>", "UNSAFE: <i>&");
  EXPECT_EQ(page.find("</script><b>"), std::string::npos);
  EXPECT_NE(page.find("\\u003c/script>\\u003cb>"), std::string::npos);
  EXPECT_NE(page.find("<h1>a &lt;title&gt;</h1>"), std::string::npos);
  EXPECT_NE(page.find("UNSAFE: &lt;i&gt;&amp;"), std::string::npos);
  EXPECT_NE(page.find("<p class=\"legend\">" + std::string(chart_legend()) + "</p>"), std::string::npos);
  EXPECT_NE(page.find(std::string(chart_style())), std::string::npos) << "the style inline: nothing from the network";
  // One script of data and one of code, each closed once.
  std::size_t closes = 0;
  for (std::size_t at_ = page.find("</script>"); at_ != std::string::npos; at_ = page.find("</script>", at_ + 1)) ++closes;
  EXPECT_EQ(closes, 2u);
}

// The page's data is one compact line (the page sizes the README states): no indent,
// no newline, even for nested data.
TEST(SequenceChart, TheDataIsOneCompactLine) {
  const nlohmann::ordered_json j = {{"procs", {{{"name", "c0.l0"}, {"group", "c0"}}}}, {"releases", {{0, 1}, {2, 3}}}};
  EXPECT_EQ(script_json(j), R"({"procs":[{"name":"c0.l0","group":"c0"}],"releases":[[0,1],[2,3]]})");
}

}  // namespace
}  // namespace neffbar::model
