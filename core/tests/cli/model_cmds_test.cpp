// End-to-end through the real binary (cli_fixture.h): the model commands of
// model_cmds.cpp -- check, check-configs, compose, promela and hypotheses -- their
// verdicts, exit codes, budgets, JSON, progress and the options they refuse.
#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_fixture.h"

namespace {

using namespace neffbar_e2e;

class ModelCmds : public Cli {};

std::uint64_t number_after(const std::string& text, const std::string& key) {
  const std::size_t at = text.find(key);
  return at == std::string::npos ? 0 : std::stoull(text.substr(at + key.size()));
}

TEST_F(ModelCmds, CheckVerdictsAndExitCodes) {
  const Outcome ok = run("check --chips 2 --leaders 2 --host-cc --lowering hierarchical --rounds 2");
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("verdict:  OK"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("engine:   persistent (exact)"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("global barrier property: holds"), std::string::npos) << ok.out;
  const Outcome ex = run("check --chips 2 --leaders 2 --host-cc --lowering hierarchical --rounds 2 --engine explicit");
  EXPECT_EQ(ex.exit_code, 0) << ex.out << ex.err;
  EXPECT_NE(ex.out.find("engine:   explicit (exhaustive: exact)"), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("states/s"), std::string::npos);
  const Outcome js = run("check --chips 64 --leaders 4 --host-cc --lowering hierarchical --json");
  EXPECT_EQ(js.exit_code, 4) << js.err;
  EXPECT_NE(js.out.find("\"exact\": true"), std::string::npos) << js.out;
  EXPECT_NE(js.out.find("\"engine\": \"persistent\""), std::string::npos) << js.out;
  EXPECT_NE(js.out.find("\"verdict\": \"GLOBAL_UNSAFE\""), std::string::npos) << js.out;
  EXPECT_EQ(run("check --engine fast").exit_code, 2);
  EXPECT_EQ(run("check --engine explicit --random 3").exit_code, 2);
  const Outcome c7 = run("check --chips 2 --leaders 2 --host-cc");
  EXPECT_EQ(c7.exit_code, 4);
  // Which pair is shown depends on the symmetry representative; the shape does not.
  EXPECT_NE(c7.out.find("GLOBAL_UNSAFE: c"), std::string::npos) << c7.out;
  EXPECT_NE(c7.out.find("arrived (global barrier property)"), std::string::npos) << c7.out;
  EXPECT_NE(c7.out.find("  1. host: inc("), std::string::npos) << c7.out;
  const Outcome declared = run("check --chips 2 --leaders 2 --host-cc --guarantee declared");
  EXPECT_EQ(declared.exit_code, 0);
  EXPECT_NE(declared.out.find("finding (global property"), std::string::npos) << declared.out;
  const Outcome dl = run("check --chips 1 --leaders 2 --no-proxy --json");
  EXPECT_EQ(dl.exit_code, 4);
  EXPECT_NE(dl.out.find("\"verdict\": \"DEADLOCK\""), std::string::npos) << dl.out;
  // Random mode tells the truth: it never says "holds", and its lines agree.
  const Outcome rnd = run("check --chips 1 --leaders 4 --host-cc --random 2 --seed 3");
  EXPECT_EQ(rnd.exit_code, 0) << rnd.out << rnd.err;
  EXPECT_NE(rnd.out.find("verdict:  NOT_REFUTED"), std::string::npos) << rnd.out;
  EXPECT_NE(rnd.out.find("global barrier property: not refuted in 2 schedules"), std::string::npos) << rnd.out;
  EXPECT_EQ(rnd.out.find("holds"), std::string::npos) << rnd.out;
  const Outcome big = run("check --chips 64 --leaders 4 --host-cc --lowering hierarchical --random 10");
  EXPECT_EQ(big.exit_code, 4) << big.out << big.err;
  EXPECT_NE(big.out.find("verdict:  GLOBAL_UNSAFE"), std::string::npos) << big.out;
  EXPECT_NE(big.out.find("global barrier property: BROKEN"), std::string::npos) << big.out;
  EXPECT_EQ(big.out.find(" 0 instructions"), std::string::npos) << big.out;
  const Outcome stuck = run("check --chips 1 --leaders 2 --host-cc --compare gt --random 3");
  EXPECT_NE(stuck.out.find("global barrier property: not reached"), std::string::npos) << stuck.out;
  for (const char* bad : {"--chips 0", "--chips 65", "--leaders 5", "--leaders 0", "--fabric ring",
                          "--compare lt", "--lowering tree", "--wiring star", "--roles x", "--host-addrs y"}) {
    const Outcome r = run(std::string("check ") + bad);
    EXPECT_EQ(r.exit_code, 2) << bad;  // every wrong option value is usage
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << bad << ": one line: " << r.err;
  }
  EXPECT_EQ(run("check --chips").exit_code, 2);
}

// --max-seconds 1 in the cases that overran it (the 64x4 symmetry canonicalisation took
// hours, 64x4 x 1000 rounds one random schedule 28-56 s).  The one timed check of the
// suite, with a wide margin: the budget, one progress interval, and 20 s of slack for
// a loaded 2-core machine and composing 64x4 x 1000 rounds (not interruptible, 0.25 s
// in a release build), 60 s under ASan (a Debug build, several times slower).  The
// deterministic checks are in model/budget_test.cpp.
TEST_F(ModelCmds, TheTimeBudgetHoldsInEveryEngine) {
  for (const char* args : {"--chips 64 --leaders 4 --host-cc --engine explicit",
                           "--chips 32 --leaders 4 --host-cc --engine explicit --no-symmetry",
                           "--chips 64 --leaders 4 --rounds 1000 --engine random",
                           "--chips 64 --leaders 4 --rounds 1000 --host-cc --engine random --guarantee declared"}) {
    const auto t0 = std::chrono::steady_clock::now();
    const Outcome r = run(std::string("check --max-seconds 1 ") + args);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(took, 1 + 1 + (kSanitized ? 60 : 20)) << args;
    EXPECT_NE(r.out.find("note:"), std::string::npos) << args << r.out;
    if (std::string(args).find("random") != std::string::npos) {
      // The violation if the cut schedule got that far, else BUDGET (the schedules asked
      // for did not all run); a schedule this long says what a whole one costs.
      EXPECT_EQ(r.exit_code, 4) << args << r.out << r.err;
      EXPECT_EQ(r.out.find("verdict:  NOT_REFUTED"), std::string::npos) << args << r.out;
      // (Unless composing the 1000 rounds took the whole second, as it may on a loaded
      // machine: the budget is the command's.)
      EXPECT_TRUE(r.out.find("a whole schedule runs up to") != std::string::npos ||
                  r.out.find("time budget exhausted before the check started") != std::string::npos)
          << args << r.out;
    } else {
      EXPECT_EQ(r.exit_code, 4) << args << r.out << r.err;
      EXPECT_NE(r.out.find("verdict:  BUDGET"), std::string::npos) << args << r.out;
      EXPECT_NE(r.out.find("time budget exhausted"), std::string::npos) << args << r.out;
    }
  }
}

TEST_F(ModelCmds, TheStateBudgetHoldsWithinOneState) {
  for (int n : {10, 1000}) {
    const Outcome r = run("check --chips 4 --leaders 4 --engine explicit --no-symmetry --json --max-states " + std::to_string(n));
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_NE(r.out.find("\"verdict\": \"BUDGET\""), std::string::npos) << r.out;
    EXPECT_EQ(number_after(r.out, "\"states\": "), static_cast<std::uint64_t>(n) + 1) << r.out;  // was 28 906 for 10
  }
}

// A GLOBAL_UNSAFE in hand when the budget ran out is reported, with its counterexample,
// beside the verdict BUDGET: the uncut search could still meet a stopping violation,
// which would be its verdict (a stopping one found first is the verdict: budget_cuts).
TEST_F(ModelCmds, ALesserViolationFoundBeforeTheBudgetRanOutIsReportedBesideBudget) {
  const std::string args = "check --chips 4 --leaders 4 --rounds 2 --engine explicit --max-states 1000";
  const Outcome r = run(args);
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict:  BUDGET"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("engine:   explicit (budget ran out: not exact)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("after a GLOBAL_UNSAFE was found (the counterexample): a more severe violation may come later"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ncounterexample of the GLOBAL_UNSAFE found before the budget ran out"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("--guarantee declared"), std::string::npos) << "a label of the other mode: " << r.out;
  EXPECT_EQ(r.out.find("also found (global property"), std::string::npos) << "the finding printed twice: " << r.out;
  const Outcome j = run(args + " --json");
  EXPECT_NE(j.out.find("\"verdict\": \"BUDGET\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"guarantee\": \"global\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"exact\": false"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"exhaustive\": false"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"counterexample\": {"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"kind\": \"GLOBAL_UNSAFE\""), std::string::npos) << j.out;
  EXPECT_EQ(j.out.find("\"global_finding\""), std::string::npos) << "the finding given twice: " << j.out;
  // Under declared the global property is a finding, and nothing failing was found.
  const Outcome d = run(args + " --guarantee declared");
  EXPECT_EQ(d.exit_code, 4) << d.out;
  EXPECT_NE(d.out.find("verdict:  BUDGET"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("finding (global property, not a failure under --guarantee declared)"), std::string::npos) << d.out;
}

// A global-property violation found beside a failure of another kind is reported with
// it, once, under both guarantees: text and JSON, on every exact engine.
TEST_F(ModelCmds, AGlobalFindingBesideADeadlockIsReportedWithIt) {
  for (const char* engine : {"explicit", "persistent"}) {
    const std::string args = std::string("check --chips 2 --leaders 2 --no-proxy --engine ") + engine;
    const Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_NE(r.out.find("verdict:  DEADLOCK"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\ncounterexample"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nalso found (global property; the verdict above is the first failure)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("GLOBAL_UNSAFE: "), std::string::npos) << r.out;
    const Outcome j = run(args + " --json");
    EXPECT_NE(j.out.find("\"kind\": \"DEADLOCK\""), std::string::npos) << j.out;
    EXPECT_NE(j.out.find("\"global_finding\": {"), std::string::npos) << j.out;
    EXPECT_NE(j.out.find("\"kind\": \"GLOBAL_UNSAFE\""), std::string::npos) << j.out;
    const Outcome d = run(args + " --guarantee declared");
    EXPECT_EQ(d.exit_code, 4) << d.out;
    EXPECT_NE(d.out.find("verdict:  DEADLOCK"), std::string::npos) << d.out;
    EXPECT_NE(d.out.find("\nfinding (global property, not a failure under --guarantee declared)"), std::string::npos) << d.out;
  }
}

TEST_F(ModelCmds, TheMemoryBudget) {
  const Outcome r = run("check --chips 64 --leaders 4 --host-cc --engine explicit --no-symmetry --max-memory 8M");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict:  BUDGET"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("memory budget exhausted (8 MiB"), std::string::npos) << r.out;
  EXPECT_GT(number_after(r.out, "states:   "), 1000u) << r.out;
  const nlohmann::json j = nlohmann::json::parse(run("check --chips 4 --leaders 4 --engine explicit --max-memory 1M --json").out);
  EXPECT_EQ(j["cut_by"], "memory") << j.dump();
  EXPECT_EQ(j["note"].get<std::string>().rfind("memory budget exhausted", 0), 0u) << j.dump();
  EXPECT_FALSE(nlohmann::json::parse(run("check --json").out).contains("cut_by")) << "a run to its end names no cut";
  for (const char* bad : {"0", "12X", "M", "-5", "99999999999999G"}) {
    const Outcome b = run(std::string("check --max-memory ") + bad);
    EXPECT_EQ(b.exit_code, 2) << bad;  // an option's value: usage
    EXPECT_EQ(b.err.rfind("neffbar: invalid argument: --max-memory", 0), 0u) << bad << ": " << b.err;
  }
  EXPECT_EQ(run("check --max-memory 2GiB --chips 2 --engine explicit").exit_code, 0);
  EXPECT_EQ(run("check --max-memory 64M --engine persistent").exit_code, 2) << "the explicit search's option";
}

// Under `ulimit -v` the default budget fits what the process may allocate (BUDGET, not
// an abort); a budget above it meets the allocator's refusal, which is BUDGET too; an
// engine without a memory budget says so in one line.  ASan reserves terabytes of
// address space, so ulimit -v cannot work under it: skipped there.
TEST_F(ModelCmds, UnderUlimitTheSearchEndsWithBudgetNotAnAbort) {
  if (kSanitized) GTEST_SKIP() << "ulimit -v cannot work under ASan (its shadow memory is address space)";
  const std::string search = "check --chips 64 --leaders 4 --host-cc --engine explicit --no-symmetry";
  const Outcome fit = run_limited(160'000, search);
  EXPECT_EQ(fit.exit_code, 4) << fit.out << fit.err;
  EXPECT_NE(fit.out.find("memory budget exhausted"), std::string::npos) << fit.out;
  const Outcome over = run_limited(160'000, search + " --max-memory 4G");
  EXPECT_EQ(over.exit_code, 4) << over.out << over.err;
  EXPECT_NE(over.out.find("verdict:  BUDGET"), std::string::npos) << over.out;
  EXPECT_NE(over.out.find("out of memory after"), std::string::npos) << over.out;
  // An allocation outside the search: the Promela text of 63x4 (1.7 MB: each DEPART
  // names every participant; its rounds are one loop over the body), under a limit 4 MiB
  // above what the binary needs to start, found here since it depends on the build.
  std::size_t lo = 1000, hi = 1'000'000;
  ASSERT_EQ(run_limited(hi, "--help").exit_code, 0);
  while (hi - lo > 256) {
    const std::size_t mid = (lo + hi) / 2;
    (run_limited(mid, "--help").exit_code == 0 ? hi : lo) = mid;
  }
  const std::string promela = "promela --chips 63 --leaders 4 --host-cc --rounds 1000";
  ASSERT_EQ(run(promela + " -o '" + (dir_ / "m.pml").string() + "'").exit_code, 0) << "fits without a limit";
  const Outcome rnd = run_limited(hi + 4096, promela);
  EXPECT_EQ(rnd.exit_code, 1) << rnd.out << rnd.err;
  EXPECT_EQ(rnd.err, "neffbar: promela: out of memory (the allocator refused; a smaller topology, or more memory for this process)\n");
}

// --html FILE: the counterexample's page beside the verdict (what Chromium draws of it:
// chart_in_chromium.py); a page that cannot be written is exit 1 with nothing on
// stdout, "-" is refused (stdout carries the verdict), an OK verdict's page says so.
TEST_F(ModelCmds, CheckWritesTheCounterexampleAsAPage) {
  const fs::path page = dir_ / "c.html";
  const Outcome r = run("check --chips 2 --leaders 2 --host-cc --html '" + page.string() + "'");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const std::string html = slurp(page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("GLOBAL_UNSAFE: c1.l1 departed round 0"), std::string::npos) << html.substr(0, 400);
  EXPECT_NE(r.out.find("verdict:  GLOBAL_UNSAFE"), std::string::npos) << "the verdict still goes to stdout";
  const Outcome full = run("check --chips 2 --leaders 2 --host-cc --html /dev/full");
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_EQ(full.out, "");
  EXPECT_NE(full.err.find("neffbar: /dev/full: "), std::string::npos) << full.err;
  const Outcome dash = run("check --chips 2 --leaders 2 --html -");
  EXPECT_EQ(dash.exit_code, 2);
  EXPECT_NE(dash.err.find("--html"), std::string::npos) << dash.err;
  const Outcome ok = run("check --chips 1 --leaders 4 --host-cc --html '" + page.string() + "'");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(slurp(page).find("OK: no counterexample to show"), std::string::npos);
  const Outcome cc = run("check-configs '" + (dir_ / "none.bin").string() + "' --html -");
  EXPECT_EQ(cc.exit_code, 2) << "check-configs refuses - too, before reading its files";
  EXPECT_EQ(run("check --chips 2 --leaders 2 --html ''").exit_code, 2) << "an empty path is no page";
  const Outcome same = run("check --chips 2 --leaders 2 --html '" + page.string() + "' -o '" + page.string() + "'");
  EXPECT_EQ(same.exit_code, 2) << "the page and the text in one file: one would replace the other";
  EXPECT_NE(same.err.find("--html"), std::string::npos) << same.err;
  const std::string fresh = (dir_ / "not-yet.html").string();  // the same name, before either file exists
  EXPECT_EQ(run("check --chips 2 --leaders 2 --html '" + fresh + "' -o '" + fresh + "'").exit_code, 2);
  EXPECT_FALSE(fs::exists(fresh));
  // Under --guarantee declared the global finding is shown, not as a failure.
  EXPECT_EQ(run("check --chips 2 --leaders 2 --host-cc --guarantee declared --html '" + page.string() + "'").exit_code, 0);
  EXPECT_NE(slurp(page).find("finding (not a failure under --guarantee declared), GLOBAL_UNSAFE: "), std::string::npos);
  EXPECT_NE(slurp(page).find("<p class=\"verdict neutral\">"), std::string::npos);
}

TEST_F(ModelCmds, CheckJsonSaysWhereTheTimeWentByPhase) {
  // compose_lower, decide, rechecks: seconds of the steady clock, each timed.  The
  // re-checks of fewer rounds run only where the explicit search found a failure.
  const auto phases = [&](const std::string& args) {
    const Outcome r = run("check " + args + " --json");
    EXPECT_EQ(r.exit_code, 4) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["phases"].size(), 3u) << r.out;
    return std::array<double, 3>{j["phases"]["compose_lower"].get<double>(), j["phases"]["decide"].get<double>(),
                                 j["phases"]["rechecks"].get<double>()};
  };
  const auto persistent = phases("--chips 64 --leaders 4 --host-cc --lowering hierarchical --rounds 1000");
  EXPECT_GT(persistent[0], 0.0);
  EXPECT_GT(persistent[1], 0.0);
  EXPECT_EQ(persistent[2], 0.0) << "the persistent engine measures the round it broke in itself";
  const auto rechecked = phases("--chips 1 --leaders 2 --no-proxy --rounds 3 --engine explicit");
  EXPECT_GT(rechecked[0], 0.0);
  EXPECT_GT(rechecked[1], 0.0);
  EXPECT_GT(rechecked[2], 0.0) << "broke in round 1 of 3: rounds 1 and 2 re-checked";
}

// The explicit search's rate is its states over its seconds, in the JSON and in the text.
TEST_F(ModelCmds, TheSearchsRateIsItsStatesOverItsSeconds) {
  const Outcome js = run("check --chips 2 --leaders 2 --engine explicit --no-symmetry --json");
  ASSERT_EQ(js.exit_code, 4) << js.err;
  const nlohmann::json j = nlohmann::json::parse(js.out);
  const double states = j["states"].get<double>(), seconds = j["seconds"].get<double>();
  ASSERT_GT(states, 0.0);
  ASSERT_GT(seconds, 0.0);
  EXPECT_DOUBLE_EQ(j["states_per_second"].get<double>(), states / seconds);
  const Outcome text = run("check --chips 2 --leaders 2 --engine explicit --no-symmetry");
  const std::size_t at = text.out.find("states:   ");
  ASSERT_NE(at, std::string::npos) << text.out;
  std::istringstream line(text.out.substr(at + 10));
  double n = 0, s = 0, rate = 0;
  std::string explored, in, unit, open;
  line >> n >> explored >> in >> s >> unit;
  line.ignore(2);  // " ("
  line >> rate;
  ASSERT_GT(s, 0.0) << text.out;
  EXPECT_NEAR(rate, n / s, n / s * 1e-3 + 1) << text.out;  // the seconds are printed to 6 digits
}

TEST_F(ModelCmds, PromelaRefusesWhatSpinCannotRun) {
  for (const char* topo : {"--chips 32 --leaders 4", "--chips 64 --leaders 4 --host-cc"}) {
    const Outcome r = run(std::string("promela ") + topo);
    EXPECT_EQ(r.exit_code, 1) << topo;
    EXPECT_TRUE(r.out.empty()) << topo;
    EXPECT_NE(r.err.find("neffbar: promela: out of range: processes: expected at most 255 SPIN processes"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  }
  const Outcome edge = run("promela --chips 63 --leaders 4 --host-cc");  // 253 + monitor + init = 255
  EXPECT_EQ(edge.exit_code, 0) << edge.err;
  EXPECT_NE(edge.out.find("\nbyte finished;"), std::string::npos);
  EXPECT_NE(edge.out.find("finished == 253"), std::string::npos);
}

TEST_F(ModelCmds, CheckConfigsAndHypotheses) {
  std::string img(0x128, '\0');
  const fs::path zero = file("zero.bin", img);
  const Outcome r = run("check-configs '" + zero.string() + "' '" + zero.string() + "'");
  EXPECT_EQ(r.exit_code, 4) << r.out;  // no lanes: nobody waits for anybody
  EXPECT_NE(r.out.find("UNSAFE: cfg"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(in its guarantee) arrived"), std::string::npos) << r.out;
  // Through the scenario runner, numbered as the steps are: round 0.
  EXPECT_NE(r.out.find("broke in round: 0\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[round 0]"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("[round 1]"), std::string::npos) << r.out;
  // Two configs that wait on one semaphore: not persistent; auto says why and searches.
  std::string shared(0x128, '\0');
  const auto put = [&](std::size_t at, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) shared[at + static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
  };
  put(0x004, 0x01001020, 8);  // step 0 lane 0: inc
  put(0x0A0, 0x01001020, 8);  // step 3 lane 0: wait_ge_and_dec >= 1
  put(0x0C0, 1, 4);
  const fs::path two = file("shared.bin", shared);
  const Outcome nq = run("check-configs '" + two.string() + "' '" + two.string() + "'");
  EXPECT_NE(nq.out.find("engine:   explicit"), std::string::npos) << nq.out;
  EXPECT_NE(nq.out.find("persistent engine not applicable: semaphore"), std::string::npos) << nq.out;
  EXPECT_NE(nq.out.find("cfg0 and cfg1"), std::string::npos) << nq.out;
  const Outcome refused = run("check-configs --engine persistent '" + two.string() + "' '" + two.string() + "'");
  EXPECT_EQ(refused.exit_code, 1) << refused.out;
  EXPECT_TRUE(refused.out.empty()) << refused.out;
  EXPECT_NE(refused.err.find("cfg0 and cfg1"), std::string::npos) << refused.err;
  // Rounds are bounded as for check (this once looped forever: a 16-bit round counter).
  const Outcome many = run("check-configs --rounds 65537 '" + zero.string() + "'");
  EXPECT_EQ(many.exit_code, 2) << many.out;
  EXPECT_NE(many.err.find("--rounds"), std::string::npos) << many.err;
  EXPECT_NE(r.out.find("configs: 2 files"), std::string::npos) << r.out;
  const Outcome bad = run("check-configs '" + file("short.bin", "abc").string() + "'");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("short.bin"), std::string::npos) << bad.err;
  const Outcome h = run("hypotheses --small");
  EXPECT_EQ(h.exit_code, 0) << h.err;
  EXPECT_NE(h.out.find("| 2x2 switch | on | 2 | gt |"), std::string::npos);
  EXPECT_NE(h.out.find("## Shortest counterexample per failing combination"), std::string::npos);
}

// Progress lines ("  ... " on stderr) go to a terminal, or anywhere with --progress: a
// log or a pipe gets none unasked, and a terminal gets none with --json.  script(1) gives
// the command a terminal; its stdout still goes to a file.
TEST_F(ModelCmds, ProgressGoesToATerminalOrWhereAsked) {
  const Outcome quiet = run("hypotheses --small");
  EXPECT_EQ(quiet.exit_code, 0);
  EXPECT_EQ(quiet.err, "");
  const Outcome asked = run("hypotheses --small --progress");
  EXPECT_EQ(asked.out, quiet.out);
  EXPECT_NE(asked.err.find("  ... 64/768 scenarios\n"), std::string::npos) << asked.err;
  EXPECT_NE(asked.err.find("  ... 768/768 scenarios\n"), std::string::npos) << asked.err;
  const std::string md = (dir_ / "matrix.md").string();
  const Outcome tty = shell("script -qec \"\\\"$NB\\\" hypotheses --small > '" + md + "'\" /dev/null");
  EXPECT_NE(tty.out.find("  ... 768/768 scenarios"), std::string::npos) << tty.out << tty.err;
  EXPECT_EQ(slurp(md), quiet.out);
  const Outcome tty_json = shell("script -qec \"\\\"$NB\\\" hypotheses --small --json > '" + md + "'\" /dev/null");
  EXPECT_EQ(tty_json.out.find("  ... "), std::string::npos) << tty_json.out;
  // The engines' progress, about once a second: searches cut at 1.5 s, from a topology
  // and from compose's files of it.
  const fs::path dir = dir_ / "composed";
  ASSERT_EQ(run("compose --chips 64 --leaders 4 -o '" + dir.string() + "'").exit_code, 0);
  const std::string slow = " --engine explicit --no-reduce --no-por --no-symmetry --max-seconds 1.5";
  for (const std::string& args : {"check --chips 64 --leaders 4" + slow, "check-configs '" + dir.string() + "'" + slow}) {
    const Outcome unasked = run(args);
    EXPECT_EQ(unasked.exit_code, 4) << args << unasked.err;
    EXPECT_EQ(unasked.err, "") << args;
    const Outcome progress = run(args + " --progress");
    EXPECT_EQ(progress.exit_code, 4) << args << progress.err;
    EXPECT_NE(progress.err.find(" states, 1 s\n"), std::string::npos) << args << progress.err;
  }
}

// hypotheses --full --html: the full-scale table's grid, titled as such, its cells linking
// nowhere (its rows keep no counterexample: thousands of them).
TEST_F(ModelCmds, HypothesesFullHtmlIsTheFullTableWithoutLinks) {
  if (kSanitized) GTEST_SKIP() << "the full table takes minutes under ASan+UBSan; the plain build's run checks it";
  const fs::path page = dir_ / "full.html", md = dir_ / "full.md";
  const Outcome r = run("hypotheses --full -o '" + md.string() + "' --html '" + page.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = slurp(page);
  EXPECT_NE(html.find("<title>neffbar full-scale table: "), std::string::npos) << html.substr(0, 300);
  const Outcome full = run("hypotheses --small -o /dev/null --html /dev/full");
  EXPECT_EQ(full.exit_code, 1) << "a grid that cannot be written: " << full.err;
  EXPECT_NE(full.err.find("neffbar: /dev/full: "), std::string::npos) << full.err;
  EXPECT_EQ(html.find("href=\"#cell="), std::string::npos) << "a cell links to a chart the rows do not keep";
  EXPECT_NE(html.find("data-cell=\"9000\""), std::string::npos) << "every scenario a cell";
  EXPECT_NE(slurp(md).find("## Where each lowering is a global barrier (1 round, exact)"), std::string::npos);
}

// compose writes one image per leader, each chip's context and the manifest; check-configs
// on that directory decides what check decides on the topology, diff compares two such
// directories by their manifests' images.
TEST_F(ModelCmds, ComposeWritesWhatCheckConfigsAndDiffRead) {
  const std::string topo = "--chips 4 --leaders 2 --host-cc --lowering hierarchical --rounds 3";
  const fs::path out = dir_ / "composed";
  const Outcome c = run("compose " + topo + " --logs -o '" + out.string() + "'");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.out, "wrote " + out.string() + ": 8 leader images with their logs, 4 driver contexts, manifest.json\n");
  for (std::uint32_t chip = 0; chip < 4; ++chip) {
    EXPECT_TRUE(fs::exists(out / ("chip0" + std::to_string(chip) + "_context.bin"))) << chip;
    for (std::uint32_t l = 0; l < 2; ++l) {
      const std::string stem = "chip0" + std::to_string(chip) + "_leader" + std::to_string(l);
      EXPECT_EQ(fs::file_size(out / (stem + ".bin")), 0x128u) << stem;
      // The log beside it encodes back to the image.
      const Outcome enc = run("encode '" + (out / (stem + ".json")).string() + "'");
      EXPECT_EQ(enc.out, slurp(out / (stem + ".bin"))) << stem;
    }
  }
  const nlohmann::json m = nlohmann::json::parse(slurp(out / "manifest.json"));
  EXPECT_EQ(m["options"]["chips"], 4);
  EXPECT_EQ(m["options"]["lowering"], "hierarchical");
  EXPECT_EQ(m["options"]["rounds"], 3);
  ASSERT_EQ(m["files"].size(), 12u);
  EXPECT_EQ(m["files"][3]["file"], "chip01_leader1.bin");
  EXPECT_EQ(m["files"][3]["chip"], 1);
  EXPECT_EQ(m["files"][3]["leader"], 1);
  EXPECT_EQ(m["files"][3]["role"], "leader");
  EXPECT_EQ(m["files"][8]["role"], "driver_context");
  // The same verdict, kinds, global line, broke-in-round and counterexample either way.
  const auto essentials = [](const std::string& json) {
    const nlohmann::json j = nlohmann::json::parse(json);
    return nlohmann::json{j["verdict"], j["global_property"], j["broke_in_round"], j["counterexample"]["trace"].size(),
                          j["counterexample"]["what"]};
  };
  const Outcome direct = run("check " + topo + " --json");
  const Outcome files = run("check-configs '" + out.string() + "' --json");
  EXPECT_EQ(files.exit_code, direct.exit_code) << files.err;
  EXPECT_EQ(essentials(files.out), essentials(direct.out)) << files.out;
  EXPECT_EQ(essentials(run("check-configs '" + (out / "manifest.json").string() + "' --json").out), essentials(files.out));
  // An option given on the command line replaces the manifest's.
  const Outcome one = run("check-configs '" + out.string() + "' --rounds 1 --json");
  EXPECT_EQ(essentials(one.out), essentials(run("check --chips 4 --leaders 2 --host-cc --lowering hierarchical --json").out));
  // diff reads every file compose wrote: equal, then the field a changed image differs
  // in; without the logs, each log is only in the first and the manifests differ.
  const fs::path other = dir_ / "other";
  ASSERT_EQ(run("compose " + topo + " --logs -o '" + other.string() + "'").exit_code, 0);
  EXPECT_EQ(run("diff '" + out.string() + "' '" + other.string() + "'").exit_code, 0);
  const fs::path bare = dir_ / "bare";
  ASSERT_EQ(run("compose " + topo + " -o '" + bare.string() + "'").exit_code, 0);
  const Outcome logs = run("diff '" + out.string() + "' '" + bare.string() + "'");
  EXPECT_EQ(logs.exit_code, 5);
  EXPECT_EQ(std::count(logs.out.begin(), logs.out.end(), '\n'), 9) << logs.out;
  EXPECT_NE(logs.out.find("only in " + out.string() + ": chip03_leader1.json\n"), std::string::npos) << logs.out;
  EXPECT_NE(logs.out.find("manifest.json: differs from byte "), std::string::npos) << logs.out;
  std::string img = slurp(other / "chip02_leader1.bin");
  img[0x40] = 0;
  std::ofstream(other / "chip02_leader1.bin", std::ios::binary | std::ios::trunc) << img;
  const Outcome d = run("diff '" + out.string() + "' '" + (other / "manifest.json").string() + "'");
  EXPECT_EQ(d.exit_code, 5) << d.err;
  EXPECT_EQ(d.out.rfind("chip02_leader1.bin: 0x40 device_barrier.barrier_step_config[1].barrier_sema[1]: ", 0), 0u) << d.out;
  EXPECT_EQ(std::count(d.out.begin(), d.out.end(), '\n'), 1) << d.out;
  // A changed image is what check-configs decides: a leader signalling another semaphore.
  EXPECT_NE(essentials(run("check-configs '" + other.string() + "' --json").out), essentials(direct.out));
}

// -o names a directory, written whole or not at all; only an earlier compose's output
// (or an empty directory) is replaced, and a manifest that does not describe a topology
// is named by its key.
TEST_F(ModelCmds, ComposeReplacesOnlyItsOwnOutputAndCheckConfigsNamesABadManifest) {
  const fs::path out = dir_ / "c";
  ASSERT_EQ(run("compose --chips 2 --leaders 2 -o '" + out.string() + "'").exit_code, 0);
  ASSERT_EQ(run("compose --chips 1 --leaders 1 -o '" + out.string() + "'").exit_code, 0);
  EXPECT_FALSE(fs::exists(out / "chip01_leader0.bin")) << "replaced whole, nothing of the old one left";
  EXPECT_TRUE(fs::exists(out / "chip00_leader0.bin"));
  const fs::path mine = dir_ / "mine";
  fs::create_directories(mine);
  std::ofstream(mine / "notes.txt") << "keep";
  const Outcome refused = run("compose -o '" + mine.string() + "'");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("holds no manifest.json"), std::string::npos) << refused.err;
  EXPECT_EQ(slurp(mine / "notes.txt"), "keep");
  const fs::path empty = dir_ / "empty";
  fs::create_directories(empty);
  EXPECT_EQ(run("compose --chips 1 --leaders 1 -o '" + empty.string() + "'").exit_code, 0) << "an empty directory is replaced";
  EXPECT_TRUE(fs::exists(empty / "manifest.json"));
  EXPECT_EQ(run("compose -o '" + (dir_ / "no" / "such" / "parent").string() + "'").exit_code, 1);
  EXPECT_FALSE(fs::exists(dir_ / "no"));
  EXPECT_EQ(run("compose").exit_code, 2);
  EXPECT_EQ(run("compose -o -").exit_code, 2);
  EXPECT_EQ(run("check-configs").err, "neffbar: FILE is required (run with --help for more information)\n");
  for (const char* root : {"/", ".", ".."}) {
    EXPECT_EQ(run("compose -o " + std::string(root)).err,
              "neffbar: " + std::string(root) + ": name a directory to create or replace (not . or ..)\n");
  }
  EXPECT_NE(run("compose --help").out.find(" -o,--output DIR REQUIRED "), std::string::npos);
  EXPECT_EQ(run("compose --chips 65 -o '" + (dir_ / "big").string() + "'").exit_code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "big"));
  for (const auto& e : fs::directory_iterator(dir_)) EXPECT_FALSE(e.path().filename().string().starts_with(".")) << e.path();
  // A manifest missing a leader, a path out of the directory, a missing image.
  nlohmann::json m = nlohmann::json::parse(slurp(out / "manifest.json"));
  ASSERT_EQ(run("compose --chips 2 --leaders 2 -o '" + out.string() + "'").exit_code, 0);
  m = nlohmann::json::parse(slurp(out / "manifest.json"));
  nlohmann::json missing = m;
  missing["files"].erase(missing["files"].begin() + 2);
  const Outcome r1 = run("check-configs '" + file("m1.json", missing.dump()).string() + "'");
  EXPECT_EQ(r1.exit_code, 1);
  EXPECT_NE(r1.err.find("none for chip 1 leader 0"), std::string::npos) << r1.err;
  nlohmann::json escape = m;
  escape["files"][0]["file"] = "../chip00_leader0.bin";
  const Outcome r2 = run("check-configs '" + file("m2.json", escape.dump()).string() + "'");
  EXPECT_EQ(r2.exit_code, 1);
  EXPECT_NE(r2.err.find("$.files[0].file"), std::string::npos) << r2.err;
  fs::remove(out / "chip01_leader1.bin");
  const Outcome r3 = run("check-configs '" + out.string() + "'");
  EXPECT_EQ(r3.exit_code, 1);
  EXPECT_NE(r3.err.find("chip01_leader1.bin"), std::string::npos) << r3.err;
  EXPECT_EQ(r3.out, "");
}

// check-configs on compose's directory: the manifest's options are the defaults (compare,
// guarantee, rounds ...), an option given replaces its own only; the scenario line names
// the directory; a broken manifest is named by the path given; an image or a context of
// the wrong size is named before anything is decided.
TEST_F(ModelCmds, CheckConfigsTakesTheManifestsOptionsAndNamesItsFiles) {
  const fs::path d = dir_ / "d";
  ASSERT_EQ(run("compose --chips 2 --leaders 2 --compare gt --guarantee declared -o '" + d.string() + "'").exit_code, 0);
  const Outcome gt = run("check-configs '" + d.string() + "'");
  EXPECT_EQ(gt.out.rfind("scenario: 2x2 default no-host-cc rounds=1 gt dec=one per_peer table roles=code host-addrs=ctx (" +
                             d.string() + ")\n", 0), 0u) << gt.out;
  EXPECT_NE(gt.out.find("verdict:  DEADLOCK"), std::string::npos) << gt.out;  // gt: the last arrival waits for more
  const nlohmann::json declared = nlohmann::json::parse(run("check-configs --json '" + d.string() + "'").out);
  EXPECT_EQ(declared["guarantee"], "declared");
  const nlohmann::json global = nlohmann::json::parse(run("check-configs --json --guarantee global '" + d.string() + "'").out);
  EXPECT_EQ(global["guarantee"], "global");
  const nlohmann::json ge = nlohmann::json::parse(run("check-configs --json --compare ge --rounds 2 '" + d.string() + "'").out);
  EXPECT_EQ(ge["scenario"], "2x2 default no-host-cc rounds=2 ge dec=one per_peer table roles=code host-addrs=ctx (" + d.string() + ")");
  EXPECT_EQ(ge["verdict"], "OK");
  EXPECT_EQ(ge["guarantee"], "declared");
  // --lowering reaches the composition itself, not only the scenario line: the table's
  // global break is gone under arrive_wait.
  const std::string global_ge = "check-configs --json --compare ge --guarantee global ";
  EXPECT_EQ(nlohmann::json::parse(run(global_ge + "'" + d.string() + "'").out)["verdict"], "GLOBAL_UNSAFE");
  EXPECT_EQ(nlohmann::json::parse(run(global_ge + "--lowering arrive_wait '" + d.string() + "'").out)["verdict"], "OK");
  // A manifest that is no manifest: named by the directory (and the file in it), or by
  // the manifest's own path.
  nlohmann::json m = nlohmann::json::parse(slurp(d / "manifest.json"));
  m["format"] = "x";
  const fs::path bad = dir_ / "bad";
  fs::copy(d, bad);
  std::ofstream(bad / "manifest.json", std::ios::trunc) << m.dump();
  EXPECT_EQ(run("check-configs '" + bad.string() + "'").err,
            "neffbar: " + bad.string() + ": out of range: manifest.json: $.format: expected neffbar-compose/1, got \"x\"\n");
  const std::string at = (bad / "manifest.json").string();
  EXPECT_EQ(run("check-configs '" + at + "'").err, "neffbar: " + at + ": out of range: $.format: expected neffbar-compose/1, got \"x\"\n");
  // Sizes, read before the composition: an image one byte long or short, a context over 1 MiB.
  const fs::path sized = dir_ / "sized";
  const std::string image = (sized / "chip00_leader0.bin").string(), context = (sized / "chip01_context.bin").string();
  for (const auto& [path, bytes, got] : {std::tuple{image, std::size_t{0x129}, std::string("more")},
                                         std::tuple{image, std::size_t{0x127}, std::string("295 bytes")},
                                         std::tuple{context, std::size_t{(1u << 20) + 1}, std::string("more")}}) {
    fs::remove_all(sized);
    fs::copy(d, sized);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << std::string(bytes, '\0');
    const bool is_image = path == image;
    EXPECT_EQ(run("check-configs '" + sized.string() + "'").err,
              "neffbar: " + sized.string() + ": wrong length: " + path + ": expected " +
                  (is_image ? "a config image of 296 bytes (0x128)" : "a driver context of at most 1 MiB") + ", got " + got + "\n");
  }
}

// Each option the manifest holds is kept unless the command line gives it, and one given
// replaces that option alone.
TEST_F(ModelCmds, EachManifestOptionIsKeptUnlessGiven) {
  const fs::path d = dir_ / "m";
  ASSERT_EQ(run("compose --chips 2 --leaders 2 --fabric switch --rounds 2 --lowering arrive_wait --compare gt --dec target "
                "--guarantee declared -o '" + d.string() + "'").exit_code, 0);
  const std::string kept = "scenario: 2x2 switch no-host-cc rounds=2 gt dec=target per_peer arrive_wait roles=code host-addrs=ctx (" +
                           d.string() + ")\n";
  for (const auto& [option, from, to] : {std::tuple{"", "", ""}, std::tuple{"--fabric default", "switch", "default"},
                                         std::tuple{"--rounds 1", "rounds=2", "rounds=1"},
                                         std::tuple{"--lowering table", "arrive_wait", "table"},
                                         std::tuple{"--compare ge", " gt ", " ge "}, std::tuple{"--dec one", "dec=target", "dec=one"}}) {
    std::string want = kept;
    if (*from != '\0') want.replace(want.find(from), std::string(from).size(), to);
    const Outcome o = run("check-configs " + std::string(option) + " '" + d.string() + "'");
    EXPECT_EQ(o.out.substr(0, o.out.find('\n') + 1), want) << option;
  }
}

// Where the explicit search's symmetry came from, in text and JSON: the lowering's hints
// for a topology, nauty for copies of one config given as files (with the order nauty
// found; a group past 2^64 is said so).
TEST_F(ModelCmds, TheSymmetrySaysWhereItCameFrom) {
  const Outcome hinted = run("check --chips 2 --leaders 2 --engine explicit");
  EXPECT_NE(hinted.out.find("reductions: por+symmetry (group of 4, from the lowering's hints)"), std::string::npos) << hinted.out;
  const nlohmann::json hj = nlohmann::json::parse(run("check --chips 2 --leaders 2 --engine explicit --json").out);
  EXPECT_EQ(hj["symmetry_source"], "hints");
  EXPECT_FALSE(hj.contains("automorphism_order")) << "nauty was not asked";
  const nlohmann::json unreduced = nlohmann::json::parse(run("check --chips 2 --leaders 2 --engine explicit --no-reduce --json").out);
  EXPECT_EQ(unreduced["symmetry"], false) << "the symmetry works on atomic blocks: none without the reduction";
  EXPECT_EQ(unreduced["symmetry_group"], 1) << "no symmetry: the trivial group";
  // Two configs waiting on one semaphore (not persistent), as copies.
  std::string shared(0x128, '\0');
  const auto put = [&](std::size_t at, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) shared[at + static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
  };
  put(0x004, 0x01001020, 8);
  put(0x0A0, 0x01001020, 8);
  put(0x0C0, 1, 4);
  const std::string one = "'" + file("shared.bin", shared).string() + "' ";
  std::string four, twenty_one;
  for (int i = 0; i < 4; ++i) four += one;
  for (int i = 0; i < 21; ++i) twenty_one += one;
  const Outcome found = run("check-configs --engine explicit " + four);
  EXPECT_NE(found.out.find("reductions: por+symmetry (group of 24, found by nauty "), std::string::npos) << found.out;
  const nlohmann::json fj = nlohmann::json::parse(run("check-configs --engine explicit --json " + four).out);
  EXPECT_EQ(fj["symmetry_group"], 24);
  EXPECT_EQ(fj["automorphism_order"], 24.0);
  EXPECT_EQ(fj["symmetry_source"].get<std::string>().rfind("nauty ", 0), 0u) << fj.dump();
  const Outcome past = run("check-configs --engine explicit --max-states 1000 " + twenty_one);  // 21! > 2^64
  EXPECT_NE(past.out.find("(group of 2^64 or more, found by nauty "), std::string::npos) << past.out;
  // Two configs that differ in one wait value: nauty was asked and found the trivial group.
  put(0x0C0, 2, 4);
  const nlohmann::json tj = nlohmann::json::parse(run("check-configs --engine explicit --json " + one + "'" + file("other.bin", shared).string() + "'").out);
  EXPECT_EQ(tj["symmetry"], false);
  EXPECT_EQ(tj["symmetry_group"], 1);
  EXPECT_EQ(tj["automorphism_order"], 1.0) << "asked, and the order is said even when it is 1";
}

// A config whose gate (execute_device_barrier, 0x124 bit 0) is clear would not run its
// steps on the device: check-configs names it, given as a file or in compose's directory.
TEST_F(ModelCmds, AConfigWhoseGateIsClearIsNamed) {
  const fs::path d = dir_ / "gate";
  ASSERT_EQ(run("compose --chips 2 --leaders 1 -o '" + d.string() + "'").exit_code, 0);
  EXPECT_EQ(run("check-configs '" + d.string() + "'").out.find("gate:"), std::string::npos) << "compose sets every gate";
  const fs::path image = d / "chip01_leader0.bin";
  std::string bytes = slurp(image);
  ASSERT_EQ(bytes.size(), 0x128u);
  bytes[0x124] = static_cast<char>(bytes[0x124] & ~1);
  std::ofstream(image, std::ios::binary | std::ios::trunc) << bytes;
  const Outcome named = run("check-configs '" + d.string() + "'");
  EXPECT_NE(named.out.find("\ngate:     clear in " + image.string() +
                           ": execute_device_barrier (0x124 bit 0) is 0, so the device would not run its 4 steps (INFERRED); "
                           "decided as if it were set\n"),
            std::string::npos)
      << named.out;
  const nlohmann::json j = nlohmann::json::parse(run("check-configs --json '" + d.string() + "'").out);
  EXPECT_EQ(j["gate_clear"], nlohmann::json::array({image.string()}));
  const std::string set = (d / "chip00_leader0.bin").string();
  const Outcome files = run("check-configs '" + set + "' '" + image.string() + "' '" + image.string() + "'");
  EXPECT_NE(files.out.find("gate:     clear in " + image.string() + " " + image.string() + ": "), std::string::npos) << files.out;
  EXPECT_NE(files.out.find("would not run their 4 steps"), std::string::npos) << files.out;
  const Outcome first = run("check-configs '" + image.string() + "' '" + set + "'");
  EXPECT_NE(first.out.find("gate:     clear in " + image.string() + ": "), std::string::npos) << "the first file too: " << first.out;
  EXPECT_FALSE(nlohmann::json::parse(run("check-configs --json '" + set + "'").out).contains("gate_clear"));
}

// compose's one line, in the singular where there is one, and no logs unasked.
TEST_F(ModelCmds, ComposeSaysWhatItWrote) {
  const fs::path one = dir_ / "one";
  const Outcome o = run("compose -o '" + one.string() + "'");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out, "wrote " + one.string() + ": 1 leader image, 1 driver context, manifest.json\n");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(one)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"chip00_context.bin", "chip00_leader0.bin", "manifest.json"}));
  const Outcome two = run("compose --chips 2 --leaders 1 -o '" + (dir_ / "two").string() + "'");
  EXPECT_EQ(two.out, "wrote " + (dir_ / "two").string() + ": 2 leader images, 2 driver contexts, manifest.json\n");
}

TEST_F(ModelCmds, NumbersThatDoNotFitTheirOptionAreUsage) {
  for (const char* bad :
       {"--random 3 --seed -1", "--random 3 --seed 18446744073709551616", "--random -1", "--random 0",
        "--random 1.5", "--max-seconds nan", "--max-seconds -1", "--max-seconds 0", "--max-seconds inf",
        "--max-seconds 1e3", "--max-states 0", "--max-states -5", "--chips abc", "--chips 65", "--chips 0x10",
        "--chips ' 2'", "--rounds 1001", "--leaders 4294967297", "--engine bogus", "--seed 1"}) {
    const Outcome r = run(std::string("check ") + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_TRUE(one_error_line(r.err)) << bad << ": " << r.err;
    const std::string option = std::string(bad).substr(std::string(bad).rfind("--"));
    EXPECT_NE(r.err.find(option.substr(0, option.find(' '))), std::string::npos) << bad << ": " << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  // The smallest and the largest values that fit are taken.
  EXPECT_EQ(run("check --chips 1 --random 1 --seed 0").exit_code, 0);
  EXPECT_EQ(run("check --chips 1 --random 1 --seed 18446744073709551615").exit_code, 0);
  const Outcome one_state = run("check --chips 1 --engine explicit --max-states 1");
  EXPECT_NE(one_state.exit_code, 2) << one_state.err;
  EXPECT_NE(one_state.out.find("BUDGET"), std::string::npos) << one_state.out;
  EXPECT_EQ(run("check --chips 1 --max-seconds 0.5").exit_code, 0);
}

// `engines` lists every engine and engine option from the registry, and what it says
// each option's readers are is what check does: an option is taken by the engines it
// names and refused (exit 2, naming the option) by the others.
TEST_F(ModelCmds, EnginesListsTheRegistryAndCheckFollowsIt) {
  const Outcome md = run("engines");
  EXPECT_EQ(md.exit_code, 0) << md.err;
  for (const char* name : {"| explicit |", "| persistent |", "| random |", "`--seed`", "`--max-states`", "`--max-seconds`",
                           "`--max-memory`", "`--no-reduce`", "`--no-symmetry`", "`--no-por`", "K\\|M\\|G\\|T"}) {
    EXPECT_NE(md.out.find(name), std::string::npos) << name << " in\n" << md.out;
  }
  const Outcome js = run("engines --json");
  ASSERT_EQ(js.exit_code, 0) << js.err;
  EXPECT_NE(js.out.find("\n  \"options\": ["), std::string::npos) << "indented by two, as every --json";
  const auto j = nlohmann::json::parse(js.out);
  // The table's proves and answers columns say what --json's proves and qualified_only say.
  for (const auto& e : j["engines"]) {
    const std::string name = e["name"];
    const std::size_t at = md.out.find("\n| " + name + " | ");
    ASSERT_NE(at, std::string::npos) << name;
    const std::string row = md.out.substr(at + 1, md.out.find('\n', at + 1) - at - 1);
    EXPECT_EQ(row.find(" | yes, when no budget cut it | ") != std::string::npos, e["proves"].get<bool>()) << row;
    EXPECT_EQ(row.find(" | no: its OK is NOT_REFUTED | ") != std::string::npos, !e["proves"].get<bool>()) << row;
    EXPECT_EQ(row.find(" | the systems that qualify; the others are refused, naming why | ") != std::string::npos,
              e["qualified_only"].get<bool>()) << row;
    EXPECT_EQ(row.find(" | every system | ") != std::string::npos, !e["qualified_only"].get<bool>()) << row;
  }
  ASSERT_EQ(j["engines"].size(), 3u);
  EXPECT_EQ(j["engines"][2]["name"], "random");
  EXPECT_FALSE(j["engines"][2]["proves"]);
  EXPECT_TRUE(j["engines"][1]["qualified_only"]);
  EXPECT_EQ(j["engines"][1]["counts"], "instructions, greedy runs");
  ASSERT_EQ(j["options"].size(), 7u);
  const std::map<std::string, std::string> value = {{"--seed", "3"}, {"--max-states", "1000"}, {"--max-seconds", "60"},
                                                    {"--max-memory", "1G"}, {"--no-reduce", ""}, {"--no-symmetry", ""},
                                                    {"--no-por", ""}};
  for (const auto& o : j["options"]) {
    const std::string flag = o["flag"];
    const auto readers = o["read_by"].get<std::vector<std::string>>();
    for (const std::string engine : {"explicit", "persistent", "random"}) {
      const bool reads = readers == std::vector<std::string>{"every engine"} ||
                         std::find(readers.begin(), readers.end(), engine) != readers.end();
      const Outcome r = run("check --chips 2 --engine " + engine + " " + flag + " " + value.at(flag));
      if (reads) {
        EXPECT_EQ(r.exit_code, 0) << flag << " with " << engine << ": " << r.err;
      } else {
        EXPECT_EQ(r.exit_code, 2) << flag << " with " << engine;
        EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
      }
    }
  }
}

// check's and check-configs' --help give each engine option (flag or value) the help
// `engines` gives it, after its flag, value name and default.
TEST_F(ModelCmds, HelpGivesEachEngineOptionItsHelp) {
  const auto j = nlohmann::json::parse(run("engines --json").out);
  ASSERT_EQ(j["options"].size(), 7u);
  for (const std::string command : {"check", "check-configs"}) {
    const Outcome help = run(command + " --help");
    ASSERT_EQ(help.exit_code, 0) << help.err;
    for (const auto& o : j["options"]) {
      const std::string flag = o["flag"], value = o["value"], deflt = o["default"], text = o["help"];
      const std::string head = "\n  " + flag + (value.empty() ? "" : " " + value + "=" + deflt) + " ";
      const std::size_t at = help.out.find(head);
      ASSERT_NE(at, std::string::npos) << command << ": " << head << " in\n" << help.out;
      const std::string line = help.out.substr(at + head.size(), help.out.find('\n', at + 1) - at - head.size());
      EXPECT_EQ(line.substr(line.find_first_not_of(' ')), text) << command << " " << flag;
    }
  }
}

}  // namespace
