#include "neffbar/model/scenarios/scenario.h"

#include <chrono>
#include <optional>
#include <utility>

namespace neffbar::model {

Result<Lowered> build_system(const Scenario& s, std::uint32_t rounds) {
  if (!s.configs.empty()) {
    Result<System> sys = lower_configs(s.configs, s.topo.fabric, s.topo.lowering, rounds, s.hyp);
    if (!sys) return sys.error();
    return Lowered{std::move(*sys), {}};
  }
  if (s.composition) {
    Composition c = *s.composition;
    c.topo.rounds = rounds;
    return lower_with_hints(c, s.hyp);
  }
  Topology t = s.topo;
  t.rounds = rounds;
  const Result<Composition> comp = compose(t);
  if (!comp) return comp.error();
  return lower_with_hints(*comp, s.hyp);
}

namespace {

// The result of a scenario whose time ran out before its decision started (composing
// and lowering took it): BUDGET, decided by nobody; an engine that answers only qualifying
// systems, asked for on one that does not, is refused as decide() refuses it, whatever the time.
Result<CheckResult> out_of_time(const System& sys, Engine engine, double seconds) {
  const Qualification q = qualify(sys);
  if (engine_info(engine).qualified_only && !q.ok) return unqualified(engine, q);
  CheckResult r;
  r.verdict = Verdict::Budget;
  r.exhaustive = false;
  r.global = GlobalStatus::Unknown;
  r.engine = chosen_engine(engine, q);
  r.stats = empty_stats(r.engine);
  r.not_persistent = q.reason;
  r.note.cut = Cut{Stop::Time, " before the check started (composing and lowering)"};
  r.seconds = seconds;
  return r;
}

}  // namespace

Result<ScenarioResult> run_scenario(const Scenario& s) {
  // One time budget for the whole scenario, read through one clock against one
  // max_seconds: composing and lowering, the decision and every re-check of fewer rounds
  // stop at the same moment (each engine reads this clock; none gets a fresh budget).
  EngineOptions run = s.run;
  if (!run.check.clock) run.check.clock = clock_from_now();
  Deadline budget(run.check.max_seconds, run.check.clock);
  ScenarioPhases phases;
  auto lap = [t = std::chrono::steady_clock::now()]() mutable {
    const auto now = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(now - std::exchange(t, now)).count();
  };
  Result<Lowered> built = build_system(s, s.topo.rounds);
  if (!built) return built.error();
  phases.compose_lower = lap();
  if (budget.check()) {
    Result<CheckResult> cut = out_of_time(built->system, run.engine, budget.seconds());
    if (!cut) return cut.error();
    return ScenarioResult{std::move(built->system), std::move(*cut), phases};
  }
  EngineOptions eo = run;
  eo.check.symmetry_hints = std::move(built->hints);
  Result<CheckResult> r = decide(built->system, eo);
  if (!r) return r.error();
  phases.decide = lap();
  ScenarioResult out{std::move(built->system), std::move(*r), phases};
  CheckResult& res = out.result;
  // The round it broke in: the smallest round count that already fails.  The persistent
  // engine measures it in its own run; the explicit search re-checks fewer rounds.  A
  // re-check the budget cut leaves it unmeasured; the verdict stays what was decided.
  if (failing(res.verdict) && res.broke_in_round == 0 && engine_info(res.engine).rechecks_rounds) {
    res.broke_in_round = s.topo.rounds;
    EngineOptions fewer = run;
    fewer.engine = res.engine;
    for (std::uint32_t k = 1; k < s.topo.rounds; ++k) {
      std::optional<CheckResult> rk;  // empty: the budget was spent before this re-check
      if (!budget.check()) {
        Result<Lowered> sk = build_system(s, k);
        if (!sk) break;
        fewer.check.symmetry_hints = std::move(sk->hints);
        Result<CheckResult> d = decide(sk->system, fewer);
        if (!d) break;
        rk = std::move(*d);
      }
      if (rk && failing(rk->verdict)) {
        res.broke_in_round = k;
        break;
      }
      if (!rk || rk->verdict == Verdict::Budget) {  // fewer rounds undecided: the round it broke in is unknown
        res.broke_in_round = 0;
        res.note.round_unmeasured = true;
        break;
      }
    }
    out.phases.rechecks = lap();
  }
  return out;
}

std::string scenario_title(const Topology& t, const Hypotheses& h) {
  return std::to_string(t.chips) + "x" + std::to_string(t.leaders) + " " + std::string(fabric_name(t.fabric)) +
         (t.host_cc ? " host-cc" : " no-host-cc") + " rounds=" + std::to_string(t.rounds) + " " +
         std::string(name(h.compare)) + " dec=" + std::string(name(h.dec)) + " " + std::string(name(t.wiring)) +
         " " + std::string(name(t.lowering)) + " roles=" + std::string(name(h.roles)) +
         " host-addrs=" + std::string(name(h.host_addrs)) + (h.proxy ? "" : " no-proxy");
}

}  // namespace neffbar::model
