// The laws of whole scenarios as users run them: composed systems under every engine
// and reduction (composed_engines), the hypothesis matrix's rows and their reports
// (matrix_rows), and sets of arbitrary config images (config_sets).
#pragma once

#include <nlohmann/json.hpp>

#include "engine_laws.h"
#include "law_prelude.h"
#include "neffbar/model/scenarios/matrix.h"
#include "neffbar/report/matrix_report.h"
#include "report_laws.h"

namespace neffbar::props {

// Any value of an enum with a name table.
template <class E>
E draw_enum(Source& s) {
  return EnumNames<E>::table[s.below(EnumNames<E>::table.size())].first;
}

// The persistent engine on a system another engine decided with collect_all under
// `guarantee`: it answers exactly the systems that qualify, and there the two agree by
// the one rule of engines_agree.h.
inline void persistent_agrees_with(const System& sys, const CheckResult& other, GuaranteeMode guarantee, Judge& j) {
  PersistentOptions o;
  o.guarantee = guarantee;
  o.collect_all = true;
  o.max_seconds = 5;
  const Result<CheckResult> p = check_persistent(sys, o);
  j.require(p.ok() == qualify(sys).ok, "the persistent engine answers exactly the systems that qualify");
  if (!p) return;
  counterexample_reads(sys, *p, j);
  engines_agree(sys, *p, other, j);
}

// ------------------------------------------------------------- composed engines -----
// A small composed barrier (at most 8 leaders), checked by the explicit search with the
// reductions drawn, or by random schedules of a drawn seed, with a fault injected at a
// leader or none: a composed barrier never fails (no DEADLOCK, UNSAFE, NOT_REUSABLE);
// an injected fault is caught wherever the verdict is exhaustive; every counterexample
// reads; where the judge is thorough the persistent engine agrees with the engine that
// ran and the Promela export reads.
struct ComposedEnginesInput {
  static constexpr bool kPropertyInput = true;
  Topology topo;
  bool random = false;
  bool reduce = true, por = true, symmetry = true;
  std::uint64_t seed = 1;
  std::uint64_t runs = 1;
  Fault fault = Fault::None;
  std::uint32_t leader = 0;
};
inline ComposedEnginesInput draw_composed_engines(Source& s) {
  ComposedEnginesInput in;
  in.topo = draw_topology(s, 4, 2);
  in.topo.wiring = s.element({Wiring::PerPeer, Wiring::Counting});
  if (in.topo.chips * in.topo.leaders > 8) in.topo.leaders = 8 / in.topo.chips;  // the exhaustive search stays small
  in.random = s.coin();
  in.reduce = s.coin();
  in.por = s.coin();
  in.symmetry = s.coin();
  in.seed = s.any64();
  in.runs = s.in_range<std::uint64_t>(1, 5);
  in.fault = s.element({Fault::None, Fault::RaiseThreshold, Fault::ZeroLane, Fault::DoubleSignal});
  in.leader = s.in_range<std::uint32_t>(0, in.topo.chips * in.topo.leaders);
  return in;
}
using DecideFn = std::function<Result<CheckResult>(const System&, const EngineOptions&)>;

inline void composed_engines_never_fail(const ComposedEnginesInput& in, const DecideFn& decide_fn, Judge& j) {
  Composition comp = *compose(in.topo);
  const bool faulty = in.fault != Fault::None && in.topo.leaders >= 2 && inject(comp, in.fault, in.leader);
  Hypotheses h;
  h.dec = in.topo.wiring == Wiring::Counting ? DecMode::Target : DecMode::One;
  const Result<Lowered> low = lower_with_hints(comp, h);
  j.require(low.ok(), "a composition lowers");
  const System& sys = low->system;
  EngineOptions eo;
  eo.engine = in.random ? Engine::Random : Engine::Explicit;
  eo.random_runs = in.runs;
  eo.seed = in.seed;
  eo.check.guarantee = GuaranteeMode::Declared;
  eo.check.reduce = in.reduce;
  eo.check.por = in.por;
  eo.check.symmetry = in.symmetry;
  eo.check.symmetry_hints = low->hints;
  eo.check.collect_all = true;  // every kind it saw, to hold against the persistent engine
  eo.check.max_states = in.reduce ? 200'000 : 30'000;  // unreduced, 2x3 alone is ~1 s under ASan
  // Outside the thorough sample (most fuzz inputs): the persistent engine where the
  // system qualifies, microseconds.
  if (!j.thorough()) eo.engine = Engine::Auto;
  const Result<CheckResult> r = decide_fn(sys, eo);
  j.require(r.ok(), "an engine asked by name, or auto, answers a composed system");
  if (j.thorough()) persistent_agrees_with(sys, *r, eo.check.guarantee, j);
  j.tags(engine_name(r->engine), faulty ? "faulty" : "composed");
  if (r->verdict == Verdict::Budget) return;
  if (!faulty) {
    j.require(r->verdict == Verdict::Ok, "a composed barrier never fails");
  } else if (r->exhaustive) {
    j.require(r->verdict != Verdict::Ok, "an injected fault is caught");
  }
  counterexample_reads(sys, *r, j);
  if (j.thorough()) promela_reads(sys, j);
}

// ---------------------------------------------------------------- matrix rows -----
// Any topology under any hypotheses (its chips, leaders and rounds out of range too), or
// a row of the small hypothesis matrix or of the full-scale table (its 1-round rows;
// exact, and named by the table's summary): exactly the topologies out of range are refused,
// by an error naming the field; the persistent engine asked for by name refuses only
// systems that do not qualify; a failing row has a counterexample and broke in a round
// it ran (random schedules measure none); the Markdown and JSON rows name the verdict;
// and, where the judge is thorough and the system small, every reduction finds what the
// unreduced search finds (engines_agree.h), and so does the persistent engine.
struct MatrixRowInput {
  static constexpr bool kPropertyInput = true;
  bool matrix = false, full_table = false;
  std::uint32_t row = 0;
  Scenario s;
};
inline MatrixRowInput draw_matrix_row(Source& s) {
  MatrixRowInput in;
  in.matrix = s.coin();
  if (in.matrix) {
    in.full_table = s.weighted({3, 1}) == 1;
    in.row = static_cast<std::uint32_t>(s.below(1u << 16));
    return in;
  }
  Topology& t = in.s.topo;
  const bool raw = s.weighted({2, 1}) == 1;  // chips, leaders and rounds as bytes: out of range too
  t = draw_topology(s, 4, 2);
  if (raw) {
    t.chips = s.in_range<std::uint32_t>(0, 256);
    t.leaders = s.in_range<std::uint32_t>(0, 256);
    t.rounds = s.in_range<std::uint32_t>(0, 1002);
  }
  t.wiring = draw_enum<Wiring>(s);
  t.lowering = draw_enum<Lowering>(s);
  // The simplest choices are the encoder's readings (the enums' first values, the proxy kept).
  in.s.hyp = Hypotheses{draw_enum<Compare>(s), draw_enum<DecMode>(s), draw_enum<Roles>(s), draw_enum<HostAddrs>(s), !s.coin()};
  in.s.run.check.guarantee = s.coin() ? GuaranteeMode::Global : GuaranteeMode::Declared;
  switch (s.weighted({4, 1, 1})) {
    case 1: in.s.run.engine = Engine::Persistent; break;  // asked for by name: an answer or a refusal naming why
    case 2:
      in.s.run.engine = Engine::Random;
      in.s.run.random_runs = 1;
      break;
    default: break;
  }
  return in;
}
using MatrixRowFn = std::function<Result<MatrixRow>(const Scenario&)>;

// A decided row's reports: a failing row has a counterexample and broke in a round it
// ran (random schedules measure none); its Markdown and JSON rows name the verdict.
inline void row_reads(const MatrixRow& row, const Scenario& s, Judge& j) {
  const Verdict v = row.verdict;
  const bool failed = v != Verdict::Ok && v != Verdict::Budget;
  j.require(failed == !row.counterexample.empty(), "a failing row has a counterexample");
  // Random schedules do not measure the smallest failing round count; the others do.
  j.require(row.engine == Engine::Random ? row.broke_in_round == 0
                                         : !failed || (row.broke_in_round >= 1 && row.broke_in_round <= s.topo.rounds),
            "it broke in a round it ran");
  j.require(occurrences(report::matrix_markdown({row}), std::string("| ") + std::string(verdict_name(v)) + " |") == 1,
            "the Markdown row names the verdict");
  const nlohmann::json js = nlohmann::json::parse(report::matrix_json({row}));
  j.require(js.size() == 1 && js[0]["verdict"] == verdict_name(v) && js[0]["chips"] == s.topo.chips,
            "the JSON row names the verdict and the topology");
}

// The reductions and the persistent engine against the unreduced search, on the
// scenario's lowered system.
inline void reductions_agree(const Scenario& s, Judge& j) {
  const Result<Lowered> low = lower_with_hints(*compose(s.topo), s.hyp);
  j.require(low.ok(), "a composed topology lowers under any hypotheses");
  promela_reads(low->system, j);
  if (low->system.procs.size() > 6) return;  // the unreduced search stays small
  CheckOptions full = s.run.check, bare = s.run.check;
  full.collect_all = bare.collect_all = true;
  full.symmetry_hints = low->hints;
  bare.reduce = bare.por = bare.symmetry = false;
  bare.max_states = 20'000;
  const CheckResult a = check_explicit(low->system, full);
  const CheckResult b = check_explicit(low->system, bare);
  counterexample_reads(low->system, a, j);
  engines_agree(low->system, a, b, j);
  persistent_agrees_with(low->system, b, bare.guarantee, j);
}

inline void matrix_rows_hold(const MatrixRowInput& in, const MatrixRowFn& row_of, Judge& j) {
  Scenario s = in.s;
  if (in.matrix) {
    static const std::vector<Scenario> small = matrix_scenarios(/*small=*/true), full = full_scenarios();
    const std::vector<Scenario>& rows = in.full_table ? full : small;
    s = rows[in.row % rows.size()];
    j.assume(!in.full_table || s.topo.rounds == 1);  // the 1000-round sample is for the campaign
  }
  if (s.topo.rounds > 3 && s.run.engine == Engine::Auto) {  // long: one random schedule
    s.run.engine = Engine::Random;
    s.run.random_runs = 1;
  }
  s.run.check.max_states = 50'000;
  s.run.check.max_seconds = 5;
  // The documented limits (composer.h: chips 1..64, leaders 1..4, rounds 1..1000),
  // stated here independently of the composer's own check.
  const bool in_range = s.topo.chips >= 1 && s.topo.chips <= 64 && s.topo.leaders >= 1 && s.topo.leaders <= 4 &&
                        s.topo.rounds >= 1 && s.topo.rounds <= 1000;
  // Beyond 16 leaders, or more than 3 rounds, a decision takes ~100 ms under ASan: on
  // the thorough sample only (a refusal of a topology out of range is cheap).
  const bool big = s.topo.chips * s.topo.leaders > 16 || s.topo.rounds > 3;
  j.assume(j.thorough() || !big || !in_range);
  const Result<MatrixRow> row = row_of(s);
  j.tags(in.matrix ? "matrix row" : in_range ? "drawn" : "out of range", row ? verdict_name(row->verdict) : "refused",
         engine_name(s.run.engine));
  if (s.run.engine == Engine::Persistent && in_range && !row) {
    j.require(row.error().where == "persistent engine" && !qualify(build_system(s, s.topo.rounds)->system).ok,
              "the persistent engine refuses only systems that do not qualify");
    return;
  }
  j.require(row.ok() == in_range, "exactly the topologies out of range are refused");
  if (!row) {
    const std::string& where = row.error().where;
    j.require(row.error().code == Errc::InvalidArgument && (where == "chips" || where == "leaders" || where == "rounds"),
              "a topology out of range is an error naming the field");
    return;
  }
  if (in.matrix && in.full_table) {
    j.require(row->exact && row->engine == Engine::Persistent, "the full table is exact");
    j.require(occurrences(report::full_summary_markdown({*row}), std::string("| ") + std::string(name(s.topo.lowering)) + " |") == 1,
              "the full table's summary names the row's lowering");
  }
  row_reads(*row, s, j);
  // The reductions against the unreduced search, on the same lowered system.
  if (j.thorough() && s.run.engine != Engine::Random) reductions_agree(s, j);
}

// ---------------------------------------------------------------- config sets -----
// 1..3 arbitrary config images, lowered on a fabric for 1..2 rounds under drawn
// hypotheses: they always lower; the check ends within its budget; every counterexample
// reads; and the static oracle, where it applies, names the failure kinds the checker
// finds (the persistent engine where the set qualifies, the explicit search where it
// does not or the judge is thorough).
struct ConfigSetInput {
  static constexpr bool kPropertyInput = true;
  std::vector<ConfigBytes> configs;
  Fabric fabric = Fabric::Default;
  std::uint32_t rounds = 1;
  Compare compare = Compare::Ge;
  DecMode dec = DecMode::One;
};
inline ConfigSetInput draw_config_sets(Source& s) {
  ConfigSetInput in;
  const std::uint64_t n = s.in_range<std::uint64_t>(1, 4);
  for (std::uint64_t i = 0; i < n; ++i) in.configs.push_back(draw_config_bytes(s));
  in.fabric = s.element({Fabric::Default, Fabric::Switch});
  in.rounds = s.in_range<std::uint32_t>(1, 3);
  in.compare = s.element({Compare::Ge, Compare::Gt});
  in.dec = s.element({DecMode::One, DecMode::Target});
  return in;
}

inline void config_sets_decide(const ConfigSetInput& in, const OracleFn& oracle, Judge& j) {
  Hypotheses h;
  h.compare = in.compare;
  h.dec = in.dec;
  const Result<System> sys = lower_configs(in.configs, in.fabric, Lowering::Table, in.rounds, h);
  j.require(sys.ok(), "any configs lower");
  const std::uint32_t mask = kComparedKinds;
  const std::optional<std::uint32_t> o = oracle(*sys);
  if (!j.thorough() && qualify(*sys).ok) {  // the persistent engine alone; the explicit search on the sample
    PersistentOptions po;
    po.collect_all = true;
    const CheckResult p = *check_persistent(*sys, po);
    counterexample_reads(*sys, p, j);
    if (o && p.verdict != Verdict::Budget) j.require((*o & mask) == (p.found_mask & mask), "static oracle == persistent engine");
    j.tags("persistent", o ? "oracle applies" : "no oracle");
    return;
  }
  CheckOptions co;
  co.max_states = j.thorough() ? 20'000 : 2'000;
  co.max_seconds = 5;
  co.collect_all = true;
  const CheckResult r = check_explicit(*sys, co);
  j.tags("explicit", o ? "oracle applies" : "no oracle");
  if (r.verdict == Verdict::Budget) return;
  counterexample_reads(*sys, r, j);
  if (j.thorough()) promela_reads(*sys, j);
  if (o) j.require((*o & mask) == (r.found_mask & mask), "static oracle == exhaustive checker");
}

}  // namespace neffbar::props
