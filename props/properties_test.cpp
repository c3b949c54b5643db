// P1..P11 (props/README.md) against the real implementation.  Budget: RC_PARAMS
// (max_success, seed); ./scripts/props --cases N --seed S for long runs.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include "properties.h"

namespace neffbar::props {
namespace {

const auto kCompose = [](const Topology& t) { return compose(t); };

RC_GTEST_PROP(Props, P1_RoundTrip, ()) { p1_round_trip(CodecImpl{}); }
RC_GTEST_PROP(Props, P2_OverlayLaws, ()) { p2_overlay(decode_host); }
RC_GTEST_PROP(Props, P3_SearchAgreement, ()) { p3_search_agreement(real_fast); }
RC_GTEST_PROP(Props, P4_SwitchDefaultAgreement, ()) { p4_fabrics_agree(kCompose); }
RC_GTEST_PROP(Props, P5_DeadlockFreedom, ()) { p5_deadlock_freedom(kCompose); }
RC_GTEST_PROP(Props, P5_CheckerIsNotVacuous, ()) {
  p5_faults_are_caught([](const System& s) { return check(s); });
}
RC_GTEST_PROP(Props, P6_AllLeadersAnd, ()) { p6_all_leaders_and(kCompose); }
RC_GTEST_PROP(Props, P7_HostCcMerge, ()) { p7_host_cc_merge(is_host_cc); }
RC_GTEST_PROP(Props, P8_SemaIdArithmetic, ()) { p8_sema_id_arithmetic(leader_done_sema_id_from_al, is_host_cc); }
RC_GTEST_PROP(Props, P9_Reusability, ()) { p9_reusability(kCompose); }
RC_GTEST_PROP(Props, P10_SemaphoreMachine, ()) {
  p10_semaphore_machine([](std::span<std::int32_t> f, const SemaOp& op, Compare c) { return apply(f, op, c); });
}
RC_GTEST_PROP(Props, P11_StaticOracleAgrees, ()) { p11_oracle_agrees(static_oracle); }
RC_GTEST_PROP(Props, ReductionsAgreeWithTheReferenceChecker, ()) {
  reductions_agree_with_the_reference([](const System& s, const CheckOptions& o) { return check(s, o); });
}
RC_GTEST_PROP(Props, PersistentEngineAgreesWithTheExplicitSearch, ()) {
  persistent_engine_agrees([](const System& s, const PersistentOptions& o) { return check_persistent(s, o); });
}

}  // namespace
}  // namespace neffbar::props
