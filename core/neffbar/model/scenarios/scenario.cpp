#include "neffbar/model/scenarios/scenario.h"

namespace neffbar::model {

Result<Lowered> build_system(const Scenario& s, std::uint32_t rounds) {
  if (!s.configs.empty()) {
    Result<System> sys = lower_configs(s.configs, s.topo.fabric, s.topo.lowering, rounds, s.hyp);
    if (!sys) return sys.error();
    return Lowered{std::move(*sys), {}};
  }
  Topology t = s.topo;
  t.rounds = rounds;
  const Result<Composition> comp = compose(t);
  if (!comp) return comp.error();
  return lower_with_hints(*comp, s.hyp);
}

Result<ScenarioResult> run_scenario(const Scenario& s) {
  // One time budget for the whole scenario: composing and lowering (bounded: 0.25 s at
  // 64x4 x 1000 rounds) count against it, and so do the re-checks of fewer rounds.
  const Deadline clock(s.run.check.max_seconds, s.run.check.clock);
  const auto remaining = [&] { return s.run.check.max_seconds - clock.seconds(); };
  Result<Lowered> built = build_system(s, s.topo.rounds);
  if (!built) return built.error();
  EngineOptions eo = s.run;
  eo.check.max_seconds = remaining();
  eo.check.symmetry_hints = std::move(built->hints);
  Result<CheckResult> r = decide(built->system, eo);
  if (!r) return r.error();
  ScenarioResult out{std::move(built->system), std::move(*r)};
  CheckResult& res = out.result;
  // The round it broke in: the smallest round count that already fails.  The persistent
  // engine measures it in its own run; the explicit search re-checks fewer rounds.
  if (failing(res.verdict) && res.broke_in_round == 0 && res.engine == Engine::Explicit) {
    res.broke_in_round = s.topo.rounds;
    EngineOptions fewer = s.run;
    fewer.engine = Engine::Explicit;
    for (std::uint32_t k = 1; k < s.topo.rounds; ++k) {
      fewer.check.max_seconds = remaining();
      Result<Lowered> sk = build_system(s, k);
      if (!sk) break;
      fewer.check.symmetry_hints = std::move(sk->hints);
      const Result<CheckResult> rk = decide(sk->system, fewer);
      if (rk && failing(rk->verdict)) {
        res.broke_in_round = k;
        break;
      }
      if (!rk || rk->verdict == Verdict::Budget) {  // fewer rounds undecided: the round it broke in is unknown
        res.broke_in_round = 0;
        res.note += std::string(res.note.empty() ? "" : "; ") + "broke in round: not measured (the budget ran out)";
        break;
      }
    }
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
