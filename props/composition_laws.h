// The laws of P4 (the tables of every fabric), P5 (composed barriers never fail; a fault
// is caught), P6 (a release is the AND of the guarantee) and P9 (reusability): each a
// typed input, its generator and its law (properties.h says how they are written and
// plugged in).
#pragma once

#include "law_prelude.h"

namespace neffbar::props {

// ------------------------------------------------------------------ P4 tables ------
struct TopologyInput {
  static constexpr bool kPropertyInput = true;
  Topology topo;
};
inline TopologyInput draw_p4(Source& s) { return {draw_topology(s, 4, 2)}; }

inline void table_shape(const TableImage& t, Judge& j) {
  j.require(t.sizes[0] == 1 && t.sizes[3] == 1, "steps 0 and 3 hold one entry");
  j.require(entry_at(t, 0, 0) == (TableEntry{0, 0}), "step 0 is INTRA_CHIP ENTRY");
  j.require(entry_at(t, 3, 0) == (TableEntry{0, 1}), "step 3 is INTRA_CHIP EXIT");
  j.require(t.sizes[1] == t.sizes[2], "steps 1 and 2 have one size");
  for (int s = 0; s < kSteps; ++s) {
    for (int e = 0; e < kEntries; ++e) {
      const TableEntry x = entry_at(t, s, e);
      if (e >= t.sizes[static_cast<std::size_t>(s)]) {
        j.require(x == (TableEntry{7, 2}), "pads are (7,2)");
        continue;
      }
      j.require(x.op == (s < 2 ? 0u : 1u), "ENTRY in steps 0-1, EXIT in 2-3");
      if (s == 2) j.require(x.type == entry_at(t, 1, e).type, "step 2 mirrors step 1");
      for (int f = 0; f < e; ++f) j.require(entry_at(t, s, f).type != x.type, "types distinct in a step");
    }
  }
}

// Topologies both fabrics express: the switch fabric has two tier lanes (chips c^1, c^2).
// Each composition is decided by the persistent engine (composed systems qualify;
// milliseconds) and, where the judge is thorough (rapidcheck, the ctest replay, a
// sample of the fuzz inputs), by the explicit search too (up to seconds under ASan).
inline void p4_fabrics_agree(const TopologyInput& in, const Composer& composer, Judge& j,
                             const TableImage& sw = kSwitchTable) {
  table_shape(kDefaultTable, j);
  table_shape(sw, j);
  Topology t = in.topo;
  for (Fabric f : {Fabric::Default, Fabric::Switch}) {
    t.fabric = f;
    const Result<Composition> comp = composer(t);
    j.require(comp.ok(), "both fabrics compose");
    const Lowered low = *lower_with_hints(*comp, {});
    if (j.thorough()) {
      CheckOptions o;
      o.guarantee = GuaranteeMode::Declared;
      o.symmetry_hints = low.hints;
      j.require(check_explicit(low.system, o).verdict == Verdict::Ok, "composed on either fabric: OK");
    }
    PersistentOptions po;
    po.guarantee = GuaranteeMode::Declared;
    const Result<CheckResult> p = check_persistent(low.system, po);
    j.require(p.ok() && p->verdict == Verdict::Ok, "composed on either fabric: OK (persistent engine)");
  }
  j.tags(t.chips, t.leaders);
}

// ------------------------------------------------------------------ P5 deadlock ----
inline bool all_pairs_linked(std::uint32_t chips, Fabric f) {
  const auto lanes = tier_lanes(f);
  for (std::uint32_t a = 0; a < chips; ++a) {
    for (std::uint32_t b = a + 1; b < chips; ++b) {
      bool linked = false;
      for (int i : lanes) linked = linked || (a ^ b) == (1u << i);
      if (!linked) return false;
    }
  }
  return true;
}

inline TopologyInput draw_p5(Source& s) { return {draw_topology(s, 4, 2)}; }

// Decided by the persistent engine (composed systems qualify; milliseconds under ASan)
// and, where the judge is thorough (rapidcheck, the ctest replay, a sample of the fuzz
// inputs), by the explicit search too (up to seconds under ASan): both must hold the law.
inline void p5_deadlock_freedom(const TopologyInput& in, const Composer& composer, Judge& j) {
  const Topology& t = in.topo;
  const Result<Composition> comp = composer(t);
  j.require(comp.ok(), "the topology composes");
  const Lowered low = *lower_with_hints(*comp, {});
  // One chip; or every chip pair directly linked and either the hierarchical order or
  // one leader per chip (then the table order's guarantee already names everybody).
  const bool global_expected =
      t.chips == 1 || (all_pairs_linked(t.chips, t.fabric) && (t.lowering == Lowering::Hierarchical || t.leaders == 1));
  PersistentOptions po;
  po.guarantee = GuaranteeMode::Declared;
  const Result<CheckResult> p = check_persistent(low.system, po);
  j.require(p.ok() && p->verdict == Verdict::Ok, "composed: no DEADLOCK, UNSAFE, NOT_REUSABLE (persistent engine)");
  j.require(!p->global_finding.has_value() == global_expected,
            "the global property holds exactly where expected (persistent engine)");
  if (j.thorough()) {
    CheckOptions o;
    o.guarantee = GuaranteeMode::Declared;
    o.symmetry_hints = low.hints;
    const CheckResult r = check_explicit(low.system, o);
    j.require(r.verdict == Verdict::Ok, "composed: no DEADLOCK, UNSAFE, NOT_REUSABLE");
    j.require(!r.global_finding.has_value() == global_expected, "the global property holds exactly where expected");
  }
  j.classify(global_expected, "global property holds");
  j.tags(t.chips, name(t.lowering));
}

// The checker is not vacuous: each fault gives a failing verdict with a counterexample
// that replays.
struct P5FaultInput {
  static constexpr bool kPropertyInput = true;
  Topology topo;
  Fault fault = Fault::None;
  std::uint32_t leader = 0;
};
inline P5FaultInput draw_p5_faults(Source& s) {
  P5FaultInput in{{}, s.element({Fault::RaiseThreshold, Fault::ZeroLane, Fault::DoubleSignal, Fault::None}), 0};
  Topology& t = in.topo;
  t = draw_topology(s, 2, 1);
  t.leaders = std::max<std::uint32_t>(t.leaders, 2);
  if (in.fault == Fault::None) t.host_cc = false;  // "dropping the proxy"
  if (in.fault == Fault::DoubleSignal) {
    t.leaders = std::min<std::uint32_t>(t.leaders, 3);  // needs a free lane
    t.rounds = 2;                                          // caught at rounds 2
  }
  in.leader = s.in_range<std::uint32_t>(0, t.chips * t.leaders);
  return in;
}
using CheckerFn = std::function<CheckResult(const System&)>;

inline void p5_faults_are_caught(const P5FaultInput& in, const CheckerFn& checker, Judge& j) {
  Hypotheses h;
  h.proxy = in.fault != Fault::None;
  Composition comp = *compose(in.topo);
  j.assume(inject(comp, in.fault, in.leader));
  const System sys = *lower(comp, h);
  // `checker` (the explicit search in the registry) where the judge is thorough
  // (rapidcheck, the ctest replay, a sample of the fuzz inputs), else the persistent
  // engine where the system qualifies (milliseconds under ASan): either must catch it.
  std::optional<CheckResult> decided;
  if (!j.thorough()) {
    if (Result<CheckResult> p = check_persistent(sys)) decided = std::move(*p);
  }
  const CheckResult r = decided ? std::move(*decided) : checker(sys);
  j.require(r.verdict != Verdict::Ok, "a fault gives a failing verdict");
  j.require(r.cex.has_value(), "a failing verdict has a counterexample");
  j.require(replay(sys, *r.cex), "the counterexample replays");
  j.tags(name(in.fault), verdict_name(r.verdict));
}

// ------------------------------------------------------------------ P6 AND ---------
// With only the leaders in S (plus p) released, p departs iff S covers p's guarantee.
struct P6Input {
  static constexpr bool kPropertyInput = true;
  Topology topo;
  std::uint32_t p = 0;
  std::vector<std::uint8_t> released;  // per leader (p's own is ignored)
};
inline P6Input draw_p6(Source& s) {
  P6Input in;
  in.topo = draw_topology(s, 4, 1);
  in.topo.host_cc = true;
  const std::uint32_t n = in.topo.chips * in.topo.leaders;
  in.p = s.in_range<std::uint32_t>(0, n);
  for (std::uint32_t q = 0; q < n; ++q) in.released.push_back(s.weighted({4, 1}) == 0);
  return in;
}

inline void p6_all_leaders_and(const P6Input& in, const Composer& composer, Judge& j) {
  const Composition comp = *composer(in.topo);
  const System sys = *lower(comp, {});
  const std::uint32_t p = in.p;
  std::vector<std::uint32_t> hold(sys.procs.size(), UINT32_MAX);
  bool covered = true;
  const auto& g = comp.guarantee[p];
  for (std::uint32_t q = 0; q < in.released.size(); ++q) {
    if (q == p || in.released[q]) continue;
    hold[q] = 0;  // never starts: never arrives
    if (std::find(g.begin(), g.end(), q) != g.end()) covered = false;
  }
  std::uint32_t depart = 0;
  for (std::uint32_t i = 0; i < sys.procs[p].program.size(); ++i) {
    if (sys.procs[p].program[i].marker == Marker::Depart) {
      depart = i;
      break;
    }
  }
  std::vector<std::int32_t> vals;
  const auto pcs = max_progress(sys, hold, vals);
  j.require((pcs[p] > depart) == covered, "p departs iff every leader of its guarantee arrived");
  j.classify(covered, "all arrivals");
}

// ------------------------------------------------------------------ P9 reuse -------
struct P9Input {
  static constexpr bool kPropertyInput = true;
  Topology topo;
  DecMode dec = DecMode::One;
};
inline P9Input draw_p9(Source& s) {
  P9Input in{{}, s.element({DecMode::One, DecMode::Target})};
  in.topo = draw_topology(s, 2, 3);
  in.topo.wiring = s.element({Wiring::PerPeer, Wiring::Counting});
  return in;
}

// The verdicts come from the persistent engine where the system qualifies (milliseconds
// under ASan) and from the explicit search where it does not or the judge is thorough
// (rapidcheck, the ctest replay, a sample of the fuzz inputs): each verdict must hold
// the law.
inline void p9_reusability(const P9Input& in, const Composer& composer, Judge& j) {
  const Topology& t = in.topo;
  Hypotheses h;
  h.dec = in.dec;
  CheckOptions o;
  o.guarantee = GuaranteeMode::Declared;  // C7 is P5's business
  PersistentOptions po;
  po.guarantee = GuaranteeMode::Declared;
  auto verdicts = [&](std::uint32_t rounds, std::vector<std::int32_t>* final_values) {
    Topology k = t;
    k.rounds = rounds;
    const System sys = *lower(*composer(k), h);
    if (final_values) max_progress(sys, std::vector<std::uint32_t>(sys.procs.size(), UINT32_MAX), *final_values);
    std::vector<Verdict> v;
    if (const Result<CheckResult> p = check_persistent(sys, po)) v.push_back(p->verdict);
    if (v.empty() || j.thorough()) v.push_back(check_explicit(sys, o).verdict);
    return v;
  };
  std::vector<std::int32_t> vals;
  const std::vector<Verdict> vs = verdicts(t.rounds, &vals);
  // A counter waited >= L and decremented by 1 keeps L-1 (C5); the tier counter has at
  // most one partner with chips <= 2.
  const bool residue_expected = t.wiring == Wiring::Counting && h.dec == DecMode::One && t.leaders > 1;
  if (residue_expected) {
    for (Verdict v : vs) j.require(v == Verdict::NotReusable || v == Verdict::Unsafe, "a residue is NOT_REUSABLE");
    for (Verdict v : verdicts(1, nullptr)) j.require(v == Verdict::NotReusable, "the residue shows in round 1");
  } else {
    for (Verdict v : vs) j.require(v == Verdict::Ok, "k rounds: OK");
    for (std::int32_t x : vals) j.require(x == 0, "back at the initial values after k rounds");
  }
  j.tags(name(t.wiring), name(h.dec), t.rounds);
}

}  // namespace neffbar::props
