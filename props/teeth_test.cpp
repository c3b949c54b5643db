// Every property has teeth: plugged into a deliberately broken implementation, it
// FAILS.  (A property that passes here would pass whatever the code does.)
#include <gtest/gtest.h>

#include <string_view>
#include <rapidcheck/state.h>

#include "properties.h"
#include "rc_driver.h"

namespace neffbar::props {
namespace {

// Teeth failures are expected: keep them out of rapidcheck's "to reproduce" summary.
struct QuietListener : rc::detail::TestListener {
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// True when the property fails at the named check (the text its Judge::require names), so a teeth test
// cannot pass on an unrelated failure (an exception, a different assertion); otherwise
// the failure says what happened instead.
template <class Prop>
::testing::AssertionResult property_fails(std::string_view check, Prop&& prop, int cases = 300) {
  rc::detail::TestParams params;
  params.maxSuccess = cases;
  params.seed = 20261130;
  params.disableShrinking = true;  // we only need the failure, not the smallest one
  rc::detail::TestMetadata md;
  md.id = "teeth";
  md.description = "teeth";
  QuietListener quiet;
  const auto result = rc::detail::checkProperty(rc::detail::toProperty(std::forward<Prop>(prop)), md, params, quiet);
  rc::detail::FailureResult failure;
  if (!result.match(failure)) return ::testing::AssertionFailure() << "the property did not fail";
  if (failure.description.find(check) == std::string::npos) {
    return ::testing::AssertionFailure() << "failed elsewhere than " << check << ":\n" << failure.description;
  }
  return ::testing::AssertionSuccess();
}


// Runs property `law` (bound to a broken implementation) on inputs from `draw`.
template <class In, class Law>
auto prop(In (*draw)(Source&), Law law) {
  return [draw, law] { rc_run(draw, law); };
}

TEST(Teeth, P1_EncodeDroppingAReservedByte) {
  CodecImpl broken;
  broken.encode = [](const BarrierConfigs& c) {
    ConfigBytes b = encode(c);
    b[0x126] = 0;
    return b;
  };
  EXPECT_TRUE(property_fails("encode(decode(bytes)) == bytes",
                             prop(draw_p1, [&](const P1Input& in, Judge& j) { p1_round_trip(in, broken, j); })));
  CodecImpl log_broken;
  log_broken.full_log = [](const ConfigBytes& b) { return write_log(b, LogMode::Default); };  // not lossless
  EXPECT_TRUE(property_fails("read_log(full log) == bytes",
                             prop(draw_p1, [&](const P1Input& in, Judge& j) { p1_round_trip(in, log_broken, j); })));
  // and the real one passes
  EXPECT_FALSE(property_fails("", prop(draw_p1, [](const P1Input& in, Judge& j) { p1_round_trip(in, CodecImpl{}, j); }), 50));
}

TEST(Teeth, P2_OverlayShiftedByOneByte) {
  const HostViewFn shifted = [](const ConfigBytes& b) {
    HostBarrierConfig h;
    h.barrier_start = load_le(b.data() + 1, 8);
    h.barrier_done = load_le(b.data() + 9, 8);
    return h;
  };
  EXPECT_TRUE(property_fails("barrier_start overlays step 0",
                             prop(draw_p2, [&](const P2Input& in, Judge& j) { p2_overlay(in, shifted, j); })));
}

TEST(Teeth, P3_SearchReturningTheLastMatch) {
  const FastSearchFn last_match = [](const TableImage& t, std::int64_t type, std::int64_t step) -> std::optional<SearchHit> {
    if (step < 0 || step > 3 || type < 0 || type > 6) return std::nullopt;
    std::optional<SearchHit> last;
    const int n = std::min<int>(t.sizes[static_cast<std::size_t>(step)], 4);
    for (int i = 0; i < n; ++i) {
      const TableEntry e = entry_at(t, static_cast<int>(step), i);
      if (e.type == static_cast<std::uint32_t>(type)) last = SearchHit{e.op, i};
    }
    return last;
  };
  EXPECT_TRUE(property_fails("faithful search == fast search",
                             prop(draw_p3, [&](const P3Input& in, Judge& j) { p3_search_agreement(in, last_match, j); })));
}

TEST(Teeth, P4_SwitchTableWithAnEntryStepTwo) {
  TableImage bad = kSwitchTable;
  store_le(bad.steps.data() + 2 * 0x20 + 4, 4, 0);  // step 2 entry 0: EXIT -> ENTRY
  EXPECT_TRUE(property_fails("ENTRY in steps 0-1, EXIT in 2-3", prop(draw_p4, [&](const TopologyInput& in, Judge& j) {
                               p4_fabrics_agree(in, real_compose, j, bad);
                             }), 20));
}

// A composer that drops one lane: the last leader's last step-3 wait.
Result<Composition> drop_one_lane(const Topology& t) {
  Result<Composition> c = compose(t);
  BarrierConfigs cfg = *decode(c->configs.back());
  auto& s3 = cfg.device_barrier.barrier_step_config[3];
  for (std::size_t i = 4; i-- > 0;) {
    if (s3.barrier_sema[i] != 0 && (c->topo.leaders > 1)) {
      s3.barrier_sema[i] = 0;
      break;
    }
  }
  c->configs.back() = encode(cfg);
  return c;
}

// The composition half of P4: the shipped tables (so the shape checks pass) and a
// composer that, on the switch fabric only, raises every leader's first step-3 threshold: the
// switch composition deadlocks where the default one does not.
TEST(Teeth, P4_SwitchCompositionBroken) {
  const Composer broken_switch = [](const Topology& t) {
    Result<Composition> c = compose(t);
    if (!c || t.fabric != Fabric::Switch) return c;
    for (ConfigBytes& bytes : c->configs) {
      BarrierConfigs cfg = *decode(bytes);
      auto& s3 = cfg.device_barrier.barrier_step_config[3];
      if (s3.barrier_sema[0] != 0) ++s3.target_sema_val[0];
      bytes = encode(cfg);
    }
    return c;
  };
  EXPECT_TRUE(property_fails("composed on either fabric: OK", prop(draw_p4, [&](const TopologyInput& in, Judge& j) {
                               p4_fabrics_agree(in, broken_switch, j);
                             }), 20));
}

TEST(Teeth, P5_ComposerDroppingALane) {
  // Caught by the persistent engine, the check every fuzz input runs (the explicit search
  // only runs where the judge is thorough).
  EXPECT_TRUE(property_fails("composed: no DEADLOCK, UNSAFE, NOT_REUSABLE (persistent engine)", prop(draw_p5, [](const TopologyInput& in, Judge& j) {
                               p5_deadlock_freedom(in, drop_one_lane, j);
                             }), 100));
}

TEST(Teeth, P5_ACheckerThatSaysOk) {
  EXPECT_TRUE(property_fails("a fault gives a failing verdict", prop(draw_p5_faults, [](const P5FaultInput& in, Judge& j) {
                               p5_faults_are_caught(in, [](const System&) { return CheckResult{}; }, j);
                             }), 50));
}

TEST(Teeth, P6_WaitsWithThresholdZero) {
  const Composer no_wait = [](const Topology& t) {
    Result<Composition> c = compose(t);
    for (auto& bytes : c->configs) {
      BarrierConfigs cfg = *decode(bytes);
      cfg.device_barrier.barrier_step_config[3].target_sema_val = {0, 0, 0, 0};
      bytes = encode(cfg);
    }
    return c;
  };
  EXPECT_TRUE(property_fails("p departs iff every leader of its guarantee arrived",
                             prop(draw_p6, [&](const P6Input& in, Judge& j) { p6_all_leaders_and(in, no_wait, j); }), 200));
}

TEST(Teeth, P7_HostCcAsNonZero) {
  const HostCcFn nonzero = [](std::span<const std::uint8_t> ctx) -> Result<bool> {
    if (ctx.size() <= 0x231) return is_host_cc(ctx);  // same error for short blobs
    return ctx[0x231] != 0;
  };
  EXPECT_TRUE(property_fails("leader done address == host barrier_done iff host-CC",
                             prop(draw_p7, [&](const CtxInput& in, Judge& j) { p7_host_cc_merge(in, nonzero, j); })));
}

TEST(Teeth, P8_WrongCarryAndNonZeroHostCc) {
  EXPECT_TRUE(property_fails("sema id == (-(al <u 1) & ~3) + 6", prop(draw_p8, [](const P8Input& in, Judge& j) {
                               p8_sema_id_arithmetic(in, [](std::uint8_t al) { return al <= 1 ? 2u : 6u; }, is_host_cc, j);  // cmp al,2
                             })));
  EXPECT_TRUE(property_fails("is_host_cc == (ctx[0x231] == 1)", prop(draw_p8, [](const P8Input& in, Judge& j) {
                               p8_sema_id_arithmetic(in, leader_done_sema_id_from_al,
                                                     [](std::span<const std::uint8_t> c) -> Result<bool> { return c[0x231] != 0; }, j);
                             })));
}

TEST(Teeth, P9_DecrementOneWithThresholdTwo) {
  // A composer that always wires counters (threshold L >= 2) while the machine
  // decrements by 1: the residue must be caught.
  const Composer counting = [](const Topology& t) {
    Topology c = t;
    c.wiring = Wiring::Counting;
    return compose(c);
  };
  EXPECT_TRUE(property_fails("k rounds: OK", prop(draw_p9, [&](const P9Input& in, Judge& j) { p9_reusability(in, counting, j); }), 100));
}

TEST(Teeth, P10_GtInsteadOfGe) {
  const ApplyFn gt = [](std::span<std::int32_t> f, const SemaOp& op, Compare) { return apply(f, op, Compare::Gt); };
  EXPECT_TRUE(property_fails("machine outcome == model outcome",
                             prop(draw_p10, [&](const P10Input& in, Judge& j) { p10_semaphore_machine(in, gt, j); })));
  const ApplyFn wraps = [](std::span<std::int32_t> f, const SemaOp& op, Compare c) {  // instead of reporting overflow
    if (op.prim == Prim::Inc && f[op.sema] == INT32_MAX) {
      f[op.sema] = INT32_MIN;
      return Outcome::Done;
    }
    return apply(f, op, c);
  };
  EXPECT_TRUE(property_fails("machine outcome == model outcome",
                             prop(draw_p10, [&](const P10Input& in, Judge& j) { p10_semaphore_machine(in, wraps, j); })));
}

TEST(Teeth, P11_OracleIgnoringThresholds) {
  const OracleFn blind = [](const System& s) -> std::optional<std::uint32_t> {
    return oracle_applies(s) ? std::optional<std::uint32_t>(0) : std::nullopt;
  };
  EXPECT_TRUE(property_fails("the oracle's failure kinds == the checker's",
                             prop(draw_p11, [&](const P11Input& in, Judge& j) { p11_oracle_agrees(in, blind, j); }), 200));
}

TEST(Teeth, ReductionsMissingADeadlock) {  // a search that stops looking for dead ends
  const CheckFn blind = [](const System& s, const CheckOptions& o) {
    CheckResult r = check_explicit(s, o);
    r.found_mask &= ~bit(Verdict::Deadlock);
    return r;
  };
  EXPECT_TRUE(property_fails("every reduction finds the reference checker's failure kinds",
                             prop(draw_reductions, [&](const ReductionInput& in, Judge& j) {
                               reductions_agree_with_the_reference(in, blind, j);
                             })));
}

TEST(Teeth, PersistentEngineIgnoringTheCompare) {  // GT read as GE: the equality of the wait slips
  // Its counterexamples are dropped: they would fail the replay check (of the GE system)
  // first on some inputs, and this tooth is the failure kinds' check.
  const PersistentFn ge = [](const System& s, const PersistentOptions& o) {
    System g = s;
    g.compare = Compare::Ge;
    Result<CheckResult> r = check_persistent(g, o);
    if (r) r->cex = r->global_finding = std::nullopt;
    return r;
  };
  EXPECT_TRUE(property_fails("an exact engine finds every failure kind the other found",
                             prop(draw_persistent, [&](const SystemInput& in, Judge& j) { persistent_engine_agrees(in, ge, j); })));
}

TEST(Teeth, PersistentEngineMissingResidues) {  // a free run that forgets the values
  const PersistentFn forgets = [](const System& s, const PersistentOptions& o) {
    Result<CheckResult> r = check_persistent(s, o);
    if (r) r->found_mask &= ~bit(Verdict::NotReusable);
    return r;
  };
  EXPECT_TRUE(property_fails("an exact engine finds every failure kind the other found",
                             prop(draw_persistent, [&](const SystemInput& in, Judge& j) { persistent_engine_agrees(in, forgets, j); })));
}

TEST(Teeth, PersistentEngineThatGivesUp) {  // BUDGET at once, nothing found: no kind to disagree on
  const PersistentFn gives_up = [](const System& s, const PersistentOptions& o) -> Result<CheckResult> {
    Result<CheckResult> r = check_persistent(s, o);
    if (!r) return r;
    CheckResult cut;
    cut.engine = Engine::Persistent;
    cut.verdict = Verdict::Budget;
    cut.exhaustive = false;
    return cut;
  };
  EXPECT_TRUE(property_fails("the persistent engine decides exactly within its default budgets",
                             prop(draw_persistent, [&](const SystemInput& in, Judge& j) { persistent_engine_agrees(in, gives_up, j); })));
}

TEST(Teeth, PersistentEngineWithACounterexampleThatDoesNotReplay) {  // its last step dropped
  const PersistentFn short_by_one = [](const System& s, const PersistentOptions& o) {
    Result<CheckResult> r = check_persistent(s, o);
    if (r && r->cex && !r->cex->trace.empty()) r->cex->trace.pop_back();
    return r;
  };
  EXPECT_TRUE(property_fails("each counterexample replays", prop(draw_persistent, [&](const SystemInput& in, Judge& j) {
                               persistent_engine_agrees(in, short_by_one, j);
                             })));
}

// budget_cuts: engines that get a cut wrong, each caught by the law it breaks.
auto cuts_with(std::function<void(CheckResult&)> spoil) {
  CutImpl broken;
  broken.decide = [spoil](const System& sys, const EngineOptions& o) -> Result<CheckResult> {
    Result<CheckResult> r = decide(sys, o);
    if (r) spoil(*r);
    return r;
  };
  return prop(draw_cuts, [broken](const CutInput& in, Judge& j) { budget_cuts_are_honest(in, broken, j); });
}

TEST(Teeth, BudgetCutsAFindingMadeTheVerdict) {  // a residue or global finding in hand taken for the verdict
  EXPECT_TRUE(property_fails("the verdict is the uncut one or BUDGET", cuts_with([](CheckResult& r) {
    if (r.verdict == Verdict::Budget && r.cex) r.verdict = r.cex->kind;
  })));
}

TEST(Teeth, BudgetCutsWhatWasFoundDropped) {
  EXPECT_TRUE(property_fails("what was found before the cut is reported", cuts_with([](CheckResult& r) {
    if (r.verdict == Verdict::Budget) r.cex.reset(), r.global_finding.reset();
  })));
}

TEST(Teeth, BudgetCutsAStoppingViolationLeftAtBudget) {
  EXPECT_TRUE(property_fails("a stopping violation found before the cut is the verdict", cuts_with([](CheckResult& r) {
    if (!r.exhaustive && r.verdict == Verdict::Unsafe) r.verdict = Verdict::Budget;
  })));
}

TEST(Teeth, BudgetCutsACutRunCalledExact) {  // a run the budget ended that found nothing says OK, exact
  EXPECT_TRUE(property_fails("only the uncut result is exact", cuts_with([](CheckResult& r) {
    if (r.verdict == Verdict::Budget && !r.cex && !r.global_finding && r.found_mask == 0) {
      r.verdict = Verdict::Ok;
      r.exhaustive = true;
      if (r.engine == Engine::Random) r.engine = Engine::Explicit;
    }
  })));
}

TEST(Teeth, BudgetCutsAFindingLeftOutOfTheMask) {
  EXPECT_TRUE(property_fails("what is reported is in the mask of what was found", cuts_with([](CheckResult& r) {
    if (r.verdict == Verdict::Budget) r.found_mask &= ~bit(Verdict::GlobalUnsafe);
  })));
}

TEST(Teeth, BudgetCutsAGlobalFindingNotMadeTheCounterexample) {
  EXPECT_TRUE(property_fails("a global finding in hand at BUDGET is the counterexample", cuts_with([](CheckResult& r) {
    if (r.verdict == Verdict::Budget && r.global_finding) r.cex.reset();
  })));
}

TEST(Teeth, BudgetCutsAGlobalFindingLeftUnknown) {
  EXPECT_TRUE(property_fails("a global finding in hand says BROKEN", cuts_with([](CheckResult& r) {
    if (r.verdict == Verdict::Budget && r.global_finding) r.global = GlobalStatus::Unknown;
  })));
}

TEST(Teeth, BudgetCutsNothingFoundCalledBroken) {
  EXPECT_TRUE(property_fails("a cut run with no global finding claims nothing of the global property", cuts_with([](CheckResult& r) {
    if (r.verdict == Verdict::Budget && !r.global_finding) r.global = GlobalStatus::Broken;
  })));
}

TEST(Teeth, BudgetCutsTheWrongBudgetNamed) {
  EXPECT_TRUE(property_fails("the note names the budget that ran out", cuts_with([](CheckResult& r) {
    if (r.note.cut && r.note.cut->by == Stop::Time) r.note.cut->by = Stop::Instructions;
  })));
}

TEST(Teeth, BudgetCutsAViolationCutShortUnsaid) {  // UNSAFE found, the rest not searched, and no word of the budget
  EXPECT_TRUE(property_fails("the note names the budget that ran out", cuts_with([](CheckResult& r) {
    if (!r.exhaustive && r.verdict == Verdict::Unsafe) r.note.cut.reset();
  }), 2000));
}

TEST(Teeth, BudgetCutsMemoryOvershotByAGrowthStep) {  // the budget checked after the table grows, not before
  CutImpl broken;
  broken.decide = [](const System& sys, const EngineOptions& o) -> Result<CheckResult> {
    EngineOptions late = o;
    if (late.check.max_memory < UINT64_MAX / 2) late.check.max_memory *= 2;
    return decide(sys, late);
  };
  EXPECT_TRUE(property_fails("the search's memory never passes its budget",
                             prop(draw_cuts, [broken](const CutInput& in, Judge& j) { budget_cuts_are_honest(in, broken, j); })));
}

TEST(Teeth, BudgetCutsARecheckCutTakenForTheRoundItBrokeIn) {
  CutImpl broken;
  broken.scenario = [](const Scenario& s) {
    Result<ScenarioResult> r = run_scenario(s);
    if (r && r->result.note.round_unmeasured) r->result.broke_in_round = s.topo.rounds;
    return r;
  };
  EXPECT_TRUE(property_fails("the round it broke in is the uncut one, or not measured and said so",
                             prop(draw_cuts, [broken](const CutInput& in, Judge& j) { budget_cuts_are_honest(in, broken, j); }),
                             2000));
}

// diff: one that skips bit-fields, or reports a difference the wrong way round.
TEST(Teeth, ConfigDiffSkippingBitFieldsOrSwappingTheValues) {
  const DiffFn no_bits = [](const ConfigBytes& a, const ConfigBytes& b) {
    std::vector<FieldDiff> d = diff_configs(a, b);
    std::erase_if(d, [](const FieldDiff& f) { return f.leaf->field->kind == Kind::Bits; });
    return d;
  };
  EXPECT_TRUE(property_fails("diff(a, b) names exactly the changed fields",
                             prop(draw_diff, [&](const DiffInput& in, Judge& j) { config_diff_names_the_changed_fields(in, no_bits, j); })));
  const DiffFn swapped = [](const ConfigBytes& a, const ConfigBytes& b) { return diff_configs(b, a); };
  EXPECT_TRUE(property_fails("each difference holds both values",
                             prop(draw_diff, [&](const DiffInput& in, Judge& j) { config_diff_names_the_changed_fields(in, swapped, j); })));
  EXPECT_FALSE(property_fails("", prop(draw_diff, [](const DiffInput& in, Judge& j) { config_diff_names_the_changed_fields(in, diff_configs, j); }), 100));
}

// compose's files: a writer whose manifest declares every leader in every guarantee (so a
// global-only violation reads as UNSAFE), or whose manifest drops the rounds.
TEST(Teeth, ComposedFilesWithTheGuaranteesOrRoundsLost) {
  FilesImpl all_guarantee;
  all_guarantee.make = [](const Manifest& m, std::span<const std::string> bytes) {
    Result<Composition> c = composition_of(m, bytes);
    if (c.ok()) {
      for (auto& g : c->guarantee) {
        g.clear();
        for (std::uint32_t k = 0; k < c->leader_count(); ++k) g.push_back(k);
      }
    }
    return c;
  };
  EXPECT_TRUE(property_fails("the files make the composition they came from", prop(draw_composed_files, [&](const ComposedFilesInput& in, Judge& j) {
                               composed_files_decide_as_the_topology(in, all_guarantee, j);
                             })));
  FilesImpl one_round;
  one_round.read = [](std::string_view text) {
    Result<Manifest> m = read_manifest(text);
    if (m.ok()) m->topo.rounds = 1;
    return m;
  };
  EXPECT_TRUE(property_fails("the manifest holds the options", prop(draw_composed_files, [&](const ComposedFilesInput& in, Judge& j) {
                               composed_files_decide_as_the_topology(in, one_round, j);
                             })));
  EXPECT_FALSE(property_fails("", prop(draw_composed_files, [](const ComposedFilesInput& in, Judge& j) {
                                composed_files_decide_as_the_topology(in, FilesImpl{}, j);
                              }), 50));
}

TEST(Teeth, ComposedEnginesWhereAFaultSaysOk) {  // an engine that calls every system OK
  const DecideFn blind = [](const System& s, const EngineOptions& o) {
    Result<CheckResult> r = decide(s, o);
    if (r) {
      r->verdict = Verdict::Ok;
      r->cex.reset();
    }
    return r;
  };
  EXPECT_TRUE(property_fails("an injected fault is caught", prop(draw_composed_engines, [&](const ComposedEnginesInput& in, Judge& j) {
                               composed_engines_never_fail(in, blind, j);
                             })));
  const DecideFn alarmed = [](const System& s, const EngineOptions& o) {  // every composed system said to deadlock
    Result<CheckResult> r = decide(s, o);
    if (r && r->verdict == Verdict::Ok) r->verdict = Verdict::Deadlock;
    return r;
  };
  EXPECT_TRUE(property_fails("a composed barrier never fails", prop(draw_composed_engines, [&](const ComposedEnginesInput& in, Judge& j) {
                               composed_engines_never_fail(in, alarmed, j);
                             })));
}

TEST(Teeth, MatrixRowsTakingAnyTopology) {  // out-of-range chips, leaders or rounds clamped instead of refused
  const MatrixRowFn clamped = [](const Scenario& s) {
    Scenario c = s;
    c.topo.chips = std::clamp<std::uint32_t>(c.topo.chips, 1, 64);
    c.topo.leaders = std::clamp<std::uint32_t>(c.topo.leaders, 1, 4);
    c.topo.rounds = std::clamp<std::uint32_t>(c.topo.rounds, 1, 1000);
    return matrix_row(c);
  };
  EXPECT_TRUE(property_fails("exactly the topologies out of range are refused",
                             prop(draw_matrix_row, [&](const MatrixRowInput& in, Judge& j) { matrix_rows_hold(in, clamped, j); })));
  const MatrixRowFn late = [](const Scenario& s) {  // a round past the last one it ran
    Result<MatrixRow> r = matrix_row(s);
    if (r && r->broke_in_round > 0) r->broke_in_round = s.topo.rounds + 1;
    return r;
  };
  EXPECT_TRUE(property_fails("it broke in a round it ran",
                             prop(draw_matrix_row, [&](const MatrixRowInput& in, Judge& j) { matrix_rows_hold(in, late, j); })));
}

TEST(Teeth, ConfigSetsWithAnOracleThatSeesNothing) {
  const OracleFn blind = [](const System& s) -> std::optional<std::uint32_t> {
    return oracle_applies(s) ? std::optional<std::uint32_t>(0) : std::nullopt;
  };
  EXPECT_TRUE(property_fails("static oracle == exhaustive checker",
                             prop(draw_config_sets, [&](const ConfigSetInput& in, Judge& j) { config_sets_decide(in, blind, j); })));
}


// The chart page: its data with '<' left raw (a title's "</script>" ends the element),
// its arrows from the first raise before a wait instead of the last, its title unescaped.
TEST(Teeth, SequenceChartMisread) {
  const ChartPageFn raw_data = [](const System& s, const Counterexample& c, std::string_view t, std::string_view x, bool f) {
    std::string page = sequence_chart_html(s, c, t, x, f);
    for (std::size_t at = page.find("\\u003c"); at != std::string::npos; at = page.find("\\u003c", at)) page.replace(at, 6, "<");
    return page;
  };
  EXPECT_TRUE(property_fails("no '<' inside the data block", prop(draw_chart, [&](const ChartInput& in, Judge& j) {
                               sequence_chart_reads_back(in, raw_data, j);
                             })));
  const ChartPageFn first_raise = [](const System& s, const Counterexample& c, std::string_view t, std::string_view x, bool f) {
    nlohmann::ordered_json d = sequence_chart_data(s, c, t, x);
    auto arrows = nlohmann::ordered_json::array();
    for (const auto& [from, to] : expected_arrows(s, c)) {
      std::uint32_t first = from;
      for (std::uint32_t k = 0; k < from; ++k) {
        const Instr r = s.procs[c.trace[k].proc].program[c.trace[k].pc];
        if (c.trace[k].proc != c.trace[to].proc && r.marker == Marker::None && r.op.sema == s.procs[c.trace[to].proc].program[c.trace[to].pc].op.sema &&
            c.trace[k].after > c.trace[k].before) {
          first = k;
          break;
        }
      }
      arrows.push_back({first, to});
    }
    const std::string old_data = script_json(d);
    d["releases"] = arrows;
    std::string page = sequence_chart_html(s, c, t, x, f);
    page.replace(page.find(old_data), old_data.size(), script_json(d));
    return page;
  };
  EXPECT_TRUE(property_fails("the arrows are exactly the last raises before each wait", prop(draw_chart, [&](const ChartInput& in, Judge& j) {
                               sequence_chart_reads_back(in, first_raise, j);
                             })));
  const ChartPageFn raw_title = [](const System& s, const Counterexample& c, std::string_view t, std::string_view x, bool f) {
    std::string page = sequence_chart_html(s, c, t, x, f);
    const std::string escaped = "<h1>" + html_escaped(t) + "</h1>";
    page.replace(page.find(escaped), escaped.size(), "<h1>" + std::string(t) + "</h1>");
    return page;
  };
  EXPECT_TRUE(property_fails("the title shows HTML-escaped", prop(draw_chart, [&](const ChartInput& in, Judge& j) {
                               sequence_chart_reads_back(in, raw_title, j);
                             })));
  EXPECT_FALSE(property_fails("", prop(draw_chart, [](const ChartInput& in, Judge& j) { sequence_chart_reads_back(in, real_chart_page, j); }), 100));
}

// The grid: a cell linking to the next cell's chart; a tooltip giving the rounds run
// where users read the round's index.
TEST(Teeth, MatrixGridMisread) {
  const GridPageFn next_chart = [](const std::vector<MatrixRow>& rows, std::string_view title) {
    std::string page = report::matrix_html(rows, title);
    const std::string link = "<a href=\"#cell=";
    for (std::size_t at = page.find(link); at != std::string::npos; at = page.find(link, at + 1)) {
      const std::size_t from = at + link.size(), to = page.find('"', from);
      page.replace(from, to - from, std::to_string(std::stoul(page.substr(from, to - from)) + 1));
    }
    return page;
  };
  EXPECT_TRUE(property_fails("a failing cell links to its own chart", prop(draw_grid, [&](const GridInput& in, Judge& j) {
                               grid_reads_back(in, next_chart, j);
                             })));
  const GridPageFn round_count = [](std::vector<MatrixRow> rows, std::string_view title) {
    for (MatrixRow& r : rows) r.broke_in_round += r.broke_in_round != 0;
    return report::matrix_html(rows, title);
  };
  EXPECT_TRUE(property_fails("a cell's tooltip says its scenario, verdict, global line, round and exactness",
                             prop(draw_grid, [&](const GridInput& in, Judge& j) { grid_reads_back(in, round_count, j); })));
  EXPECT_FALSE(property_fails("", prop(draw_grid, [](const GridInput& in, Judge& j) { grid_reads_back(in, real_grid_page, j); }), 100));
}

}  // namespace
}  // namespace neffbar::props
