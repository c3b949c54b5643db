// The laws of P11 (the static oracle), the persistent engine's agreement with the
// explicit search and every reduction's agreement with the reference checker: each a
// typed input, its generator and its law (properties.h says how they are written and
// plugged in).
#pragma once

#include "law_prelude.h"
#include "report_laws.h"

namespace neffbar::props {

// ------------------------------------------------------------------ P11 oracle -----
struct P11Input {
  static constexpr bool kPropertyInput = true;
  Topology topo;
  DecMode dec = DecMode::One;
  bool proxy = true;
  Compare compare = Compare::Ge;
  Fault fault = Fault::None;
  std::uint32_t leader = 0;
};
inline P11Input draw_p11(Source& s) {
  P11Input in;
  in.topo = draw_topology(s, 3, 2);
  in.topo.wiring = s.element({Wiring::PerPeer, Wiring::Counting});
  if (in.topo.chips * in.topo.leaders > 6) in.topo.leaders = 1;
  in.dec = s.element({DecMode::One, DecMode::Target});
  in.proxy = s.coin();
  in.compare = s.element({Compare::Ge, Compare::Gt});
  in.fault = s.element({Fault::None, Fault::RaiseThreshold, Fault::ZeroLane, Fault::DoubleSignal});
  in.leader = s.in_range<std::uint32_t>(0, in.topo.chips * in.topo.leaders);
  return in;
}
using OracleFn = std::function<std::optional<std::uint32_t>(const System&)>;

inline void p11_oracle_agrees(const P11Input& in, const OracleFn& oracle, Judge& j) {
  Hypotheses h;
  h.dec = in.dec;
  h.proxy = in.proxy;
  h.compare = in.compare;
  Composition comp = *compose(in.topo);
  inject(comp, in.fault, in.leader);
  const System sys = *lower(comp, h);
  const auto o = oracle(sys);
  j.assume(o.has_value());
  const std::uint32_t mask = kComparedKinds;
  // Against the persistent engine where the system qualifies (milliseconds under ASan),
  // against the explicit search where it does not or the judge is thorough.
  PersistentOptions po;
  po.collect_all = true;
  std::uint32_t got = 0;
  const Result<CheckResult> p = check_persistent(sys, po);
  if (p) {
    got = p->found_mask & mask;
    j.require((*o & mask) == got, "the oracle's failure kinds == the checker's (persistent engine)");
  }
  if (!p || j.thorough()) {
    CheckOptions all;
    all.collect_all = true;
    got = check_explicit(sys, all).found_mask & mask;
    j.require((*o & mask) == got, "the oracle's failure kinds == the checker's");
  }
  j.tags(name(in.fault), got == 0 ? "ok" : "failing");
}

// ------------------------------------------------- persistent engine agreement -----
// On arbitrary small systems (arbitrary_system.h: equality of the wait, GT, several
// rounds, DEPARTs of rounds nobody arrives in, initial values next to the int32
// limits): the persistent engine answers exactly the systems that qualify, and there
// agrees with the unreduced explicit search (while fuzzing, outside the thorough sample:
// the search with its reductions) by the one rule of engines_agree.h.
struct SystemInput {
  static constexpr bool kPropertyInput = true;
  System sys;
};
inline SystemInput draw_persistent(Source& s) { return {arbitrary_system(s)}; }
using PersistentFn = std::function<Result<CheckResult>(const System&, const PersistentOptions&)>;

inline void persistent_engine_agrees(const SystemInput& in, const PersistentFn& engine, Judge& j) {
  const System& sys = in.sys;
  PersistentOptions o;
  o.collect_all = true;
  const Result<CheckResult> p = engine(sys, o);
  j.require(p.ok() == qualify(sys).ok, "the engine answers exactly the systems that qualify");
  j.assume(p.ok());
  // Small systems, default budgets (minutes, two billion instructions): an answer that
  // is not exact gave up where nothing bound it, and would pass the rule below unseen.
  j.require(p->exact(), "the persistent engine decides exactly within its default budgets");
  // The explicit search to hold it against: unreduced, with its default budget, where
  // the judge is thorough (rapidcheck, the ctest replay, a sample of the fuzz inputs);
  // otherwise (most fuzz inputs) with its reductions, which are exact (the property
  // `reductions` holds them against the reference checker) and explore a fraction of the
  // states, within 2,000 states.  A search the budget ended is compared too, by the
  // rule's half that holds for it.
  CheckOptions o_e;
  o_e.collect_all = true;
  if (j.thorough()) {
    o_e.reduce = o_e.por = o_e.symmetry = false;
  } else {
    o_e.max_states = 2'000;
  }
  const CheckResult e = check_explicit(sys, o_e);
  engines_agree(sys, *p, e, j);
  j.tags(e.verdict == Verdict::Budget ? "explicit search cut" : "both exact", e.found_mask == 0 ? "ok" : "failing");
}

// --------------------------------------------- reductions against the reference -----
// On arbitrary small systems, not only persistent ones (equality waits, several
// consumers, int32 limits), with symmetry hints that may claim a symmetry that is not
// there: each combination of the explicit search's reductions finds exactly the failure
// kinds of the reference checker (core/testing/reference_checker.h), and gives the rest
// of the reference's report (core/testing/reference_report.h); its counterexample reads
// (report_laws.h), and so, where the judge is thorough, does the Promela export.
struct ReductionInput {
  static constexpr bool kPropertyInput = true;
  System sys;
  SymmetryHints hints;
  bool reduce = true, por = true, symmetry = true;
  // The hints dropped: the symmetry is found from the system (automorphisms.h), where
  // the driver's binary has a finder (props_tests: nauty; a fuzz target: none).
  bool found = false;
};
inline ReductionInput draw_reductions(Source& s) {
  ReductionInput in;
  ArbitraryShape shape;
  shape.persistent_only = false;
  ArbitraryCase ac = arbitrary_case(s, shape);  // the planted classes (a)-(c) of arbitrary_system.h
  in.sys = std::move(ac.sys);
  in.hints = std::move(ac.hints);
  in.reduce = s.coin();
  in.por = s.coin();
  in.symmetry = s.coin();
  in.found = s.coin();
  return in;
}
using CheckFn = std::function<CheckResult(const System&, const CheckOptions&)>;

// The reference's state budget: 20,000 where the judge is thorough; otherwise (most
// fuzz inputs) 300: the larger systems, whose two searches cost milliseconds under
// ASan, are compared on the sampled inputs only.
// Either way a comparison that runs is the whole one.
inline void reductions_agree_with_the_reference(const ReductionInput& in, const CheckFn& checker, Judge& j) {
  const testing::ReferenceResult ref = testing::reference_check(in.sys, j.thorough() ? 20'000 : 300);
  j.assume(ref.complete);
  CheckOptions o;
  o.collect_all = true;
  o.reduce = in.reduce;
  o.por = in.por;
  o.symmetry = in.symmetry;
  if (!in.found) o.symmetry_hints = in.hints;
  const CheckResult r = checker(in.sys, o);
  j.assume(r.verdict != Verdict::Budget);
  j.require(r.found_mask == ref.found_mask, "every reduction finds the reference checker's failure kinds");
  counterexample_reads(in.sys, r, j);  // it replays, and reads as its verdict and its steps
  if (j.thorough()) promela_reads(in.sys, j);  // stray rounds, values at the int32 limits
  // The rest of the report: the verdict among the kinds, the global line, the findings.
  const testing::ReportContext whole{.mode = GuaranteeMode::Global, .collect_all = true, .broke_in_round = 0};
  j.require(testing::report_disagreement(in.sys, r, ref, whole).empty(), "the whole report agrees with the reference checker");
  j.tags(o.reduce ? "lipton" : "unreduced", ref.found_mask == 0 ? "ok" : "failing");
  j.classify(r.search().symmetry_used && r.search().symmetry_source != kSymmetryFromHints, "symmetry found from the system");
}

}  // namespace neffbar::props
