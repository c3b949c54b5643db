// barrier: byte 0 picks the mode (the byte layout of each: barrier_input.h).
//  - composed (bits 0,1 clear): a topology, hypotheses and a schedule seed from the
//    bytes -> composed systems never fail (no DEADLOCK, UNSAFE, NOT_REUSABLE), checked
//    exhaustively (with the reductions the bytes pick) or by random schedules; faults
//    injected by the bytes are always caught, with a counterexample that replays;
//  - scenario (bit 1): any topology under any hypotheses (C1-C7), or one row of the
//    hypothesis matrix -> the reduced search finds exactly the failure kinds of the
//    unreduced one, the round it broke in lies in 1..rounds, and the row's Markdown and
//    JSON name its verdict; a topology out of range is the composer's error naming the
//    option (bit 2: the bytes are taken raw);
//  - configs (bit 0): 1..3 arbitrary 0x128-byte configs -> the checker ends within its
//    budget, every counterexample replays, and the static oracle agrees where it applies;
//  - arbitrary (bit 7): a small arbitrary system and symmetry hints drawn from the
//    bytes (core/testing/arbitrary_system.h; bit 6 of the next byte allows non-persistent
//    ones) -> its counterexamples replay and format, its Promela export holds (the
//    engines against the reference checker there: prop_reductions, prop_persistent).
// In every mode where a system is decided, the persistent engine answers exactly the
// systems that qualify and agrees with the explicit search by the one rule of
// props/engines_agree.h, as the reduced search does with the unreduced one.
// In every mode the reports hold (report_checks.h).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "barrier_input.h"
#include "engines_agree.h"
#include "fuzz_check.h"
#include "fuzz_judge.h"
#include "report_checks.h"
#include "neffbar/bytes.h"
#include "testing/arbitrary_system.h"
#include "testing/reduction_variants.h"
#include "neffbar/model/engines/engine.h"
#include "neffbar/model/frontend/faults.h"
#include "neffbar/model/scenarios/matrix.h"
#include "neffbar/report/matrix_report.h"
#include "neffbar/model/engines/oracle.h"
#include "neffbar/model/scenarios/scenario.h"

using namespace neffbar;
using namespace neffbar::model;
using neffbar::fuzz::ArbitraryInput;
using neffbar::fuzz::ComposedInput;
using neffbar::fuzz::ConfigsInput;
using neffbar::fuzz::ScenarioInput;

namespace {

// The persistent engine on a system another engine decided with collect_all under
// `guarantee` (or that random mode ran): it answers exactly the systems that qualify, and
// there the two agree by the one rule of props/engines_agree.h.
void check_persistent_agrees(const System& sys, const CheckResult& other, GuaranteeMode guarantee, props::Judge& j) {
  PersistentOptions o;
  o.guarantee = guarantee;
  o.collect_all = true;
  o.max_seconds = 5;
  const Result<CheckResult> p = check_persistent(sys, o);
  j.require(p.ok() == qualify(sys).ok, "the persistent engine answers exactly the systems that qualify");
  if (!p) return;
  fuzz::check_counterexample(sys, *p);
  props::engines_agree(sys, *p, other, j);
}

void composed(const ComposedInput& in, bool deep, props::Judge& j) {
  Topology t = in.topo;
  if (t.chips * t.leaders > 8) t.leaders = 8 / t.chips;  // keep the exhaustive search small
  Scenario s;
  s.topo = t;
  s.hyp.dec = t.wiring == Wiring::Counting ? DecMode::Target : DecMode::One;
  s.run.check.guarantee = GuaranteeMode::Declared;
  s.run.check.reduce = in.reduce;
  s.run.check.por = in.por;
  s.run.check.symmetry = in.symmetry;
  s.run.check.collect_all = deep;  // every kind it saw, to hold against the persistent engine
  s.run.check.max_states = s.run.check.reduce ? 200000 : 30000;  // unreduced, 2x3 alone is ~1 s under ASan
  if (in.random) {
    s.run.engine = Engine::Random;
    s.run.random_runs = deep ? in.random_runs : 1;  // the schedule comes from the bytes; more on the sample
    s.run.seed = in.seed();
  } else {
    s.run.engine = Engine::Explicit;
  }
  Composition comp = *compose(t);
  const Fault f = in.fault_kind();
  const bool faulty = f != Fault::None && t.leaders >= 2 && inject(comp, f, in.fault_leader % (t.chips * t.leaders));
  const Result<Lowered> low = lower_with_hints(comp, s.hyp);
  fuzz::require(low.ok(), "composition lowers");
  const System* sys = &low->system;
  EngineOptions eo = s.run;
  eo.check.symmetry_hints = low->hints;
  if (!deep) eo.engine = Engine::Auto;  // the persistent engine where it qualifies: microseconds
  const CheckResult r = *decide(*sys, eo);
  if (deep) check_persistent_agrees(*sys, r, eo.check.guarantee, j);
  if (r.verdict == Verdict::Budget) return;
  if (!faulty) {
    fuzz::require(r.verdict == Verdict::Ok, "a composed barrier never fails");
  } else if (r.exhaustive) {
    fuzz::require(r.verdict != Verdict::Ok, "an injected fault is caught");
  }
  fuzz::check_counterexample(*sys, r);
  if (deep) fuzz::check_promela(*sys);  // a third of the time otherwise
}

// The scenario an input names, or nullopt for one left to the sample (or the campaign).
std::optional<Scenario> scenario_of(const ScenarioInput& in, bool deep) {
  Scenario s;
  if (in.matrix) {
    static const std::vector<Scenario> full = full_scenarios(), small = matrix_scenarios(/*small=*/true);
    const std::vector<Scenario>& all = in.full_table ? full : small;
    s = all[in.row % all.size()];
    if (in.full_table && s.topo.rounds > 1) return std::nullopt;  // the 1000-round sample is for the campaign
  } else {
    s.topo = in.topo;
    if (!in.raw && s.topo.chips * s.topo.leaders > 8) s.topo.leaders = 8 / s.topo.chips;  // keep the exhaustive search small
    s.hyp = in.hyp;
    if (in.raw && s.topo.rounds > 3) {
      if (!deep) return std::nullopt;  // hundreds of rounds: on the sample only
      s.run.engine = Engine::Random;       // long: one random schedule
      s.run.random_runs = 1;
    } else if (in.persistent) {
      s.run.engine = Engine::Persistent;  // asked for by name: an answer or a refusal naming why
    }
    s.run.check.guarantee = in.global ? GuaranteeMode::Global : GuaranteeMode::Declared;
  }
  // Beyond 16 leaders a decision takes ~100 ms under ASan: on the sample only.
  if (!deep && s.topo.chips * s.topo.leaders > 16 && s.topo.chips <= 64 && s.topo.leaders <= 4) return std::nullopt;
  s.run.check.max_states = 50000;
  s.run.check.max_seconds = 5;
  return s;
}

// The row's verdict and reports (a refusal: exactly the topologies out of range, or what
// the persistent engine does not qualify); the row, when there is one to go on with.
std::optional<MatrixRow> row_holds(const Scenario& s, bool full_table) {
  // The documented limits (composer.h: chips 1..64, leaders 1..4, rounds 1..1000),
  // stated here independently of the composer's own check.
  const bool in_range = s.topo.chips >= 1 && s.topo.chips <= 64 && s.topo.leaders >= 1 && s.topo.leaders <= 4 &&
                        s.topo.rounds >= 1 && s.topo.rounds <= 1000;
  const Result<MatrixRow> row = matrix_row(s);
  if (s.run.engine == Engine::Persistent && in_range && !row) {
    fuzz::require(row.error().where == "persistent engine" && !qualify(build_system(s, s.topo.rounds)->system).ok,
                  "the persistent engine refuses only systems that do not qualify");
    return std::nullopt;
  }
  if (full_table && row) {
    fuzz::require(row->exact && row->engine == Engine::Persistent, "the full table is exact");
    fuzz::require(fuzz::count(report::full_summary_markdown({*row}), std::string("| ") + std::string(name(s.topo.lowering)) + " |") == 1,
                  "the full table's summary names the row's lowering");
  }
  fuzz::require(row.ok() == in_range, "exactly the topologies out of range are refused");
  if (!row) {
    const std::string& where = row.error().where;
    fuzz::require(row.error().code == Errc::InvalidArgument &&
                      (where == "chips" || where == "leaders" || where == "rounds"),
                  "a topology out of range is an error naming the field");
    return std::nullopt;
  }
  const Verdict v = row->verdict;
  const bool failed = v != Verdict::Ok && v != Verdict::Budget;
  fuzz::require(failed == !row->counterexample.empty(), "a failing row has a counterexample");
  // Random schedules do not measure the smallest failing round count; the others do.
  fuzz::require(row->engine == Engine::Random ? row->broke_in_round == 0
                                              : !failed || (row->broke_in_round >= 1 && row->broke_in_round <= s.topo.rounds),
                "it broke in a round it ran");
  fuzz::require(fuzz::count(report::matrix_markdown({*row}), std::string("| ") + std::string(verdict_name(v)) + " |") == 1,
                "the Markdown row names the verdict");
  const nlohmann::json j = nlohmann::json::parse(report::matrix_json({*row}));
  fuzz::require(j.size() == 1 && j[0]["verdict"] == verdict_name(v) && j[0]["chips"] == s.topo.chips,
                "the JSON row names the verdict and the topology");
  return *row;
}

// The reductions against the unreduced search, on the same lowered system.
void reductions_agree(const Scenario& s, bool deep, props::Judge& j) {
  const Result<Lowered> low = lower_with_hints(*compose(s.topo), s.hyp);
  fuzz::require(low.ok(), "a composed topology lowers under any hypotheses");
  const System* sys = &low->system;
  if (deep) fuzz::check_promela(*sys);  // a third of the time otherwise
  if (!deep || s.run.engine == Engine::Random || sys->procs.size() > 6) return;  // the unreduced search stays small
  CheckOptions full = s.run.check, bare = s.run.check;
  full.collect_all = bare.collect_all = true;
  full.symmetry_hints = low->hints;
  bare.reduce = bare.por = bare.symmetry = false;
  bare.max_states = 20000;
  const CheckResult a = check_explicit(*sys, full);
  const CheckResult b = check_explicit(*sys, bare);
  fuzz::check_counterexample(*sys, a);
  props::engines_agree(*sys, a, b, j);
  check_persistent_agrees(*sys, b, bare.guarantee, j);
}

void scenario(const ScenarioInput& in, bool deep, props::Judge& j) {
  const std::optional<Scenario> s = scenario_of(in, deep);
  if (!s || !row_holds(*s, in.matrix && in.full_table)) return;
  reductions_agree(*s, deep, j);
}

void configs(const ConfigsInput& in, bool deep, props::Judge& j) {
  Hypotheses h;
  h.compare = in.compare;
  h.dec = in.dec;
  const Result<System> sys = lower_configs(in.configs, in.fabric, Lowering::Table, in.rounds, h);
  fuzz::require(sys.ok(), "any configs lower");
  CheckOptions o;
  o.max_states = deep ? 20000 : 2000;
  o.max_seconds = 5;
  o.collect_all = true;
  if (!deep && qualify(*sys).ok) {  // the persistent engine alone; the explicit search on the sample
    PersistentOptions po;
    po.collect_all = true;
    const CheckResult p = *check_persistent(*sys, po);
    fuzz::check_counterexample(*sys, p);
    if (const auto oracle = static_oracle(*sys); oracle && p.verdict != Verdict::Budget) {
      const std::uint32_t mask = kComparedKinds;
      fuzz::require((*oracle & mask) == (p.found_mask & mask), "static oracle == persistent engine");
    }
    return;
  }
  const CheckResult r = check_explicit(*sys, o);
  if (r.verdict == Verdict::Budget) return;
  fuzz::check_counterexample(*sys, r);
  if (deep) fuzz::check_promela(*sys);  // a third of the time otherwise
  if (const auto oracle = static_oracle(*sys)) {
    const std::uint32_t mask = kComparedKinds;
    fuzz::require((*oracle & mask) == (r.found_mask & mask), "static oracle == exhaustive checker");
  }
  check_persistent_agrees(*sys, r, o.guarantee, j);
}

// An arbitrary system from the bytes (core/testing/arbitrary_system.h), with arbitrary
// symmetry hints: the engine that decides it (the persistent one where the system
// qualifies, else one combination of the explicit search's reductions, picked by the
// bytes, on a small budget) gives counterexamples that replay and format; the sample
// also checks the Promela export (stray rounds, values at the int32 limits).  That
// every reduction and the persistent engine find exactly what the reference checker
// finds on such systems is the properties `reductions` and `persistent`, fuzzed by
// their own targets (prop_reductions, prop_persistent), not repeated here.
void arbitrary(const ArbitraryInput& in, bool deep) {
  std::size_t at = 0;
  const std::vector<std::uint8_t>& d = in.choices;
  const auto pick = [&](std::uint32_t k) { return at < d.size() ? static_cast<std::uint32_t>(d[at++] % k) : 0u; };
  ArbitraryShape shape;
  shape.persistent_only = in.persistent_only();
  const ArbitraryCase ac = arbitrary_case(pick, shape);  // the planted classes (a)-(c) too
  const System& sys = ac.sys;
  const SymmetryHints& hints = ac.hints;
  const int one = static_cast<int>(pick(testing::kReductionVariants));
  PersistentOptions po;
  po.collect_all = true;
  const Result<CheckResult> p = check_persistent(sys, po);
  fuzz::require(p.ok() == qualify(sys).ok, "the persistent engine answers exactly the systems that qualify");
  const CheckResult r = p ? *p : check_explicit(sys, testing::reduction_variant(one, hints, 300));
  fuzz::check_counterexample(sys, r);
  if (r.global_finding) fuzz::require(replay(sys, *r.global_finding), "the global finding replays");
  if (deep) fuzz::check_promela(sys);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The explicit search as a cross-check (and every reduction against the unreduced
  // search) costs milliseconds; it runs for one distinct input in 64 while fuzzing
  // and for every input in the ctest replay (fuzz_check.h).
  static fuzz::SlowOracleSample sample(64);
  const bool deep = sample({data, size});
  const std::optional<fuzz::BarrierInput> in = fuzz::decode({data, size});
  if (!in) return 0;  // too short for its mode
  fuzz::FuzzJudge judge("barrier", size, deep);
  if (const auto* c = std::get_if<fuzz::ComposedInput>(&*in)) composed(*c, deep, judge);
  if (const auto* s = std::get_if<fuzz::ScenarioInput>(&*in)) scenario(*s, deep, judge);
  if (const auto* c = std::get_if<fuzz::ConfigsInput>(&*in)) configs(*c, deep, judge);
  if (const auto* a = std::get_if<fuzz::ArbitraryInput>(&*in)) arbitrary(*a, deep);
  return 0;
}
