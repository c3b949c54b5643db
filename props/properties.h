// P1..P11 (props/README.md), each written once: a typed input, its generator (written
// against Source, so rapidcheck and the fuzz targets draw the same values) and its law,
// a function of the input, of the implementation under test and of a Judge.  The real
// implementations are plugged in by the registry (registry.h); teeth_test.cpp plugs in
// deliberately broken ones, where the law must fail at the check it names.
// No rapidcheck here: the property fuzz targets link only core/.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "draw.h"
#include "engines_agree.h"
#include "judge.h"
#include "neffbar/config_diff.h"
#include "neffbar/json_log.h"
#include "neffbar/model/engines/common/compiled.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/engines/explicit/state_set.h"
#include "neffbar/model/frontend/faults.h"
#include "neffbar/model/engines/oracle.h"
#include "neffbar/model/engines/persistent/persistent.h"
#include "neffbar/model/scenarios/composed_files.h"
#include "neffbar/model/scenarios/scenario.h"
#include "neffbar/search.h"
#include "testing/arbitrary_system.h"
#include "testing/reference_report.h"
#include "testing/reference_checker.h"
#include "testing/reference_semaphores.h"

namespace neffbar::props {

using namespace neffbar::model;
using Composer = std::function<Result<Composition>(const Topology&)>;
inline Result<Composition> real_compose(const Topology& t) { return compose(t); }

// Every input struct says so with kPropertyInput (rc_driver.h prints them field by
// field in counterexamples).

// ------------------------------------------------------------------ P1 round trip --
struct P1Input {
  static constexpr bool kPropertyInput = true;
  ConfigBytes bytes;
  BarrierConfigs logical;
};
inline P1Input draw_p1(Source& s) { return {draw_config_bytes(s), draw_logical<BarrierConfigs>(s)}; }

struct CodecImpl {
  std::function<BarrierConfigs(const ConfigBytes&)> decode = [](const ConfigBytes& b) { return *neffbar::decode(b); };
  std::function<ConfigBytes(const BarrierConfigs&)> encode = [](const BarrierConfigs& c) { return neffbar::encode(c); };
  std::function<std::string(const ConfigBytes&)> full_log = [](const ConfigBytes& b) { return write_log(b, LogMode::Full); };
};

inline void p1_round_trip(const P1Input& in, const CodecImpl& impl, Judge& j) {
  const ConfigBytes& b = in.bytes;
  j.require(impl.encode(impl.decode(b)) == b, "encode(decode(bytes)) == bytes");
  j.require(impl.decode(impl.encode(in.logical)) == in.logical, "decode(encode(struct)) == struct");
  // The JSON log's round trip costs ~1 ms under ASan against microseconds for the
  // binary ones: where the judge is thorough (rapidcheck, the ctest replay, a sample of
  // the fuzz inputs; the `json` and `decode` targets fuzz the log on their own).
  if (j.thorough()) {
    const Result<ConfigBytes> back = read_log(impl.full_log(b));
    j.require(back.ok(), "the full log reads back");
    j.require(*back == b, "read_log(full log) == bytes");
  }
  j.classify(b[kGateOffset] & 1, "gate set");
  j.classify((b[kGateOffset] >> 1) != 0 || b[0x125] || b[0x126] || b[0x127], "reserved non-zero");
}

// ------------------------------------------------------------------ P2 overlay -----
struct P2Input {
  static constexpr bool kPropertyInput = true;
  ConfigBytes bytes;
};
inline P2Input draw_p2(Source& s) { return {draw_config_bytes(s)}; }
using HostViewFn = std::function<HostBarrierConfig(const ConfigBytes&)>;

inline void p2_overlay(const P2Input& in, const HostViewFn& host_view, Judge& j) {
  const BarrierConfigs c = *decode(in.bytes);
  const HostBarrierConfig h = host_view(in.bytes);
  const StepConfig& s0 = c.device_barrier.barrier_step_config[0];
  // The overlay laws (core/neffbar/README.md "Layout"), written out independently of host_view_by_overlay.
  j.require(h.barrier_start == (s0.m2s_val | std::uint64_t{s0.s2m_val} << 16 | (s0.barrier_sema[0] & 0xFFFFFFFFu) << 32),
            "barrier_start overlays step 0");
  j.require(h.barrier_done == ((s0.barrier_sema[0] >> 32) | (s0.barrier_sema[1] & 0xFFFFFFFFu) << 32),
            "barrier_done overlays step 0");
  j.require(h == host_view_by_overlay(c.device_barrier), "host view == host_view_by_overlay");
  j.classify(s0.barrier_sema[0] != 0, "step-0 lane 0 used");
}

// ------------------------------------------------------------------ P3 search ------
struct P3Input {
  static constexpr bool kPropertyInput = true;
  TableImage table;
  std::int64_t type = 0, step = 0;
};
inline P3Input draw_p3(Source& s) {
  P3Input in;
  in.table = s.coin() ? table_for(s.element({Fabric::Default, Fabric::Switch})) : draw_table_image(s);
  in.type = draw_query_int(s);
  in.step = draw_query_int(s);
  if (s.coin()) {  // ask for a type the row really holds (found, duplicates)
    in.step = s.in_range<std::int64_t>(0, kSteps);
    in.type = entry_at(in.table, static_cast<int>(in.step), s.in_range(0, kEntries)).type;
  }
  return in;
}
using FastSearchFn = std::function<std::optional<SearchHit>(const TableImage&, std::int64_t, std::int64_t)>;
inline std::optional<SearchHit> real_fast(const TableImage& t, std::int64_t type, std::int64_t step) {
  return FastTable::build(t).find(type, step);
}

inline void p3_search_agreement(const P3Input& in, const FastSearchFn& fast, Judge& j) {
  const auto& [t, type, step] = std::tie(in.table, in.type, in.step);
  const auto a = search_faithful(t, type, step);
  j.require(a == fast(t, type, step), "faithful search == fast search");
  j.classify(a.has_value(), "found");
  j.classify(step < 0 || step > 3 || type < 0 || type > 6, "out of range");
  j.classify(std::any_of(t.sizes.begin(), t.sizes.end(), [](auto z) { return z > 4; }), "size > 4");
  bool duplicate = false;
  for (int i = 0; i < kEntries && step >= 0 && step < kSteps; ++i) {
    for (int k = 0; k < i; ++k) {
      duplicate = duplicate || (entry_at(t, static_cast<int>(step), i).type == static_cast<std::uint64_t>(type) &&
                                entry_at(t, static_cast<int>(step), k).type == static_cast<std::uint64_t>(type));
    }
  }
  j.classify(duplicate, "queried type duplicated in the row");
}

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

// ------------------------------------------------------------------ P7 merge -------
struct CtxInput {
  static constexpr bool kPropertyInput = true;
  std::vector<std::uint8_t> ctx;
};
inline CtxInput draw_p7(Source& s) { return {draw_ctx_blob(s)}; }
using HostCcFn = std::function<Result<bool>(std::span<const std::uint8_t>)>;

inline void p7_host_cc_merge(const CtxInput& in, const HostCcFn& host_cc, Judge& j) {
  const std::vector<std::uint8_t>& ctx = in.ctx;
  const Result<std::vector<std::uint64_t>> addrs = leader_done_inc_addrs(ctx);
  const Result<bool> hcc = host_cc(ctx);
  if (!addrs.ok()) {
    j.require(ctx.size() < ctx_layout::kMinSize || load_le(ctx.data() + ctx_layout::kLeaderCount, 4) > 4,
              "refused only when short or over 4 leaders");
    j.tag("rejected");
    return;
  }
  j.require(hcc.ok(), "is_host_cc answers where the addresses do");
  const SemaMapping m;
  for (std::size_t i = 0; i < addrs->size(); ++i) {
    const std::uint64_t base = *sp_sema_base(ctx, static_cast<std::uint32_t>(i));
    const std::uint64_t host_done = base + m.sema_offset(static_cast<std::uint32_t>(SemaId::HostBarrierId0), Window::Inc);
    j.require((addrs->at(i) == host_done) == *hcc, "leader done address == host barrier_done iff host-CC");
  }
  j.tags(*hcc ? "host-cc" : "not host-cc", ctx[ctx_layout::kHostCc] > 1 ? "byte > 1" : "byte 0/1");
}

// ------------------------------------------------------------------ P8 arithmetic --
struct P8Input {
  static constexpr bool kPropertyInput = true;
  std::uint8_t al = 0;
  std::vector<std::uint8_t> ctx;
};
inline P8Input draw_p8(Source& s) {
  P8Input in;
  in.al = static_cast<std::uint8_t>(s.below(256));
  in.ctx.assign(ctx_layout::kHostCc + 1 + s.below(16), 0);
  in.ctx[ctx_layout::kHostCc] =
      s.coin() ? static_cast<std::uint8_t>(s.below(256)) : s.element<std::uint8_t>({0, 1, 2});
  return in;
}
using SemaIdFn = std::function<std::uint32_t(std::uint8_t)>;

inline void p8_sema_id_arithmetic(const P8Input& in, const SemaIdFn& from_al, const HostCcFn& host_cc, Judge& j) {
  // Independent model of cmp al,1 / sbb / and ~3 / add 6: CF is (al <u 1).
  const std::uint32_t cf = in.al == 0 ? 1u : 0u;
  j.require(from_al(in.al) == (((0u - cf) & ~3u) + 6u), "sema id == (-(al <u 1) & ~3) + 6");
  j.require(*host_cc(in.ctx) == (in.ctx[ctx_layout::kHostCc] == 1), "is_host_cc == (ctx[0x231] == 1)");
  j.classify(in.ctx[ctx_layout::kHostCc] > 1, "byte > 1");
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

// ------------------------------------------------------------------ P10 machine ----
// Commands on a file of three semaphores, against the independent model
// (core/testing/reference_semaphores.h), op by op.
struct SemaCommand {
  static constexpr bool kPropertyInput = true;
  SemaOp op;
  Compare cmp = Compare::Ge;
};
struct P10Input {
  static constexpr bool kPropertyInput = true;
  bool near_max = false;  // start s0 at INT32_MAX - 1 so overflow is reachable
  std::vector<SemaCommand> commands;
};
inline P10Input draw_p10(Source& s) {
  P10Input in;
  in.near_max = s.coin();
  in.commands.resize(s.below(40));
  for (SemaCommand& c : in.commands) c = {draw_sema_op(s, 3), s.element({Compare::Ge, Compare::Gt})};
  return in;
}
using ApplyFn = std::function<Outcome(std::span<std::int32_t>, const SemaOp&, Compare)>;

inline void p10_semaphore_machine(const P10Input& in, const ApplyFn& sut_apply, Judge& j) {
  ReferenceSemaphores model;
  std::vector<std::int32_t> sut(3, 0);
  if (in.near_max) {
    sut[0] = INT32_MAX - 1;
    model.set(0, INT32_MAX - 1);
  }
  std::array<int, 3> seen{};
  for (const SemaCommand& c : in.commands) {
    const Outcome want = model.outcome(c.op, c.cmp);
    j.require(sut_apply(sut, c.op, c.cmp) == want, "machine outcome == model outcome");
    model.apply(c.op, c.cmp);
    for (std::uint32_t s = 0; s < sut.size(); ++s) j.require(sut[s] == model.value(s), "machine values == model values");
    ++seen[static_cast<std::size_t>(want)];
  }
  j.classify(seen[static_cast<std::size_t>(Outcome::Blocked)] > 0, "a primitive blocked");
  j.classify(seen[static_cast<std::size_t>(Outcome::Overflow)] > 0, "an overflow was reported");
}

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
// of the reference's report (core/testing/reference_report.h).
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
// fuzz inputs) 300, as the barrier target's arbitrary mode: the larger systems, whose
// two searches cost milliseconds under ASan, are compared on the sampled inputs only.
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
  if (r.cex) j.require(replay(in.sys, *r.cex), "the counterexample replays");
  // The rest of the report: the verdict among the kinds, the global line, the findings.
  const testing::ReportContext whole{.mode = GuaranteeMode::Global, .collect_all = true, .broke_in_round = 0};
  j.require(testing::report_disagreement(in.sys, r, ref, whole).empty(), "the whole report agrees with the reference checker");
  j.tags(o.reduce ? "lipton" : "unreduced", ref.found_mask == 0 ? "ok" : "failing");
  j.classify(r.search().symmetry_used && r.search().symmetry_source != kSymmetryFromHints, "symmetry found from the system");
}

}  // namespace neffbar::props

namespace neffbar::props {

// ------------------------------------------------------------------- budget cuts -----
// A check cut short by its budget at any point (the time budget at any read of the
// clock, every poll reading it; the state budget at any state count) gives the uncut
// verdict or BUDGET, never another; reports what it found before the cut, with
// counterexamples that replay; calls a result exact only when it is the uncut one; and
// a cut later than one that gave the uncut verdict gives it too.  On arbitrary systems
// through each engine, and on small composed topologies as whole scenarios: the
// symmetry verification, the re-checks of fewer rounds (the round it broke in is the
// uncut one, or unmeasured and said so) and the persistent analysis.
enum class CutBudget : std::uint8_t { Time, States, Memory };

struct CutInput {
  static constexpr bool kPropertyInput = true;
  bool composed = false;
  System sys;      // checked through decide() when !composed
  Topology topo;   // checked as a scenario when composed
  Engine engine = Engine::Explicit;
  CutBudget budget = CutBudget::Time;
  std::uint32_t first = 0, second = 0;  // two cut points, in thousandths of the list of them (cut_points)
};

inline CutInput draw_cuts(Source& s) {
  CutInput in;
  in.engine = s.element({Engine::Explicit, Engine::Persistent, Engine::Random});
  in.composed = s.weighted({3, 1}) == 1;
  if (in.composed) {
    in.topo = draw_topology(s, 2, 3);
    in.topo.leaders = std::min(in.topo.leaders, 2u);  // the explicit search decides them in milliseconds
  } else {
    ArbitraryShape shape;
    shape.persistent_only = in.engine == Engine::Persistent;
    in.sys = arbitrary_system(s, shape);
  }
  in.budget = in.engine != Engine::Explicit ? CutBudget::Time : s.element({CutBudget::Time, CutBudget::States, CutBudget::Memory});
  in.first = static_cast<std::uint32_t>(s.below(1001));
  in.second = static_cast<std::uint32_t>(s.below(1001));
  return in;
}

// A clock that returns 0 for its first `at` reads, then a time past any budget: a cut
// at that read.  Its count is shared by the copies the options make of it.
struct CutClock {
  std::shared_ptr<std::uint64_t> reads = std::make_shared<std::uint64_t>(0);
  std::uint64_t at = UINT64_MAX;
  double operator()() const { return (*reads)++ < at ? 0.0 : 1e9; }
};

// The implementation under test: a system through an engine, a scenario whole.
struct CutImpl {
  std::function<Result<CheckResult>(const System&, const EngineOptions&)> decide = model::decide;
  std::function<Result<ScenarioResult>(const Scenario&)> scenario = run_scenario;
};

// Runs the input with its budget at `at` (UINT64_MAX: not cut): the clock cut at read
// `at`, at most `at` states, or `at` bytes; returns the system checked, the result, and
// how many clock reads the run made.
struct CutRun {
  System sys;
  CheckResult res;
  std::uint64_t reads = 0;
};
inline std::optional<CutRun> run_cut(const CutInput& in, const CutImpl& impl, std::uint64_t at) {
  EngineOptions o;
  o.engine = in.engine;
  o.random_runs = 4;
  o.check.poll_cadence = 1;
  CutClock clock;
  if (in.budget == CutBudget::Time) clock.at = at;
  if (in.budget == CutBudget::States && at != UINT64_MAX) o.check.max_states = at;
  if (in.budget == CutBudget::Memory && at != UINT64_MAX) o.check.max_memory = at;
  o.check.clock = clock;
  CutRun out;
  if (in.composed) {
    Result<ScenarioResult> r = impl.scenario(Scenario{in.topo, Hypotheses{}, o, {}, std::nullopt});
    if (!r) return std::nullopt;
    out.sys = std::move(r->system);
    out.res = std::move(r->result);
  } else {
    Result<CheckResult> r = impl.decide(in.sys, o);
    if (!r) return std::nullopt;
    out.sys = in.sys;
    out.res = std::move(*r);
  }
  out.reads = *clock.reads;
  return out;
}

// The explicit search's memory at its growth steps: what it holds beside the visited set
// (the value tables), and the visited set's peak through each insert that grows it, by
// the count of states before that insert (bytes() + next_growth(); state_set_test.cpp
// shows it is the peak to the byte).
struct MemorySteps {
  std::uint64_t fixed = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> peaks;  // (states before, peak bytes)
  // The most the search held with `states` states inserted.
  [[nodiscard]] std::uint64_t peak_with(std::uint64_t states) const {
    std::uint64_t p = 0;
    for (const auto& [count, bytes] : peaks) {
      if (count < states) p = std::max(p, bytes);
    }
    return fixed + p;
  }
};
inline MemorySteps memory_steps(const System& sys, std::uint64_t states) {
  MemorySteps m;
  m.fixed = std::uint64_t{model::detail::Compiled(sys, true, true, true).prefix_entries} * 8;
  const auto P = static_cast<std::uint32_t>(sys.procs.size());
  model::detail::StateSet set(P);
  std::vector<std::uint16_t> pcs(P, 0);
  for (std::uint64_t i = 0; i <= states; ++i) {
    if (const std::uint64_t g = set.next_growth(); g > 0) m.peaks.emplace_back(i, set.bytes() + g);
    pcs[0] = static_cast<std::uint16_t>(i);
    if (P > 1) pcs[1] = static_cast<std::uint16_t>(i >> 16);
    set.insert(pcs.data(), static_cast<std::uint32_t>(i), 0);
  }
  return m;
}

// Every point the input's budget can be cut at, as run_cut's `at`: each clock read of the
// uncut run, each state count, or, for memory, one byte short of each growth step's peak
// and the peak itself.
inline std::vector<std::uint64_t> cut_points(const CutInput& in, const CutRun& full) {
  std::vector<std::uint64_t> at;
  if (in.budget == CutBudget::Memory) {
    const MemorySteps m = memory_steps(full.sys, full.res.search().states);
    for (const auto& step : m.peaks) at.insert(at.end(), {m.fixed + step.second - 1, m.fixed + step.second});
    return at;
  }
  // A state budget cuts the explicit search alone (draw_cuts).
  const std::uint64_t n = in.budget == CutBudget::Time ? full.reads : full.res.search().states;
  for (std::uint64_t k = 0; k <= n; ++k) at.push_back(k);
  return at;
}

// What one cut run gets wrong against the uncut one ("" when nothing); `max_memory`: the
// memory budget it ran under (UINT64_MAX: none).
inline std::string cut_disagreement(const CutRun& full, const CutRun& cut, const CutInput& in, std::uint64_t at) {
  const CheckResult &f = full.res, &c = cut.res;
  const bool composed = in.composed;
  if (in.budget == CutBudget::Memory && at != UINT64_MAX && c.engine == Engine::Explicit &&
      memory_steps(cut.sys, c.search().states).peak_with(c.search().states) > at) {
    return "the search's memory never passes its budget";
  }
  if (c.verdict != f.verdict && c.verdict != Verdict::Budget) return "the verdict is the uncut one or BUDGET";
  if (c.exact() && (c.verdict != f.verdict || c.found_mask != f.found_mask || c.stats != f.stats)) {
    return "only the uncut result is exact";
  }
  if (failing(c.verdict) && !c.cex) return "a failing verdict comes with its counterexample";
  if (c.cex && (c.cex->kind == Verdict::Unsafe || c.cex->kind == Verdict::Deadlock || c.cex->kind == Verdict::Overflow) &&
      c.verdict != c.cex->kind) {
    return "a stopping violation found before the cut is the verdict";
  }
  if (c.cex && !replay(cut.sys, *c.cex)) return "the counterexample replays";
  if (c.global_finding && !replay(cut.sys, *c.global_finding)) return "the global finding replays";
  if (c.found_mask != 0 && !c.cex && !c.global_finding) return "what was found before the cut is reported";
  if ((c.cex && !(c.found_mask & bit(c.cex->kind))) || (c.global_finding && !(c.found_mask & bit(Verdict::GlobalUnsafe)))) {
    return "what is reported is in the mask of what was found";
  }
  if (c.verdict == Verdict::Budget && c.global_finding && !(c.cex && c.cex->kind == Verdict::GlobalUnsafe)) {
    return "a global finding in hand at BUDGET is the counterexample";
  }
  if (!c.exhaustive && c.global_finding && c.global != GlobalStatus::Broken) return "a global finding in hand says BROKEN";
  if (c.verdict == Verdict::Budget && !c.global_finding &&
      (c.global == GlobalStatus::Holds || c.global == GlobalStatus::Broken || c.global == GlobalStatus::NotReached)) {
    return "a cut run with no global finding claims nothing of the global property";  // UNKNOWN, or random's NOT_REFUTED
  }
  const bool cut_short = c.verdict == Verdict::Budget || (f.exhaustive && !c.exhaustive);  // a violation found, the rest not
  if (cut_short && (!c.note.cut || (c.note.cut->by == Stop::Time) != (in.budget == CutBudget::Time))) {
    return "the note names the budget that ran out";
  }
  if (composed && c.broke_in_round != f.broke_in_round &&
      !(c.broke_in_round == 0 && (c.verdict == Verdict::Budget || c.note.round_unmeasured))) {
    return "the round it broke in is the uncut one, or not measured and said so";
  }
  return "";
}

inline void budget_cuts_are_honest(const CutInput& in, const CutImpl& impl, Judge& j) {
  // Composed scenarios past 4 leader-rounds (milliseconds of explicit search under ASan,
  // three times) only where the judge is thorough; props/budget_cuts_test.cpp cuts such
  // scenarios at every point anyway.
  if (in.composed && in.topo.chips * in.topo.leaders * in.topo.rounds > 4) j.assume(j.thorough());
  const std::optional<CutRun> full = run_cut(in, impl, UINT64_MAX);
  j.assume(full.has_value());  // the persistent engine refuses what does not qualify
  // Two cut points, the earlier one first (thousandths of the list of points).
  const std::vector<std::uint64_t> points = cut_points(in, *full);
  j.assume(!points.empty());
  const auto at = [&](std::uint32_t permille) { return points[(points.size() - 1) * permille / 1000]; };
  const std::uint64_t k1 = std::min(at(in.first), at(in.second)), k2 = std::max(at(in.first), at(in.second));
  const std::optional<CutRun> c1 = run_cut(in, impl, k1), c2 = run_cut(in, impl, k2);
  j.require(c1 && c2, "a cut run answers as the uncut one does");
  for (const auto& [c, k] : {std::pair{&*c1, k1}, std::pair{&*c2, k2}}) {
    const std::string wrong = cut_disagreement(*full, *c, in, k);
    if (!wrong.empty()) j.fail(wrong);
  }
  j.require(!(c1->res.verdict == full->res.verdict && c2->res.verdict != full->res.verdict),
            "a cut later than one that gave the uncut verdict gives it too");
  j.tags(in.composed ? "composed" : "arbitrary", c1->res.verdict == Verdict::Budget ? "cut" : "uncut verdict");
}

// ------------------------------------------------------------------- config diff -----
// diff(a, a) is empty; a with some leaves set to new values differs from a in exactly
// those leaves, each with both values, in offset order, and the other way round mirrored.
struct LeafChange {
  std::uint32_t leaf = 0;  // index into config_leaves()
  std::uint64_t value = 0;
};
inline std::ostream& operator<<(std::ostream& os, const LeafChange& c) {
  return os << leaf_path(config_leaves()[c.leaf]) << " := " << c.value;
}
struct DiffInput {
  static constexpr bool kPropertyInput = true;
  ConfigBytes a;
  std::vector<LeafChange> changes;
};
inline DiffInput draw_diff(Source& s) {
  DiffInput in{draw_config_bytes(s), {}};
  const std::span<const Leaf> leaves = config_leaves();
  // The few leaves a diff is most likely to miss, one change in three: the gate byte's
  // bit-fields and the reserved bytes.
  static const std::vector<std::uint32_t> rare = [leaves] {
    std::vector<std::uint32_t> v;
    for (std::uint32_t i = 0; i < leaves.size(); ++i) {
      if (leaves[i].field->kind == Kind::Bits || leaves[i].field->name.starts_with("__")) v.push_back(i);
    }
    return v;
  }();
  in.changes.resize(s.below(6));
  for (LeafChange& c : in.changes) {
    c.leaf = s.weighted({2, 1}) == 1 ? rare[s.below(rare.size())] : static_cast<std::uint32_t>(s.below(leaves.size()));
    c.value = s.weighted({2, 1, 1}) == 0 ? s.any64() : s.below(4);  // anything, or small values that collide
  }
  return in;
}

using DiffFn = std::function<std::vector<FieldDiff>(const ConfigBytes&, const ConfigBytes&)>;

inline void config_diff_names_the_changed_fields(const DiffInput& in, const DiffFn& diff, Judge& j) {
  j.require(diff(in.a, in.a).empty(), "diff(a, a) is empty");
  ConfigBytes b = in.a;
  const std::span<const Leaf> leaves = config_leaves();
  for (const LeafChange& c : in.changes) set_leaf_value(b.data(), leaves[c.leaf], c.value);
  std::vector<const Leaf*> changed;  // the changed leaves whose value differs now, in offset order
  for (const Leaf& l : leaves) {
    if (leaf_value(b.data(), l) != leaf_value(in.a.data(), l)) changed.push_back(&l);
  }
  const std::vector<FieldDiff> d = diff(in.a, b), back = diff(b, in.a);
  j.require(d.size() == changed.size(), "diff(a, b) names exactly the changed fields");
  j.require(back.size() == d.size(), "diff(b, a) names as many fields");
  for (std::size_t i = 0; i < d.size(); ++i) {
    j.require(d[i].leaf == changed[i], "diff(a, b) names exactly the changed fields");
    j.require(d[i].a == leaf_value(in.a.data(), *changed[i]) && d[i].b == leaf_value(b.data(), *changed[i]),
              "each difference holds both values");
    j.require(back[i].leaf == d[i].leaf && back[i].a == d[i].b && back[i].b == d[i].a, "diff(b, a) mirrors diff(a, b)");
  }
  bool reserved = false, bits = false;
  for (const FieldDiff& f : d) {
    reserved = reserved || f.reserved();
    bits = bits || f.leaf->field->kind == Kind::Bits;
  }
  j.classify(reserved, "a reserved field changed");
  j.classify(bits, "a bit-field changed");
  j.classify(changed.size() < in.changes.size(), "a change that changed nothing (or the same leaf twice)");
}

// ------------------------------------------------------------ composed as files -----
// compose -> files -> read back is the composition compose made, and deciding it is what
// deciding the topology gives: the same verdict, kinds, global line, broke-in-round and
// counterexample.
struct ComposedFilesInput {
  static constexpr bool kPropertyInput = true;
  Topology topo;
  Hypotheses hyp;
  GuaranteeMode guarantee = GuaranteeMode::Global;
  bool logs = false;
};
inline ComposedFilesInput draw_composed_files(Source& s) {
  ComposedFilesInput in;
  in.topo = draw_topology(s, 8, 3);
  in.topo.wiring = s.element({Wiring::PerPeer, Wiring::Counting});
  in.topo.lowering = s.element({Lowering::Table, Lowering::ArriveWait, Lowering::Hierarchical});
  // Each reading other than the default one time in four: most of them deadlock.
  const auto other = [&s] { return s.weighted({3, 1}) == 1; };
  in.hyp.compare = other() ? Compare::Gt : Compare::Ge;
  in.hyp.dec = other() ? DecMode::Target : DecMode::One;
  in.hyp.roles = other() ? Roles::Narrative : Roles::Code;
  in.hyp.host_addrs = other() ? HostAddrs::Config : HostAddrs::Ctx;
  in.hyp.proxy = !other();
  in.guarantee = s.element({GuaranteeMode::Global, GuaranteeMode::Declared});
  in.logs = s.weighted({7, 1}) == 1;  // 32 JSON logs cost more than the rest of a case
  return in;
}

struct FilesImpl {
  std::function<Result<std::vector<NamedFile>>(const Scenario&, bool)> write = composed_files;
  std::function<Result<Manifest>(std::string_view)> read = read_manifest;
  std::function<Result<Composition>(const Manifest&, std::span<const std::string>)> make = composition_of;
};

inline void composed_files_decide_as_the_topology(const ComposedFilesInput& in, const FilesImpl& impl, Judge& j) {
  Scenario s;
  s.topo = in.topo;
  s.hyp = in.hyp;
  s.run.check.guarantee = in.guarantee;
  s.run.check.max_states = j.thorough() ? 2'000'000 : 200'000;
  Result<std::vector<NamedFile>> files = impl.write(s, in.logs);
  j.require(files.ok(), "compose writes its files");
  const auto named = [&](std::string_view name) -> NamedFile* {
    for (NamedFile& f : *files) {
      if (f.name == name) return &f;
    }
    return nullptr;
  };
  const NamedFile* manifest = named(kManifestName);
  j.require(manifest != nullptr, "a manifest is written");
  const Result<Manifest> m = impl.read(manifest->bytes);
  j.require(m.ok(), "the manifest reads back");
  std::vector<std::string> bytes;
  for (const ManifestEntry& e : m->entries) {
    NamedFile* f = named(e.file);
    j.require(f != nullptr, "every file the manifest names is written");
    bytes.push_back(std::move(f->bytes));  // read once: the file's name stays
    j.require(!e.log.has_value() || (in.logs && named(*e.log) != nullptr), "a log is written when asked, beside its image");
  }
  j.require(m->topo == in.topo && m->hyp == in.hyp && m->guarantee == in.guarantee, "the manifest holds the options");
  Result<Composition> comp = impl.make(*m, bytes);
  j.require(comp.ok(), "the files make a composition");
  const Result<Composition> direct = compose(in.topo);
  j.require(direct.ok() && comp->topo == direct->topo && comp->configs == direct->configs &&
                comp->guarantee == direct->guarantee && comp->contexts.size() == direct->contexts.size(),
            "the files make the composition they came from");
  for (std::size_t c = 0; c < comp->contexts.size(); ++c) {
    j.require(comp->contexts[c].bytes == direct->contexts[c].bytes, "the files make the composition they came from");
  }
  // The same composition decides the same (one lowering, deterministic engines): both
  // decided where the judge is thorough (rapidcheck, the ctest replay, a sample of the
  // fuzz inputs), which keeps the fuzz target past 1,000 executions a second.
  if (!j.thorough()) return;
  Scenario from_files = s;
  from_files.composition = std::move(*comp);
  const Result<ScenarioResult> a = run_scenario(s), b = run_scenario(from_files);
  j.require(a.ok() && b.ok(), "both decide");
  const CheckResult &x = a->result, &y = b->result;
  j.assume(x.verdict != Verdict::Budget && y.verdict != Verdict::Budget);
  j.require(y.verdict == x.verdict && y.found_mask == x.found_mask, "the same verdict and kinds from the files");
  j.require(y.global == x.global && y.broke_in_round == x.broke_in_round, "the same global line and broke-in-round");
  j.require(y.cex.has_value() == x.cex.has_value() && (!x.cex || (y.cex->trace.size() == x.cex->trace.size() && y.cex->what == x.cex->what)),
            "the same counterexample");
  j.tags(verdict_name(x.verdict), in.topo.chips * in.topo.leaders > 8 ? "more than 8 leaders" : "up to 8 leaders");
}

}  // namespace neffbar::props
