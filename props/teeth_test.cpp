// Every property has teeth: plugged into a deliberately broken implementation, it
// FAILS.  (A property that passes here would pass whatever the code does.)
#include <gtest/gtest.h>

#include <string_view>
#include <rapidcheck/state.h>

#include "properties.h"

namespace neffbar::props {
namespace {

// Teeth failures are expected: keep them out of rapidcheck's "to reproduce" summary.
struct QuietListener : rc::detail::TestListener {
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// True when the property fails at the named check (its RC_ASSERT text), so a teeth test
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

const auto kCompose = [](const Topology& t) { return compose(t); };

TEST(Teeth, P1_EncodeDroppingAReservedByte) {
  CodecImpl broken;
  broken.encode = [](const BarrierConfigs& c) {
    ConfigBytes b = encode(c);
    b[0x126] = 0;
    return b;
  };
  EXPECT_TRUE(property_fails("RC_ASSERT(impl.encode(impl.decode(b)) == b)", [&] { p1_round_trip(broken); }));
  CodecImpl log_broken;
  log_broken.full_log = [](const ConfigBytes& b) { return write_log(b, LogMode::Default); };  // not lossless
  EXPECT_TRUE(property_fails("RC_ASSERT(*back == b)", [&] { p1_round_trip(log_broken); }));
  EXPECT_FALSE(property_fails("", [] { p1_round_trip(CodecImpl{}); }, 50));  // and the real one passes
}

TEST(Teeth, P2_OverlayShiftedByOneByte) {
  EXPECT_TRUE(property_fails("RC_ASSERT(h.barrier_done ==", [] {
    p2_overlay([](const ConfigBytes& b) {
      HostBarrierConfig h;
      h.barrier_start = load_le(b.data() + 1, 8);
      h.barrier_done = load_le(b.data() + 9, 8);
      return h;
    });
  }));
}

TEST(Teeth, P3_SearchReturningTheLastMatch) {
  EXPECT_TRUE(property_fails("RC_ASSERT(a == fast(t, type, step))", [] {
    p3_search_agreement([](const TableImage& t, std::int64_t type, std::int64_t step) -> std::optional<SearchHit> {
      if (step < 0 || step > 3 || type < 0 || type > 6) return std::nullopt;
      std::optional<SearchHit> last;
      const int n = std::min<int>(t.sizes[static_cast<std::size_t>(step)], 4);
      for (int i = 0; i < n; ++i) {
        const TableEntry e = entry_at(t, static_cast<int>(step), i);
        if (e.type == static_cast<std::uint32_t>(type)) last = SearchHit{e.op, i};
      }
      return last;
    });
  }));
}

TEST(Teeth, P4_SwitchTableWithAnEntryStepTwo) {
  TableImage bad = kSwitchTable;
  store_le(bad.steps.data() + 2 * 0x20 + 4, 4, 0);  // step 2 entry 0: EXIT -> ENTRY
  EXPECT_TRUE(property_fails("RC_ASSERT(x.op == (s < 2 ? 0u : 1u))", [&] { p4_fabrics_agree(kCompose, bad); }, 20));
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
  const auto broken_switch = [](const Topology& t) {
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
  EXPECT_TRUE(property_fails("RC_ASSERT(v == Verdict::Ok)", [&] { p4_fabrics_agree(broken_switch); }, 20));
}

TEST(Teeth, P5_ComposerDroppingALane) {
  EXPECT_TRUE(property_fails("RC_ASSERT(r.verdict == Verdict::Ok)", [] { p5_deadlock_freedom(drop_one_lane); }, 100));
}

TEST(Teeth, P5_ACheckerThatSaysOk) {
  EXPECT_TRUE(property_fails("RC_ASSERT(r.verdict != Verdict::Ok)", [] { p5_faults_are_caught([](const System&) { return CheckResult{}; }); }, 50));
}

TEST(Teeth, P6_WaitsWithThresholdZero) {
  const auto no_wait = [](const Topology& t) {
    Result<Composition> c = compose(t);
    for (auto& bytes : c->configs) {
      BarrierConfigs cfg = *decode(bytes);
      cfg.device_barrier.barrier_step_config[3].target_sema_val = {0, 0, 0, 0};
      bytes = encode(cfg);
    }
    return c;
  };
  EXPECT_TRUE(property_fails("RC_ASSERT((pcs[p] > depart) == covered)", [&] { p6_all_leaders_and(no_wait); }, 200));
}

TEST(Teeth, P7_HostCcAsNonZero) {
  const HostCcFn nonzero = [](std::span<const std::uint8_t> ctx) -> Result<bool> {
    if (ctx.size() <= 0x231) return is_host_cc(ctx);  // same error for short blobs
    return ctx[0x231] != 0;
  };
  EXPECT_TRUE(property_fails("RC_ASSERT((addrs->at(i) == host_done) == *hcc)", [&] { p7_host_cc_merge(nonzero); }));
}

TEST(Teeth, P8_WrongCarryAndNonZeroHostCc) {
  EXPECT_TRUE(property_fails("RC_ASSERT(from_al(al) == (((0u - cf) & ~3u) + 6u))", [] {
    p8_sema_id_arithmetic([](std::uint8_t al) { return al <= 1 ? 2u : 6u; }, is_host_cc);  // cmp al,2
  }));
  EXPECT_TRUE(property_fails("RC_ASSERT(*host_cc(ctx) == (ctx[ctx_layout::kHostCc] == 1))", [] {
    p8_sema_id_arithmetic(leader_done_sema_id_from_al,
                          [](std::span<const std::uint8_t> c) -> Result<bool> { return c[0x231] != 0; });
  }));
}

TEST(Teeth, P9_DecrementOneWithThresholdTwo) {
  // A composer that always wires counters (threshold L >= 2) while the machine
  // decrements by 1: the residue must be caught.
  EXPECT_TRUE(property_fails("RC_ASSERT(v == Verdict::Ok)", [] {
    p9_reusability([](const Topology& t) {
      Topology c = t;
      c.wiring = Wiring::Counting;
      return compose(c);
    });
  }, 100));
}

TEST(Teeth, P10_GtInsteadOfGe) {
  EXPECT_TRUE(property_fails("RC_ASSERT(got == m.outcome(op, cmp))", [] {
    p10_semaphore_machine([](std::span<std::int32_t> f, const SemaOp& op, Compare) { return apply(f, op, Compare::Gt); });
  }));
  EXPECT_TRUE(property_fails("RC_ASSERT(got == m.outcome(op, cmp))", [] {  // wraps instead of reporting overflow
    p10_semaphore_machine([](std::span<std::int32_t> f, const SemaOp& op, Compare c) {
      if (op.prim == Prim::Inc && f[op.sema] == INT32_MAX) {
        f[op.sema] = INT32_MIN;
        return Outcome::Done;
      }
      return apply(f, op, c);
    });
  }));
}

TEST(Teeth, P11_OracleIgnoringThresholds) {
  EXPECT_TRUE(property_fails("RC_ASSERT((*o & mask) == got)", [] { p11_oracle_agrees([](const System& s) -> std::optional<std::uint32_t> {
    return oracle_applies(s) ? std::optional<std::uint32_t>(0) : std::nullopt;
  }); }, 200));
}

TEST(Teeth, ReductionsMissingADeadlock) {  // a search that stops looking for dead ends
  EXPECT_TRUE(property_fails("RC_ASSERT(r.found_mask == ref.found_mask)", [] {
    reductions_agree_with_the_reference([](const System& s, const CheckOptions& o) {
      CheckResult r = check(s, o);
      r.found_mask &= ~bit(Verdict::Deadlock);
      return r;
    });
  }));
}

TEST(Teeth, PersistentEngineIgnoringTheCompare) {  // GT read as GE: the equality of the wait slips
  EXPECT_TRUE(property_fails("RC_ASSERT(replay(sys, *p->cex))", [] {
    persistent_engine_agrees([](const System& s, const PersistentOptions& o) {
      System ge = s;
      ge.compare = Compare::Ge;
      return check_persistent(ge, o);
    });
  }));
}

TEST(Teeth, PersistentEngineMissingResidues) {  // a free run that forgets the values
  EXPECT_TRUE(property_fails("RC_ASSERT(p->found_mask == e.found_mask)", [] {
    persistent_engine_agrees([](const System& s, const PersistentOptions& o) {
      Result<CheckResult> r = check_persistent(s, o);
      if (r) r->found_mask &= ~bit(Verdict::NotReusable);
      return r;
    });
  }));
}

}  // namespace
}  // namespace neffbar::props
