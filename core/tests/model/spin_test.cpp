// Cross-check with SPIN (ctest label spin): the same systems exported as Promela must
// get the same verdicts from pan as from neffbar's checker.  pan exits 0 even when it
// finds errors, so its output is parsed: the safety job (pan -E: assertions only) and
// the deadlock job (pan -A: invalid end states only) run separately.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "neffbar/model/faults.h"
#include "neffbar/model/promela.h"
#include "neffbar/model/scenario.h"

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

PanResult run_pan(const fs::path& dir, const std::string& flag) {
  PanResult r;
  const std::string out = (dir / ("pan" + flag + ".txt")).string();
  const std::string cmd = "cd '" + dir.string() + "' && ./pan -m1000000 " + flag + " > '" + out + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) return r;
  const std::string text = slurp(out);
  std::smatch m;
  if (std::regex_search(text, m, std::regex("errors: ([0-9]+)"))) r.errors = std::stol(m[1]);
  if (std::regex_search(text, m, std::regex("([0-9]+) states, stored"))) r.states = std::stol(m[1]);
  r.ok = text.find("errors:") != std::string::npos;
  return r;
}

struct Case {
  std::string name;
  System sys;
  bool global;  // export and compare the global property too
};

void cross_check(const Case& c) {
  const fs::path dir = fs::temp_directory_path() / ("neffbar_spin_" + std::to_string(::getpid()) + "_" + c.name);
  fs::create_directories(dir);
  std::ofstream(dir / "model.pml") << to_promela(c.sys, c.global);
  const std::string build = "cd '" + dir.string() + "' && spin -a model.pml > spin.txt 2>&1 && cc -O2 -DSAFETY -o pan pan.c > cc.txt 2>&1";
  ASSERT_EQ(std::system(build.c_str()), 0) << c.name << ": " << slurp(dir / "spin.txt") << slurp(dir / "cc.txt");
  const PanResult safety = run_pan(dir, "-E");
  const PanResult deadlock = run_pan(dir, "-A");
  ASSERT_TRUE(safety.ok && deadlock.ok) << c.name;
  CheckOptions o;
  o.collect_all = true;
  o.guarantee = c.global ? GuaranteeMode::Global : GuaranteeMode::Declared;
  const CheckResult r = check(c.sys, o);
  std::uint32_t safety_bits = bit(Verdict::Unsafe) | bit(Verdict::NotReusable);
  if (c.global) safety_bits |= bit(Verdict::GlobalUnsafe);
  EXPECT_EQ(safety.errors > 0, (r.found_mask & safety_bits) != 0) << c.name << " (assertions)";
  EXPECT_EQ(deadlock.errors > 0, (r.found_mask & bit(Verdict::Deadlock)) != 0) << c.name << " (invalid end states)";
  fs::remove_all(dir);
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
      {"narrative_roles", composed({1, 2, Fabric::Default, true, 1}, narrative), true},
  };
  for (const Case& c : cases) cross_check(c);
}

}  // namespace
}  // namespace neffbar::model
