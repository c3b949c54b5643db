// Cross-check with SPIN (ctest label spin): the same systems exported as Promela must
// get the same verdicts from pan as from neffbar's checker.  pan exits 0 even when it
// finds errors, so its output is parsed: the safety job (pan -E: assertions only) and
// the deadlock job (pan -A: invalid end states only) run separately.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <iostream>
#include <map>
#include <optional>
#include <random>

#include "neffbar/model/frontend/faults.h"
#include "neffbar/model/exports/promela.h"
#include "hand_made.h"
#include "neffbar/model/scenarios/scenario.h"
#include "testing/arbitrary_system.h"
#include "testing/reference_checker.h"

namespace neffbar::model {
namespace {

namespace fs = std::filesystem;

struct PanResult {
  bool ok = false;  // spin, cc and pan ran
  long errors = 0;
  long states = 0;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

PanResult parse_pan(const std::optional<std::string>& text) {
  PanResult r;
  if (!text) return r;
  std::smatch m;
  if (std::regex_search(*text, m, std::regex("errors: ([0-9]+)"))) r.errors = std::stol(m[1]);
  if (std::regex_search(*text, m, std::regex("([0-9]+) states, stored"))) r.states = std::stol(m[1]);
  r.ok = text->find("errors:") != std::string::npos;
  return r;
}

// One Promela model through SPIN in `dir`: spin -a and cc (with `cc` added) once, on the
// first run; then pan with a flag, its output.  With NEFFBAR_SPIN_CACHE=DIR
// (scripts/mutate sets it) pan's output is kept under a hash of the model's text, the cc
// flags and the pan flag: SPIN answers the same text the same way, and a mutant of an
// engine leaves most exported models as they were, so only a changed model is built.
class Pan {
 public:
  Pan(fs::path dir, std::string model, std::string cc = "") : dir_(std::move(dir)), model_(std::move(model)), cc_(std::move(cc)) {}

  // pan's output; nullopt (and a test failure naming spin's and cc's output) when the
  // model does not build.
  std::optional<std::string> run(const std::string& flag) {
    const char* cache = std::getenv("NEFFBAR_SPIN_CACHE");
    const fs::path kept = cache ? fs::path(cache) / key(flag) : fs::path();
    if (cache && fs::exists(kept)) return slurp(kept);
    if (!built_) {
      fs::create_directories(dir_);
      std::ofstream(dir_ / "model.pml") << model_;
      const std::string build = "cd '" + dir_.string() + "' && spin -a model.pml > spin.txt 2>&1 && cc -O0 -DSAFETY " + cc_ +
                                " -o pan pan.c > cc.txt 2>&1";
      if (std::system(build.c_str()) != 0) {
        ADD_FAILURE() << "spin -a or cc failed: " << slurp(dir_ / "spin.txt") << slurp(dir_ / "cc.txt");
        return std::nullopt;
      }
      built_ = true;
    }
    const std::string out = (dir_ / ("pan" + flag + ".txt")).string();
    if (std::system(("cd '" + dir_.string() + "' && ./pan -m1000000 " + flag + " > '" + out + "' 2>&1").c_str()) != 0) return std::nullopt;
    std::string text = slurp(out);
    if (cache) {
      fs::create_directories(cache);
      const fs::path tmp = kept.string() + "." + std::to_string(::getpid());
      std::ofstream(tmp) << text;
      fs::rename(tmp, kept);  // whole or absent for a test running beside this one
    }
    return text;
  }

 private:
  std::string key(const std::string& flag) const {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a 64
    for (const std::string* part : {&model_, &cc_, &flag}) {
      for (const char c : *part + '\0') h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    char name[17];
    std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(h));
    return name;
  }

  fs::path dir_;
  std::string model_, cc_;
  bool built_ = false;
};

struct Case {
  std::string name;
  System sys;
  bool global;  // export and compare the global property too
};

// What SPIN finds: one model per kind of assertion (so the kinds are told apart), each
// run with pan -E (assertions only); DEADLOCK from pan -A (invalid end states only).
std::uint32_t spin_found(const Case& c, const fs::path& dir) {
  std::uint32_t found = 0;
  struct Kind {
    Verdict verdict;
    PromelaChecks checks;
  };
  std::vector<Kind> kinds = {{Verdict::Unsafe, {.guarantees = true, .global = false, .reuse = false, .overflow = false}},
                             {Verdict::NotReusable, {.guarantees = false, .global = false, .reuse = true, .overflow = false}},
                             {Verdict::Overflow, {.guarantees = false, .global = false, .reuse = false, .overflow = true}}};
  if (c.global) kinds.push_back({Verdict::GlobalUnsafe, {.guarantees = false, .global = true, .reuse = false, .overflow = false}});
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    Pan pan(dir / std::to_string(k), to_promela(c.sys, kinds[k].checks));
    const PanResult safety = parse_pan(pan.run("-E"));
    EXPECT_TRUE(safety.ok) << c.name << " " << verdict_name(kinds[k].verdict);
    if (safety.errors > 0) found |= bit(kinds[k].verdict);
    if (k == 0) {
      const PanResult deadlock = parse_pan(pan.run("-A"));
      EXPECT_TRUE(deadlock.ok) << c.name << " (deadlock job)";
      if (deadlock.errors > 0) found |= bit(Verdict::Deadlock);
    }
  }
  return found;
}

std::string kinds(std::uint32_t mask) {
  std::string s;
  for (Verdict v : {Verdict::Unsafe, Verdict::Deadlock, Verdict::NotReusable, Verdict::GlobalUnsafe, Verdict::Overflow}) {
    if (mask & bit(v)) s += std::string(s.empty() ? "" : ",") + std::string(verdict_name(v));
  }
  return s.empty() ? "none" : s;
}

// SPIN's kinds against the explicit search (every reduction on, collect_all); the
// kinds it found, for the caller's tally.
std::uint32_t cross_check(const Case& c) {
  const fs::path dir = fs::temp_directory_path() / ("neffbar_spin_" + std::to_string(::getpid()) + "_" + c.name);
  fs::create_directories(dir);
  const std::uint32_t spin = spin_found(c, dir);
  CheckOptions o;
  o.collect_all = true;
  o.guarantee = c.global ? GuaranteeMode::Global : GuaranteeMode::Declared;
  const CheckResult r = check_explicit(c.sys, o);
  std::uint32_t compared = bit(Verdict::Unsafe) | bit(Verdict::NotReusable) | bit(Verdict::Overflow) | bit(Verdict::Deadlock);
  if (c.global) compared |= bit(Verdict::GlobalUnsafe);
  EXPECT_EQ(kinds(spin), kinds(r.found_mask & compared)) << c.name << " (SPIN vs the explicit search)";
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
  return spin;
}

System composed(Topology t, Hypotheses h = {}, Fault f = Fault::None, std::uint32_t leader = 0) {
  Composition c = *compose(t);
  if (f != Fault::None) EXPECT_TRUE(inject(c, f, leader));
  return *lower(c, h);
}

TEST(Spin, AgreesOnReferenceAndFaultySystems) {
  if (std::system("command -v spin > /dev/null && command -v cc > /dev/null") != 0) GTEST_SKIP() << "spin or cc missing";
  Hypotheses gt, narrative, no_proxy;
  gt.compare = Compare::Gt;
  narrative.roles = Roles::Narrative;
  no_proxy.proxy = false;
  const std::vector<Case> cases = {
      {"ref_1x4", composed({1, 4, Fabric::Default, true, 1}), true},
      {"ref_2x2_switch", composed({2, 2, Fabric::Switch, true, 1, Wiring::PerPeer, Lowering::Hierarchical}), true},
      {"ref_2x1_proxy", composed({2, 1, Fabric::Default, false, 2}), true},
      {"table_global_2x2", composed({2, 2, Fabric::Default, true, 1}), true},
      {"table_declared_2x2", composed({2, 2, Fabric::Default, true, 1}), false},
      {"raise_threshold", composed({1, 2, Fabric::Default, true, 1}, {}, Fault::RaiseThreshold), true},
      {"zero_lane", composed({1, 3, Fabric::Default, true, 1}, {}, Fault::ZeroLane, 1), true},
      {"double_signal", composed({1, 2, Fabric::Default, true, 2}, {}, Fault::DoubleSignal), true},
      {"no_proxy", composed({1, 2, Fabric::Default, false, 1}, no_proxy), true},
      {"gt_compare", composed({1, 2, Fabric::Default, true, 1}, gt), true},
      {"counting_dec1_rounds2", composed({1, 2, Fabric::Default, true, 2, Wiring::Counting}), true},
      // Round bodies export as one loop: findings of a later run of it, too.
      {"double_signal_rounds3", composed({1, 2, Fabric::Default, true, 3}, {}, Fault::DoubleSignal), true},
      {"gt_compare_rounds3", composed({1, 2, Fabric::Default, true, 3}, gt), true},
      {"narrative_roles", composed({1, 2, Fabric::Default, true, 1}, narrative), true},
  };
  for (const Case& c : cases) cross_check(c);
}

// The edges one at a time, each with the kind SPIN must find: arrival is the last
// ARRIVE of the round; an increment at the int32 limit overflows and does not step;
// equality waits; a DEPART of a round nobody arrives in.
TEST(Spin, AgreesOnHandMadeEdges) {
  if (std::system("command -v spin > /dev/null && command -v cc > /dev/null") != 0) GTEST_SKIP() << "spin or cc missing";
  using namespace hand_made;
  System at_limit = make(1, {{inc_val(0, 2), arrive(), depart()}});
  at_limit.semas[0].initial = std::numeric_limits<std::int32_t>::max() - 1;
  System at_min = make(1, {{wait(0, std::numeric_limits<std::int32_t>::min(), 2), arrive(), depart()}});
  at_min.semas[0].initial = std::numeric_limits<std::int32_t>::min() + 1;
  const std::vector<std::pair<Case, std::string>> cases = {
      {{"last_arrive", make(1, {{arrive(), inc(0), arrive(), depart()}, {wait(0), arrive(), depart()}}, {{}, {0}}), true},
       "UNSAFE,GLOBAL_UNSAFE"},
      {{"inc_val_at_int32_max", at_limit, true}, "OVERFLOW"},
      {{"dec_below_int32_min", at_min, true}, "OVERFLOW"},
      {{"equality_waits", make(1, {{op(Prim::WaitEqAndInc, 0, 0), op(Prim::WaitEqAndInc, 0, 2), arrive(), depart()},
                                   {op(Prim::WaitEqAndClear, 0, 1), arrive(), depart()}}), true},
       "DEADLOCK,GLOBAL_UNSAFE"},
      {{"depart_of_a_round_nobody_arrives_in", make(0, {{arrive(), depart(1)}, {arrive(), depart()}}), true},
       "GLOBAL_UNSAFE"},
  };
  for (const auto& [c, expected] : cases) EXPECT_EQ(kinds(cross_check(c)), expected) << c.name;
}

// Arbitrary small systems (equality waits, several consumers, values next to the
// int32 limits, stray rounds; core/testing/arbitrary_system.h), drawn with a fixed
// seed: 12 of them, and more until SPIN found every verdict kind at least twice.
TEST(Spin, AgreesOnArbitrarySystems) {
  if (std::system("command -v spin > /dev/null && command -v cc > /dev/null") != 0) GTEST_SKIP() << "spin or cc missing";
  std::mt19937 rng(20261130);
  const auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
  const ArbitraryShape shape{.max_procs = 3, .max_semas = 3, .max_rounds = 2, .max_block = 4, .persistent_only = false};
  std::map<Verdict, int> tally;
  int systems = 0;
  for (int i = 0; i < 400 && systems < 24; ++i) {
    const System sys = arbitrary_system(pick, shape);
    const testing::ReferenceResult ref = testing::reference_check(sys, 20'000);
    if (!ref.complete) continue;
    // Every kind at least twice, then whatever comes, up to 16 systems.
    bool wanted = systems < 12;
    for (Verdict v : {Verdict::Unsafe, Verdict::Deadlock, Verdict::NotReusable, Verdict::GlobalUnsafe, Verdict::Overflow}) {
      wanted = wanted || ((ref.found_mask & bit(v)) && tally[v] < 2);
    }
    if (!wanted) continue;
    ++systems;
    const std::uint32_t spin = cross_check({"arbitrary_" + std::to_string(i), sys, true});
    EXPECT_EQ(kinds(spin), kinds(ref.found_mask)) << "arbitrary_" << i << " (SPIN vs the reference checker)";
    for (Verdict v : {Verdict::Unsafe, Verdict::Deadlock, Verdict::NotReusable, Verdict::GlobalUnsafe, Verdict::Overflow}) {
      if (spin & bit(v)) ++tally[v];
    }
  }
  std::cout << systems << " arbitrary systems cross-checked; SPIN found";
  for (const auto& [v, n] : tally) std::cout << " " << verdict_name(v) << " x" << n;
  std::cout << "\n";
  for (Verdict v : {Verdict::Unsafe, Verdict::Deadlock, Verdict::NotReusable, Verdict::GlobalUnsafe, Verdict::Overflow}) {
    EXPECT_GE(tally[v], 2) << verdict_name(v) << ": the cross-check must reach every kind";
  }
}

// SPIN's process limit, at the boundary, with SPIN itself: N processes that each wait
// on their own semaphore, which nobody signals (neffbar: DEADLOCK; one state after
// init, so pan is instant -- a model where processes finish has 2^N orders of their
// `finished++`).  253 processes + the reuse monitor + init = 255: spin_limits accepts
// it, and spin -a, cc (with the VECTORSZ the model's header asks for) and pan run it:
// no assertion fails (pan -E), the deadlock is an invalid end state (pan -A).  254 are
// refused -- and pan, given that model anyway, fails with "too many processes", so the
// limit is SPIN's.  (The largest composed model, 63x4 host-CC, runs too: pan -E finds
// C7's GLOBAL_UNSAFE at depth 898; spin -a + cc take over a minute, too slow for ctest.)
System all_waiting(std::uint32_t n) {
  using namespace hand_made;
  std::vector<std::vector<Instr>> progs(n);
  for (std::uint32_t i = 0; i < n; ++i) progs[i].push_back(wait(i, 1));
  return make(n, progs);
}

TEST(Spin, RunsTheLargestModelNeffbarExportsAndNotOneMore) {
  const fs::path dir = fs::temp_directory_path() / ("neffbar_spin_limit_" + std::to_string(::getpid()));
  for (const std::uint32_t n : {253u, 254u}) {
    const System sys = all_waiting(n);
    EXPECT_EQ(spin_limits(sys).ok(), n == 253) << n;
    const std::string model = to_promela(sys, true);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(model, m, std::regex("-DVECTORSZ=([0-9]+)"))) << "the header names VECTORSZ";
    Pan pan(dir / std::to_string(n), model, "-DVECTORSZ=" + m[1].str());
    for (const char* flag : {"-E", "-A"}) {
      const std::optional<std::string> out = pan.run(flag);
      const PanResult r = parse_pan(out);
      const std::string text = out.value_or("");
      ASSERT_TRUE(r.ok) << n << flag << text;
      EXPECT_EQ(text.find("VECTORSZ too small"), std::string::npos) << text;
      if (n == 253) {
        EXPECT_EQ(text.find("too many processes"), std::string::npos) << flag << text;
        EXPECT_EQ(r.errors, std::string(flag) == "-A" ? 1 : 0) << flag << text;
      } else {
        EXPECT_NE(text.find("too many processes"), std::string::npos) << flag << text;
      }
    }
  }
  fs::remove_all(dir);
}

// The cross-check must be able to fail: the Promela model of a system with one known
// violation lets SPIN find it, and the same model with that one assertion replaced by
// `skip` lets SPIN miss it.  One system per assertion kind of to_promela().
// The assertions that can fail (the reuse monitor's is `assert(true)` when unchecked).
std::vector<std::size_t> assertions(const std::string& pml) {
  std::vector<std::size_t> at;
  for (std::size_t i = pml.find("assert("); i != std::string::npos; i = pml.find("assert(", i + 1)) {
    if (pml.compare(i, 12, "assert(true)") != 0) at.push_back(i);
  }
  return at;
}

std::string drop_assertion(const std::string& pml) {
  if (assertions(pml).empty()) return pml;
  const std::size_t at = assertions(pml).front();
  std::size_t end = at + 7;
  for (int depth = 1; end < pml.size() && depth > 0; ++end) depth += pml[end] == '(' ? 1 : pml[end] == ')' ? -1 : 0;
  return pml.substr(0, at) + "skip" + pml.substr(end);
}

long spin_errors(const std::string& pml, const fs::path& dir) {
  Pan pan(dir, pml);
  const PanResult r = parse_pan(pan.run("-E"));
  EXPECT_TRUE(r.ok) << pml;
  return r.errors;
}

TEST(Spin, AModelWithoutItsAssertionMissesTheViolation) {
  if (std::system("command -v spin > /dev/null && command -v cc > /dev/null") != 0) GTEST_SKIP() << "spin or cc missing";
  using namespace hand_made;
  System overflow = make(1, {{inc_val(0, 2)}});
  overflow.semas[0].initial = std::numeric_limits<std::int32_t>::max() - 1;
  const PromelaChecks none{.guarantees = false, .global = false, .reuse = false, .overflow = false};
  struct Kind {
    const char* name;
    System sys;
    PromelaChecks checks;
  };
  const std::vector<Kind> kinds = {
      {"unsafe", make(0, {{arrive(), depart()}, {arrive()}}, {{1}, {}}), {.guarantees = true, .global = false, .reuse = false, .overflow = false}},
      {"global_unsafe", make(0, {{arrive(), depart()}, {arrive()}}), {.guarantees = false, .global = true, .reuse = false, .overflow = false}},
      {"not_reusable", make(1, {{inc(0)}}), {.guarantees = false, .global = false, .reuse = true, .overflow = false}},
      {"overflow", overflow, {.guarantees = false, .global = false, .reuse = false, .overflow = true}},
  };
  const fs::path dir = fs::temp_directory_path() / ("neffbar_spin_" + std::to_string(::getpid()) + "_dropped");
  for (const Kind& k : kinds) {
    const std::string pml = to_promela(k.sys, k.checks);
    ASSERT_EQ(assertions(pml).size(), 1u) << k.name << ": one assertion\n" << pml;
    EXPECT_GT(spin_errors(pml, dir / k.name / "whole"), 0) << k.name << ": SPIN finds the violation";
    EXPECT_EQ(spin_errors(drop_assertion(pml), dir / k.name / "dropped"), 0) << k.name << ": not without its assertion";
    EXPECT_TRUE(assertions(drop_assertion(pml)).empty()) << k.name;
    EXPECT_EQ(spin_errors(to_promela(k.sys, none), dir / k.name / "none"), 0) << k.name << ": nor with no check asked for";
  }
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace neffbar::model
