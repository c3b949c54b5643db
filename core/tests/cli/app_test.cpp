// End-to-end through the real binary (cli_fixture.h): the conventions every command
// shares (app.cpp): usage and --help, exit codes, where output and errors go.
#include <algorithm>
#include <array>
#include <chrono>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_fixture.h"

namespace {

using namespace neffbar_e2e;

class App : public Cli {};

TEST_F(App, UsageAndHelp) {
  EXPECT_EQ(run("").exit_code, 2);
  EXPECT_EQ(run("frobnicate").exit_code, 2);
  EXPECT_EQ(run("search 1 1").exit_code, 2);  // --fabric is required
  EXPECT_EQ(run("decode --bogus").exit_code, 2);
  for (const char* cmd : {"", "decode ", "encode ", "table ", "search ", "lint ", "diff ", "check ", "check-configs ",
                          "compose ", "promela ", "hypotheses "}) {
    const Outcome h = run(std::string(cmd) + "--help");
    EXPECT_EQ(h.exit_code, 0) << cmd;
    EXPECT_NE(h.out.find("Usage"), std::string::npos) << cmd;
  }
  // An option first is an option, not a command to look up: -h is the top level's help.
  const Outcome h = run("-h");
  EXPECT_EQ(h.exit_code, 0) << h.err;
  EXPECT_NE(h.out.find("Usage"), std::string::npos) << h.out;
  // The engines' defaults, read from their options and shown as the parser reads them back.
  const Outcome check = run("check --help");
  for (const char* shown : {"--seed N=1 ", "--max-states N=30000000 ", "--max-seconds SECONDS=300 "}) {
    EXPECT_NE(check.out.find(shown), std::string::npos) << shown << "\n" << check.out;
  }
  EXPECT_EQ(run("check --engine explicit --max-states 30000000 --max-seconds 300").exit_code, 0);
  EXPECT_EQ(run("check --random 2 --seed 1 --max-seconds 300").exit_code, 0);
}

TEST_F(App, Conventions) {
  const Outcome v = run("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out, "neffbar 0.1.0\n");
  const Outcome unknown = run("frobnicate");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(unknown.out.empty());
  EXPECT_NE(unknown.err.find("unknown command 'frobnicate'"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("decode, encode, table, search, lint, diff, check, check-configs, compose, promela, hypotheses"),
            std::string::npos) << unknown.err;
  // promela decides nothing: it does not offer the engine's options.
  for (const char* ignored : {"--random 5", "--json", "--no-reduce", "--engine explicit", "--max-states 3"}) {
    const Outcome r = run(std::string("promela ") + ignored);
    EXPECT_EQ(r.exit_code, 2) << ignored;
    EXPECT_TRUE(r.out.empty()) << ignored;
    EXPECT_NE(r.err.find(std::string(ignored).substr(0, std::string(ignored).find(' '))), std::string::npos) << r.err;
  }
  EXPECT_EQ(run("promela --chips 1 --rounds 2 --guarantee declared").exit_code, 0);
  // check refuses what the chosen engine would ignore.
  for (const char* ignored : {"--engine persistent --no-reduce", "--random 3 --max-states 9", "--seed 4",
                              "--engine explicit --seed 4"}) {
    const Outcome r = run(std::string("check --chips 2 ") + ignored);
    EXPECT_EQ(r.exit_code, 2) << ignored;
    EXPECT_TRUE(r.out.empty()) << ignored;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << ignored << ": one line: " << r.err;
  }
  EXPECT_EQ(run("check --chips 2 --no-reduce --max-states 100000").exit_code, 0);  // auto: they tune the fallback
  EXPECT_EQ(run("check --chips 2 --random 3 --seed 4").exit_code, 0);
}

}  // namespace
