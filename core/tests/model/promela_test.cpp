// The Promela export (core/neffbar/model/exports/promela.h): what a model asserts, the
// rounds as one loop over the body, and the state vector bound pan is compiled with.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <tuple>

#include "hand_made.h"

#include "neffbar/model/exports/promela.h"
#include "testing/program_ops.h"

namespace neffbar::model {
namespace {

// The Promela export's defaults (promela.h): guarantees, reuse and overflow asserted,
// the global property only when asked; one flag per process and round.
TEST(Promela, TheDefaultExportAssertsGuaranteesReuseAndOverflow) {
  using namespace hand_made;
  System s = make(1, {{arrive(), inc(0), depart()}, {arrive(), wait(0), depart()}}, {{}, {0}}, 2);
  const std::string declared = to_promela(s, false);
  EXPECT_NE(declared.find("assert(arr[0])"), std::string::npos) << declared;             // p1's guarantee: p0, round 0
  EXPECT_NE(declared.find("&& sem[0] == 0)"), std::string::npos) << declared;            // reuse
  EXPECT_NE(declared.find("assert(false); goto L1"), std::string::npos) << declared;     // overflow of p0's inc
  EXPECT_NE(declared.find("bit arr[4]"), std::string::npos) << declared;                 // 2 processes x 2 rounds
  EXPECT_EQ(declared.find("arr[1]"), std::string::npos) << declared;                     // p1's flag is never needed...
  const std::string global = to_promela(s, true);
  EXPECT_NE(global.find("arr[2]"), std::string::npos) << global;                         // ... but for the global property
  const std::string none = to_promela(s, PromelaChecks{.guarantees = false, .global = false, .reuse = false, .overflow = false});
  EXPECT_EQ(none.find("assert(arr"), std::string::npos) << none;
  EXPECT_EQ(none.find("assert(false)"), std::string::npos) << none;
  // The first line says what the model asserts, so a model file read alone says what
  // SPIN's "no errors" covers.
  const auto first_line = [](const std::string& m) { return m.substr(0, m.find('\n')); };
  EXPECT_EQ(first_line(declared), "/* neffbar: 2 processes, 1 semaphores, 2 rounds, compare >=; asserts: guarantees reuse overflow */");
  EXPECT_EQ(first_line(global), "/* neffbar: 2 processes, 1 semaphores, 2 rounds, compare >=; asserts: guarantees global reuse overflow */");
  EXPECT_EQ(first_line(none), "/* neffbar: 2 processes, 1 semaphores, 2 rounds, compare >=; asserts: */");
  s.compare = Compare::Gt;
  EXPECT_EQ(first_line(to_promela(s, PromelaChecks{.guarantees = false, .global = false, .reuse = false, .overflow = true})),
            "/* neffbar: 2 processes, 1 semaphores, 2 rounds, compare >; asserts: overflow */");
}

// Round bodies run as one Promela loop: the body written once whatever the count, each
// flag index moved on by the loop's run; a program that is no body run R times (or
// whose processes disagree on R) is written out as before.
TEST(Promela, ARepeatedBodyIsOneLoopOverIt) {
  using namespace hand_made;
  const auto repeated = [](std::uint32_t runs, std::uint16_t body_rounds) {
    System s = make(1, {{arrive(), inc(0), depart()}, {arrive(), wait(0), depart()}}, {{}, {0}}, runs * body_rounds);
    for (Process& p : s.procs) p.program = Program::repeated(p.program.body(), runs, body_rounds);
    return s;
  };
  const auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  const std::string two = to_promela(repeated(2, 1), false), many = to_promela(repeated(1000, 1), false);
  EXPECT_EQ(count(two, "L1: if"), 2u) << two;  // each process's pc 1, once
  EXPECT_EQ(promela_loop_runs(repeated(2, 1)), 2u);  // two runs are a loop already
  EXPECT_NE(two.find(":: rnd < 2 ->"), std::string::npos) << two;
  EXPECT_EQ(count(two, "L4: if"), 0u) << two;
  EXPECT_EQ(count(many, "L1: if"), 2u) << many;
  EXPECT_EQ(count(many, "L4: if"), 0u) << many;
  EXPECT_NE(many.find("short rnd = 0;\n  do\n  :: rnd < 1000 ->"), std::string::npos) << many;
  EXPECT_NE(many.find("arr[0 + rnd] = 1"), std::string::npos) << many;
  EXPECT_NE(many.find("assert(arr[0 + rnd])"), std::string::npos) << many;  // p1's guarantee, this run's round
  EXPECT_NE(many.find("bit arr[2000]"), std::string::npos) << many;
  // One process alone is a loop too (its body and count are the ones every process shares).
  System alone = make(1, {{arrive(), inc(0), wait(0), depart()}}, {{}}, 6);
  alone.procs[0].program = Program::repeated(alone.procs[0].program.body(), 3, 2);
  EXPECT_EQ(promela_loop_runs(alone), 3u);
  const std::string one = to_promela(alone, false);
  EXPECT_NE(one.find(":: rnd < 3 ->"), std::string::npos) << one;
  EXPECT_NE(one.find("arr[0 + rnd * 2] = 1"), std::string::npos) << one;  // each run two rounds on
  const std::string spaced = to_promela(repeated(3, 2), false);  // each run two rounds on
  EXPECT_NE(spaced.find("arr[0 + rnd * 2] = 1"), std::string::npos) << spaced;
  // Written out: the same program held as one run, or processes with different counts.
  System once = repeated(2, 1);
  for (Process& p : once.procs) p.program = Program(written_out(p.program));
  const std::string out = to_promela(once, false);
  EXPECT_EQ(out.find("rnd"), std::string::npos) << out;
  EXPECT_EQ(count(out, "L1: if"), 2u) << out;
  EXPECT_EQ(count(out, "L4: if"), 2u) << out;  // the second round's pc 1
  EXPECT_NE(out.find("arr[1] = 1"), std::string::npos) << out;  // p0's flag of round 1
  System mixed = repeated(2, 1);
  mixed.procs[1].program = Program(written_out(mixed.procs[1].program));
  EXPECT_EQ(to_promela(mixed, false).find("rnd"), std::string::npos);
  // The same count of runs, but one process's run spans two rounds: no common loop.
  System spans = repeated(2, 2);
  spans.procs[1].program = Program::repeated(spans.procs[1].program.body(), 2, 1);
  EXPECT_EQ(promela_loop_runs(spans), 1u);
  EXPECT_EQ(to_promela(spans, false).find("rnd"), std::string::npos);
  EXPECT_EQ(promela_loop_runs(System{}), 1u) << "no process: nothing to loop";
  // A guarantee naming no process is no guarantee, as in every engine.
  System stray = repeated(1, 1), none = repeated(1, 1);
  stray.procs[1].guarantee = {0, 2, 7};
  EXPECT_EQ(to_promela(stray, false), to_promela(none, false));
}

// The header's state-vector bound, where the default 1024 bytes would not do: at least
// what the model's globals take (an int a semaphore, a byte an arrival flag, 4 bytes a
// process and its counter), at most a generous 32 bytes a process more, and VECTORSZ
// its next multiple of 1024.  (What pan really needs is checked by SPIN itself at 253
// processes: 3,060 bytes against a bound of 6,429; Spin.RunsTheLargestModelNeffbarExports...)
TEST(Promela, TheStateVectorBoundHoldsTheModelsGlobals) {
  using namespace hand_made;
  const auto bound = [](const System& s) {
    const std::string model = to_promela(s, false);
    std::smatch m;
    EXPECT_TRUE(std::regex_search(model, m, std::regex("state vector up to ([0-9]+) bytes: compile pan with -DVECTORSZ=([0-9]+)")))
        << model.substr(0, 300);
    if (m.empty()) return std::pair<std::uint64_t, std::uint64_t>{};
    return std::pair<std::uint64_t, std::uint64_t>{std::stoull(m[1]), std::stoull(m[2])};
  };
  for (const auto& [procs, semas, rounds] : {std::tuple{2u, 1u, 1000u}, std::tuple{250u, 300u, 4u}, std::tuple{60u, 1u, 1u}}) {
    std::vector<std::vector<Instr>> progs(procs);
    for (std::uint32_t p = 0; p < procs; ++p) progs[p] = {arrive(), inc(p % semas), depart()};
    System s = make(semas, progs, {}, rounds);
    for (Process& p : s.procs) p.program = Program::repeated(p.program.body(), rounds, 1);
    const std::uint64_t globals = 4ull * semas + std::uint64_t{procs} * rounds, P = procs + 2;
    const auto [n, vectorsz] = bound(s);
    EXPECT_GE(n, globals + 4 * P) << procs << "x" << semas << "x" << rounds;
    EXPECT_LE(n, globals + 32 * P + 128) << procs << "x" << semas << "x" << rounds;
    EXPECT_EQ(vectorsz, (n + 1023) / 1024 * 1024);
  }
  EXPECT_EQ(to_promela(make(1, {{arrive(), depart()}}), false).find("VECTORSZ"), std::string::npos) << "1024 holds it";
}

}  // namespace
}  // namespace neffbar::model
