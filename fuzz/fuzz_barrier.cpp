// barrier: byte 0 picks the mode (the byte layout of each: barrier_input.h); each mode is
// a property's law (props/scenario_laws.h, report_laws.h), run here on inputs decoded
// from this target's own layout, so its corpus, its schema-driven mutator on the
// configs and its sampling keep working:
//  - composed (bits 0,1 clear): the law of composed_engines;
//  - scenario (bit 1): the law of matrix_rows (bit 2: the bytes are taken raw; bits 3
//    and 4: a row of the small matrix or of the full-scale table);
//  - configs (bit 0): the law of config_sets;
//  - arbitrary (bit 7): a small arbitrary system and symmetry hints drawn from the
//    bytes (core/testing/arbitrary_system.h; bit 6 of the next byte allows
//    non-persistent ones), decided by the persistent engine where it qualifies, else by
//    one combination of the explicit search's reductions on a small budget: what a user
//    reads of it holds (report_laws.h).  The engines against the reference checker on
//    such systems are the properties `reductions` and `persistent`.
// The laws' thorough checks (the explicit search as a cross-check, every reduction
// against the unreduced search, the Promela export) run for one distinct input in 64
// while fuzzing and for every input in the ctest replay (fuzz_check.h).
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "barrier_input.h"
#include "fuzz_check.h"
#include "fuzz_judge.h"
#include "scenario_laws.h"
#include "testing/arbitrary_system.h"
#include "testing/reduction_variants.h"

using namespace neffbar;
using namespace neffbar::model;
using neffbar::fuzz::ArbitraryInput;
using neffbar::fuzz::ComposedInput;
using neffbar::fuzz::ConfigsInput;
using neffbar::fuzz::ScenarioInput;

namespace {

props::ComposedEnginesInput composed(const ComposedInput& c) {
  props::ComposedEnginesInput in;
  in.topo = c.topo;
  if (in.topo.chips * in.topo.leaders > 8) in.topo.leaders = 8 / in.topo.chips;  // keep the exhaustive search small
  in.random = c.random;
  in.reduce = c.reduce;
  in.por = c.por;
  in.symmetry = c.symmetry;
  in.seed = c.seed();
  in.runs = c.random_runs;
  in.fault = c.fault_kind();
  in.leader = c.fault_leader % (in.topo.chips * in.topo.leaders);
  return in;
}

props::MatrixRowInput scenario(const ScenarioInput& s) {
  props::MatrixRowInput in;
  in.matrix = s.matrix;
  in.full_table = s.full_table;
  in.row = s.row;
  in.s.topo = s.topo;
  if (!s.raw && in.s.topo.chips * in.s.topo.leaders > 8) in.s.topo.leaders = 8 / in.s.topo.chips;  // a small search
  in.s.hyp = s.hyp;
  in.s.run.check.guarantee = s.global ? GuaranteeMode::Global : GuaranteeMode::Declared;
  if (s.persistent) in.s.run.engine = Engine::Persistent;  // asked for by name: an answer or a refusal naming why
  return in;
}

props::ConfigSetInput configs(const ConfigsInput& c) { return {c.configs, c.fabric, c.rounds, c.compare, c.dec}; }

void arbitrary(const ArbitraryInput& in, props::Judge& j) {
  std::size_t at = 0;
  const std::vector<std::uint8_t>& d = in.choices;
  const auto pick = [&](std::uint32_t k) { return at < d.size() ? static_cast<std::uint32_t>(d[at++] % k) : 0u; };
  ArbitraryShape shape;
  shape.persistent_only = in.persistent_only();
  const ArbitraryCase ac = arbitrary_case(pick, shape);  // the planted classes (a)-(c) too
  const int one = static_cast<int>(pick(testing::kReductionVariants));
  PersistentOptions po;
  po.collect_all = true;
  const Result<CheckResult> p = check_persistent(ac.sys, po);
  j.require(p.ok() == qualify(ac.sys).ok, "the persistent engine answers exactly the systems that qualify");
  const CheckResult r = p ? *p : check_explicit(ac.sys, testing::reduction_variant(one, ac.hints, 300));
  props::counterexample_reads(ac.sys, r, j);
  if (r.global_finding) j.require(replay(ac.sys, *r.global_finding), "the global finding replays");
  if (j.thorough()) props::promela_reads(ac.sys, j);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static fuzz::SlowOracleSample sample(64);
  const bool deep = sample({data, size});
  const std::optional<fuzz::BarrierInput> in = fuzz::decode({data, size});
  if (!in) return 0;  // too short for its mode
  fuzz::FuzzJudge judge("barrier", size, deep);
  try {
    if (const auto* c = std::get_if<ComposedInput>(&*in)) props::composed_engines_never_fail(composed(*c), decide, judge);
    if (const auto* s = std::get_if<ScenarioInput>(&*in)) {
      props::matrix_rows_hold(scenario(*s), [](const Scenario& sc) { return matrix_row(sc); }, judge);
    }
    if (const auto* c = std::get_if<ConfigsInput>(&*in)) props::config_sets_decide(configs(*c), static_oracle, judge);
    if (const auto* a = std::get_if<ArbitraryInput>(&*in)) arbitrary(*a, judge);
  } catch (const fuzz::FuzzJudge::Discarded&) {
  }
  return 0;
}
