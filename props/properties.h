// P1..P11 (props/README.md) as functions of the implementation they test, so the same body
// runs against the real code (properties_test.cpp) and against deliberately broken
// implementations, where it must fail (teeth_test.cpp).
#pragma once

#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <algorithm>
#include <functional>
#include <map>

#include "generators.h"
#include "neffbar/json_log.h"
#include "testing/arbitrary_system.h"
#include "testing/reference_checker.h"
#include "neffbar/model/checker.h"
#include "neffbar/model/persistent.h"
#include "neffbar/model/faults.h"
#include "neffbar/model/oracle.h"
#include "neffbar/model/scenario.h"
#include "neffbar/search.h"
#include "testing/semaphore_model.h"
#include "show.h"

namespace neffbar::props {

using namespace neffbar::model;

// ------------------------------------------------------------------ P1 round trip --
struct CodecImpl {
  std::function<BarrierConfigs(const ConfigBytes&)> decode = [](const ConfigBytes& b) { return *neffbar::decode(b); };
  std::function<ConfigBytes(const BarrierConfigs&)> encode = [](const BarrierConfigs& c) { return neffbar::encode(c); };
  std::function<std::string(const ConfigBytes&)> full_log = [](const ConfigBytes& b) { return write_log(b, LogMode::Full); };
};

inline void p1_round_trip(const CodecImpl& impl) {
  const ConfigBytes b = *gen_config_bytes();
  RC_ASSERT(impl.encode(impl.decode(b)) == b);
  const BarrierConfigs c = *gen_logical<BarrierConfigs>();
  RC_ASSERT(impl.decode(impl.encode(c)) == c);
  const Result<ConfigBytes> back = read_log(impl.full_log(b));
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == b);
  RC_CLASSIFY(b[kGateOffset] & 1, "gate set");
  RC_CLASSIFY((b[kGateOffset] >> 1) != 0 || b[0x125] || b[0x126] || b[0x127], "reserved non-zero");
}

// ------------------------------------------------------------------ P2 overlay -----
using HostViewFn = std::function<HostBarrierConfig(const ConfigBytes&)>;

inline void p2_overlay(const HostViewFn& host_view) {
  const ConfigBytes b = *gen_config_bytes();
  const BarrierConfigs c = *decode(b);
  const HostBarrierConfig h = host_view(b);
  const StepConfig& s0 = c.device_barrier.barrier_step_config[0];
  // The overlay laws (core/neffbar/README.md "Layout"), written out independently of host_view_by_overlay.
  RC_ASSERT(h.barrier_start == (s0.m2s_val | std::uint64_t{s0.s2m_val} << 16 | (s0.barrier_sema[0] & 0xFFFFFFFFu) << 32));
  RC_ASSERT(h.barrier_done == ((s0.barrier_sema[0] >> 32) | (s0.barrier_sema[1] & 0xFFFFFFFFu) << 32));
  RC_ASSERT(h == host_view_by_overlay(c.device_barrier));
  RC_CLASSIFY(s0.barrier_sema[0] != 0, "step-0 lane 0 used");
}

// ------------------------------------------------------------------ P3 search ------
using FastSearchFn = std::function<std::optional<SearchHit>(const TableImage&, std::int64_t, std::int64_t)>;
inline std::optional<SearchHit> real_fast(const TableImage& t, std::int64_t type, std::int64_t step) {
  return FastTable::build(t).find(type, step);
}

inline void p3_search_agreement(const FastSearchFn& fast) {
  const bool shipped = *rc::gen::arbitrary<bool>();
  const TableImage t = shipped ? table_for(*rc::gen::element(Fabric::Default, Fabric::Switch)) : *gen_table_image();
  std::int64_t type = *gen_query_int();
  std::int64_t step = *gen_query_int();
  if (*rc::gen::arbitrary<bool>()) {  // ask for a type the row really holds (found, duplicates)
    step = *rc::gen::inRange<std::int64_t>(0, kSteps);
    type = entry_at(t, static_cast<int>(step), *rc::gen::inRange(0, kEntries)).type;
  }
  const auto a = search_faithful(t, type, step);
  RC_ASSERT(a == fast(t, type, step));
  RC_CLASSIFY(a.has_value(), "found");
  RC_CLASSIFY(step < 0 || step > 3 || type < 0 || type > 6, "out of range");
  RC_CLASSIFY(std::any_of(t.sizes.begin(), t.sizes.end(), [](auto s) { return s > 4; }), "size > 4");
  bool duplicate = false;
  for (int i = 0; i < kEntries && step >= 0 && step < kSteps; ++i) {
    for (int j = 0; j < i; ++j) {
      duplicate = duplicate || (entry_at(t, static_cast<int>(step), i).type == static_cast<std::uint64_t>(type) &&
                                entry_at(t, static_cast<int>(step), j).type == static_cast<std::uint64_t>(type));
    }
  }
  RC_CLASSIFY(duplicate, "queried type duplicated in the row");
}

// ------------------------------------------------------------------ P4 tables ------
inline void table_shape(const TableImage& t) {
  RC_ASSERT(t.sizes[0] == 1 && t.sizes[3] == 1);
  RC_ASSERT(entry_at(t, 0, 0) == (TableEntry{0, 0}));
  RC_ASSERT(entry_at(t, 3, 0) == (TableEntry{0, 1}));
  RC_ASSERT(t.sizes[1] == t.sizes[2]);
  for (int s = 0; s < kSteps; ++s) {
    for (int e = 0; e < kEntries; ++e) {
      const TableEntry x = entry_at(t, s, e);
      if (e >= t.sizes[static_cast<std::size_t>(s)]) {
        RC_ASSERT(x == (TableEntry{7, 2}));  // pads
        continue;
      }
      RC_ASSERT(x.op == (s < 2 ? 0u : 1u));  // ENTRY in 0-1, EXIT in 2-3
      if (s == 2) RC_ASSERT(x.type == entry_at(t, 1, e).type);  // step 2 mirrors step 1
      for (int f = 0; f < e; ++f) RC_ASSERT(entry_at(t, s, f).type != x.type);  // distinct
    }
  }
}

// Topologies both fabrics express: the switch fabric has two tier lanes (chips c^1, c^2).
inline void p4_fabrics_agree(const std::function<Result<Composition>(const Topology&)>& composer,
                             const TableImage& sw = kSwitchTable) {
  table_shape(kDefaultTable);
  table_shape(sw);
  Topology t = *gen_topology(4, 2);
  for (Fabric f : {Fabric::Default, Fabric::Switch}) {
    t.fabric = f;
    const Result<Composition> comp = composer(t);
    RC_ASSERT(comp.ok());
    const Lowered low = *lower_with_hints(*comp, {});
    CheckOptions o;
    o.guarantee = GuaranteeMode::Declared;
    o.symmetry_hints = low.hints;
    const Verdict v = check(low.system, o).verdict;
    RC_ASSERT(v == Verdict::Ok);
  }
  RC_TAG(t.chips, t.leaders);
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

inline void p5_deadlock_freedom(const std::function<Result<Composition>(const Topology&)>& composer) {
  const Topology t = *gen_topology(4, 2);
  const Result<Composition> comp = composer(t);
  RC_ASSERT(comp.ok());
  const Lowered low = *lower_with_hints(*comp, {});
  const System& sys = low.system;
  CheckOptions o;
  o.guarantee = GuaranteeMode::Declared;
  o.symmetry_hints = low.hints;
  const CheckResult r = check(sys, o);
  RC_ASSERT(r.verdict == Verdict::Ok);  // no DEADLOCK, UNSAFE, NOT_REUSABLE
  // One chip; or every chip pair directly linked and either the hierarchical order or
  // one leader per chip (then the table order's guarantee already names everybody).
  const bool global_expected =
      t.chips == 1 || (all_pairs_linked(t.chips, t.fabric) && (t.lowering == Lowering::Hierarchical || t.leaders == 1));
  RC_ASSERT(!r.global_finding.has_value() == global_expected);
  RC_CLASSIFY(global_expected, "global property holds");
  RC_TAG(t.chips, name(t.lowering));
}

// The checker is not vacuous: each fault gives a failing verdict with a counterexample
// that replays.
inline void p5_faults_are_caught(const std::function<CheckResult(const System&)>& checker) {
  Topology t = *gen_topology(2, 1);
  t.leaders = std::max<std::uint32_t>(t.leaders, 2);
  const Fault f = *rc::gen::element(Fault::RaiseThreshold, Fault::ZeroLane, Fault::DoubleSignal, Fault::None);
  Hypotheses h;
  Composition comp = *compose(t);
  if (f == Fault::None) {
    t.host_cc = false;  // "dropping the proxy"
    comp = *compose(t);
    h.proxy = false;
  } else if (f == Fault::DoubleSignal) {
    t.leaders = std::min<std::uint32_t>(t.leaders, 3);  // needs a free lane
    t.rounds = 2;                                          // caught at rounds 2
    comp = *compose(t);
  }
  const auto leader = *rc::gen::inRange<std::uint32_t>(0, t.chips * t.leaders);
  RC_PRE(inject(comp, f, leader));
  const System sys = *lower(comp, h);
  const CheckResult r = checker(sys);
  RC_ASSERT(r.verdict != Verdict::Ok);
  RC_ASSERT(r.cex.has_value());
  RC_ASSERT(replay(sys, *r.cex));
  RC_TAG(name(f), verdict_name(r.verdict));
}

// ------------------------------------------------------------------ P6 AND ---------
// With only the leaders in S (plus p) released, p departs iff S covers p's guarantee.
inline void p6_all_leaders_and(const std::function<Result<Composition>(const Topology&)>& composer) {
  Topology t = *gen_topology(4, 1);
  t.host_cc = true;
  const Composition comp = *composer(t);
  const System sys = *lower(comp, {});
  const std::uint32_t n = t.chips * t.leaders;
  const auto p = *rc::gen::inRange<std::uint32_t>(0, n);
  std::vector<std::uint32_t> hold(sys.procs.size(), UINT32_MAX);
  bool covered = true;
  for (std::uint32_t q = 0; q < n; ++q) {
    if (q == p) continue;
    const bool released = *rc::gen::weightedOneOf<bool>({{4, rc::gen::just(true)}, {1, rc::gen::just(false)}});
    if (!released) hold[q] = 0;  // never starts: never arrives
    const auto& g = comp.guarantee[p];
    if (!released && std::find(g.begin(), g.end(), q) != g.end()) covered = false;
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
  RC_ASSERT((pcs[p] > depart) == covered);
  RC_CLASSIFY(covered, "all arrivals");
}

// ------------------------------------------------------------------ P7 merge -------
using HostCcFn = std::function<Result<bool>(std::span<const std::uint8_t>)>;

inline void p7_host_cc_merge(const HostCcFn& host_cc) {
  const std::vector<std::uint8_t> ctx = *gen_ctx_blob();
  const Result<std::vector<std::uint64_t>> addrs = leader_done_inc_addrs(ctx);
  const Result<bool> hcc = host_cc(ctx);
  if (!addrs.ok()) {
    // (RC_ASSERT decomposes its expression and would evaluate both sides of ||.)
    const bool explained = ctx.size() < ctx_layout::kMinSize || load_le(ctx.data() + ctx_layout::kLeaderCount, 4) > 4;
    RC_ASSERT(explained);
    RC_TAG("rejected");
    return;
  }
  RC_ASSERT(hcc.ok());
  const SemaMapping m;
  for (std::size_t i = 0; i < addrs->size(); ++i) {
    const std::uint64_t base = *sp_sema_base(ctx, static_cast<std::uint32_t>(i));
    const std::uint64_t host_done = base + m.sema_offset(static_cast<std::uint32_t>(SemaId::HostBarrierId0), Window::Inc);
    RC_ASSERT((addrs->at(i) == host_done) == *hcc);
  }
  RC_TAG(*hcc ? "host-cc" : "not host-cc", ctx[ctx_layout::kHostCc] > 1 ? "byte > 1" : "byte 0/1");
}

// ------------------------------------------------------------------ P8 arithmetic --
inline void p8_sema_id_arithmetic(const std::function<std::uint32_t(std::uint8_t)>& from_al, const HostCcFn& host_cc) {
  const auto al = *rc::gen::arbitrary<std::uint8_t>();
  // Independent model of cmp al,1 / sbb / and ~3 / add 6: CF is (al <u 1).
  const std::uint32_t cf = al == 0 ? 1u : 0u;
  RC_ASSERT(from_al(al) == (((0u - cf) & ~3u) + 6u));
  std::vector<std::uint8_t> ctx(ctx_layout::kHostCc + 1 + *rc::gen::inRange<std::size_t>(0, 16), 0);
  ctx[ctx_layout::kHostCc] = *rc::gen::weightedOneOf<std::uint8_t>(
      {{1, rc::gen::element<std::uint8_t>(0, 1, 2)}, {1, rc::gen::arbitrary<std::uint8_t>()}});
  RC_ASSERT(*host_cc(ctx) == (ctx[ctx_layout::kHostCc] == 1));
  RC_CLASSIFY(ctx[ctx_layout::kHostCc] > 1, "byte > 1");
}

// ------------------------------------------------------------------ P9 reuse -------
inline void p9_reusability(const std::function<Result<Composition>(const Topology&)>& composer) {
  Topology t = *gen_topology(2, 3);
  t.wiring = *rc::gen::element(Wiring::PerPeer, Wiring::Counting);
  Hypotheses h;
  h.dec = *rc::gen::element(DecMode::One, DecMode::Target);
  CheckOptions o;
  o.guarantee = GuaranteeMode::Declared;  // C7 is P5's business
  auto verdict = [&](std::uint32_t rounds, std::vector<std::int32_t>* final_values) {
    Topology k = t;
    k.rounds = rounds;
    const System sys = *lower(*composer(k), h);
    if (final_values) max_progress(sys, std::vector<std::uint32_t>(sys.procs.size(), UINT32_MAX), *final_values);
    return check(sys, o).verdict;
  };
  std::vector<std::int32_t> vals;
  const Verdict v = verdict(t.rounds, &vals);
  // A counter waited >= L and decremented by 1 keeps L-1 (C5); the tier counter has at
  // most one partner with chips <= 2.
  const bool residue_expected = t.wiring == Wiring::Counting && h.dec == DecMode::One && t.leaders > 1;
  if (residue_expected) {
    RC_ASSERT(v == Verdict::NotReusable || v == Verdict::Unsafe);
    RC_ASSERT(verdict(1, nullptr) == Verdict::NotReusable);  // it breaks in round 1
  } else {
    RC_ASSERT(v == Verdict::Ok);
    for (std::int32_t x : vals) RC_ASSERT(x == 0);  // back at the initial values after k rounds
  }
  RC_TAG(name(t.wiring), name(h.dec), t.rounds);
}

// ------------------------------------------------------------------ P10 machine ----
// The independent model is ReferenceSemaphores (semaphore_model.h).
using ModelFile = ReferenceSemaphores;
using ApplyFn = std::function<Outcome(std::span<std::int32_t>, const SemaOp&, Compare)>;

// The implementation under test for the commands of the current p10 run, and what the
// run reached (for the classification).
inline thread_local const ApplyFn* current_apply = nullptr;
inline thread_local std::array<int, 3> outcomes_seen{};

struct OpCommand : rc::state::Command<ModelFile, std::vector<std::int32_t>> {
  SemaOp op = *gen_sema_op(3);
  Compare cmp = *rc::gen::element(Compare::Ge, Compare::Gt);

  void apply(ModelFile& m) const override { m.apply(op, cmp); }
  void run(const ModelFile& m, std::vector<std::int32_t>& sut) const override {
    const Outcome got = (*current_apply)(sut, op, cmp);
    RC_ASSERT(got == m.outcome(op, cmp));
    ModelFile after = m;
    after.apply(op, cmp);
    for (std::uint32_t s = 0; s < sut.size(); ++s) RC_ASSERT(sut[s] == after.value(s));
    ++outcomes_seen[static_cast<std::size_t>(got)];
  }
  void show(std::ostream& os) const override {
    os << prim_name(op.prim) << "(s" << op.sema << ", " << op.value << ", dec " << op.dec << ", "
       << (cmp == Compare::Ge ? ">=" : ">") << ")";
  }
};

inline void p10_semaphore_machine(const ApplyFn& sut_apply) {
  ModelFile model;
  std::vector<std::int32_t> sut(3, 0);
  // Sometimes start near the edges so overflow is reachable.
  if (*rc::gen::arbitrary<bool>()) {
    sut[0] = INT32_MAX - 1;
    model.set(0, INT32_MAX - 1);
  }
  current_apply = &sut_apply;
  outcomes_seen = {};
  rc::state::check(model, sut, rc::state::gen::execOneOfWithArgs<OpCommand>());
  RC_CLASSIFY(outcomes_seen[static_cast<std::size_t>(Outcome::Blocked)] > 0, "a primitive blocked");
  RC_CLASSIFY(outcomes_seen[static_cast<std::size_t>(Outcome::Overflow)] > 0, "an overflow was reported");
}

// ------------------------------------------------------------------ P11 oracle -----
using OracleFn = std::function<std::optional<std::uint32_t>(const System&)>;

inline void p11_oracle_agrees(const OracleFn& oracle) {
  Topology t = *gen_topology(3, 2);
  t.wiring = *rc::gen::element(Wiring::PerPeer, Wiring::Counting);
  if (t.chips * t.leaders > 6) t.leaders = 1;
  Hypotheses h;
  h.dec = *rc::gen::element(DecMode::One, DecMode::Target);
  h.proxy = *rc::gen::arbitrary<bool>();
  h.compare = *rc::gen::element(Compare::Ge, Compare::Gt);
  Composition comp = *compose(t);
  const Fault f = *rc::gen::element(Fault::None, Fault::RaiseThreshold, Fault::ZeroLane, Fault::DoubleSignal);
  inject(comp, f, *rc::gen::inRange<std::uint32_t>(0, t.chips * t.leaders));
  const System sys = *lower(comp, h);
  const auto o = oracle(sys);
  RC_PRE(o.has_value());
  CheckOptions all;
  all.collect_all = true;
  const std::uint32_t mask = bit(Verdict::Deadlock) | bit(Verdict::Unsafe) | bit(Verdict::GlobalUnsafe) | bit(Verdict::NotReusable);
  const std::uint32_t got = check(sys, all).found_mask & mask;
  RC_ASSERT((*o & mask) == got);
  RC_TAG(name(f), got == 0 ? "ok" : "failing");
}

// ------------------------------------------------- persistent engine agreement -----
// On arbitrary small systems (arbitrary.h: equality of the wait, GT, several rounds,
// DEPARTs of rounds nobody arrives in, initial values next to the int32 limits): the
// persistent engine answers exactly the systems that qualify, and there finds exactly
// the failure kinds the unreduced explicit search finds, with counterexamples that replay.
using PersistentFn = std::function<Result<CheckResult>(const System&, const PersistentOptions&)>;

inline void persistent_engine_agrees(const PersistentFn& engine) {
  const System sys = arbitrary_system([](std::uint32_t n) { return *rc::gen::inRange<std::uint32_t>(0, n); });
  PersistentOptions o;
  o.collect_all = true;
  const Result<CheckResult> p = engine(sys, o);
  RC_ASSERT(p.ok() == qualify(sys).ok);
  RC_PRE(p.ok());
  CheckOptions bare;
  bare.reduce = bare.por = bare.symmetry = false;
  bare.collect_all = true;
  const CheckResult e = check(sys, bare);
  RC_PRE(e.verdict != Verdict::Budget);
  RC_ASSERT(p->found_mask == e.found_mask);
  if (p->cex) RC_ASSERT(replay(sys, *p->cex));
  if (p->global_finding) RC_ASSERT(replay(sys, *p->global_finding));
  RC_TAG(e.found_mask == 0 ? "ok" : "failing");
}

// --------------------------------------------- reductions against the reference -----
// On arbitrary small systems, not only persistent ones (equality waits, several
// consumers, int32 limits), with symmetry hints that may claim a symmetry that is not
// there: each combination of the explicit search's reductions finds exactly the failure
// kinds of the reference checker (core/testing/reference_checker.h).
using CheckFn = std::function<CheckResult(const System&, const CheckOptions&)>;

inline void reductions_agree_with_the_reference(const CheckFn& checker) {
  ArbitraryShape shape;
  shape.persistent_only = false;
  const auto pick = [](std::uint32_t n) { return *rc::gen::inRange<std::uint32_t>(0, n); };
  const System sys = arbitrary_system(pick, shape);
  const testing::ReferenceResult ref = testing::reference_check(sys, 20'000);
  RC_PRE(ref.complete);
  CheckOptions o;
  o.collect_all = true;
  o.reduce = *rc::gen::arbitrary<bool>();
  o.por = *rc::gen::arbitrary<bool>();
  o.symmetry = *rc::gen::arbitrary<bool>();
  o.symmetry_hints = arbitrary_hints(sys, pick);
  const CheckResult r = checker(sys, o);
  RC_PRE(r.verdict != Verdict::Budget);
  RC_ASSERT(r.found_mask == ref.found_mask);
  if (r.cex) RC_ASSERT(replay(sys, *r.cex));
  RC_TAG(o.reduce ? "lipton" : "unreduced", ref.found_mask == 0 ? "ok" : "failing");
}

}  // namespace neffbar::props
