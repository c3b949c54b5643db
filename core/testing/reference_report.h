// An engine's whole report held against the reference checker (reference_checker.h):
// not only the failure kinds, but the verdict among them, the counterexample, the
// global finding, the global-property line and `broke in round`.  For the differential
// tests (core/tests/model/reference_checker_test.cpp), the `reductions` property and the
// barrier fuzz target's arbitrary mode.
//
// What the reference fixes, engine by engine:
//  - the found kinds: equal with collect_all (every engine explores everything); else a
//    subset (a search that stops at its first failure saw less);
//  - the verdict: OK iff the reference finds nothing failing under the mode; else one
//    of the reference's failing kinds, in severity classes: a stopping failure (UNSAFE,
//    DEADLOCK, OVERFLOW; which one the explicit search meets first depends on its
//    order), then NOT_REUSABLE, then GLOBAL_UNSAFE.  The persistent engine's order is
//    total: UNSAFE, DEADLOCK, NOT_REUSABLE, GLOBAL_UNSAFE (it has no OVERFLOW);
//  - a failing verdict has a counterexample of that kind that replays; OK has none; a
//    global finding is a GLOBAL_UNSAFE that replays, and with collect_all there is one
//    iff the reference finds GLOBAL_UNSAFE;
//  - the global line equals the reference's (holds / broken / not reached); `unknown`
//    only from a search that stopped at its first failure; random schedules say
//    `broken` only where it is, and never `holds`;
//  - `broke in round` equals what the caller expects (the reference's for the
//    persistent engine, 0 for a bare explicit search, which does not measure it).
#pragma once

#include "testing/testing_only.h"

#include <cstdint>
#include <optional>
#include <string>

#include "neffbar/model/system/counterexample.h"
#include "testing/reference_checker.h"

namespace neffbar::testing {

struct ReportContext {
  model::GuaranteeMode mode = model::GuaranteeMode::Global;
  bool collect_all = true;
  std::optional<std::uint32_t> broke_in_round;  // expected for a failing verdict; nullopt: not compared
};

// Empty when the report agrees with the reference; else what disagrees.
inline std::string report_disagreement(const model::System& sys, const model::CheckResult& r,
                                       const ReferenceResult& ref, const ReportContext& ctx) {
  using model::bit;
  using model::GlobalStatus;
  using model::Verdict;
  if (r.verdict == Verdict::Budget) return {};
  const auto name = [](Verdict v) { return std::string(model::verdict_name(v)); };
  const auto mask_text = [&](std::uint32_t m) {
    std::string s;
    for (int v = 0; v <= static_cast<int>(Verdict::Budget); ++v) {
      if (m & (1u << v)) s += (s.empty() ? "" : ",") + name(static_cast<Verdict>(v));
    }
    return s.empty() ? std::string("none") : s;
  };
  const bool random = r.engine == model::Engine::Random;
  const std::uint32_t failing = ref.found_mask & failing_mask(ctx.mode);
  const std::uint32_t stopping = ref.found_mask & (bit(Verdict::Unsafe) | bit(Verdict::Deadlock) | bit(Verdict::Overflow));
  // The found kinds.
  if (ctx.collect_all && !random ? r.found_mask != ref.found_mask : (r.found_mask & ~ref.found_mask) != 0) {
    return "found kinds " + mask_text(r.found_mask) + ", the reference's " + mask_text(ref.found_mask);
  }
  // The verdict.
  const std::string verdict = "verdict " + name(r.verdict) + " with the reference's kinds " + mask_text(ref.found_mask);
  if (random) {
    if (r.verdict != Verdict::Ok && !(bit(r.verdict) & failing)) return verdict;
  } else if (failing == 0) {
    if (r.verdict != Verdict::Ok) return verdict;
  } else if (!(bit(r.verdict) & failing)) {
    return verdict;
  } else if (stopping != 0 && !(bit(r.verdict) & stopping)) {
    return verdict + " (a stopping failure comes first)";
  } else if (stopping == 0 && (failing & bit(Verdict::NotReusable)) && r.verdict != Verdict::NotReusable) {
    return verdict + " (NOT_REUSABLE comes before GLOBAL_UNSAFE)";
  } else if (r.engine == model::Engine::Persistent) {
    for (Verdict v : {Verdict::Unsafe, Verdict::Deadlock, Verdict::NotReusable, Verdict::GlobalUnsafe}) {
      if (failing & bit(v)) {
        if (r.verdict != v) return verdict + " (the persistent engine's order: " + name(v) + " first)";
        break;
      }
    }
  }
  // The counterexample and the global finding.
  if (model::failing(r.verdict)) {
    if (!r.cex) return "a failing verdict without a counterexample";
    if (r.cex->kind != r.verdict) return "the counterexample is a " + name(r.cex->kind) + ", the verdict " + name(r.verdict);
    if (!model::replay(sys, *r.cex)) return "the counterexample does not replay:\n" + model::format_counterexample(sys, *r.cex);
  } else if (r.cex) {
    return "a counterexample beside verdict " + name(r.verdict);
  }
  if (r.global_finding) {
    if (r.global_finding->kind != Verdict::GlobalUnsafe || !model::replay(sys, *r.global_finding)) {
      return "the global finding does not replay as GLOBAL_UNSAFE:\n" + model::format_counterexample(sys, *r.global_finding);
    }
  } else if (ctx.collect_all && !random && (ref.found_mask & bit(Verdict::GlobalUnsafe))) {
    return "no global finding although the reference finds GLOBAL_UNSAFE";
  }
  // The global line.
  const GlobalStatus want = ref.global();
  const std::string line = "global barrier property: " + std::string(model::global_status_name(r.global)) +
                           ", the reference's " + std::string(model::global_status_name(want));
  if (random) {
    if (r.global == GlobalStatus::Holds || (r.global == GlobalStatus::Broken && want != GlobalStatus::Broken)) return line;
  } else if (r.global == GlobalStatus::Unknown) {
    if (ctx.collect_all || !model::failing(r.verdict)) return line + " (only a search stopped early may not know)";
  } else if (r.global != want) {
    return line;
  }
  // The round it broke in.
  if (ctx.broke_in_round && model::failing(r.verdict) && r.broke_in_round != *ctx.broke_in_round) {
    return "broke in round " + std::to_string(r.broke_in_round) + ", expected " + std::to_string(*ctx.broke_in_round);
  }
  return {};
}

}  // namespace neffbar::testing
