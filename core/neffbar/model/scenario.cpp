#include "neffbar/model/scenario.h"

namespace neffbar::model {

Result<ScenarioResult> run_scenario(const Scenario& s) {
  const Result<Composition> comp = compose(s.topo);
  if (!comp) return comp.error();
  Result<System> sys = lower(*comp, s.hyp);
  if (!sys) return sys.error();
  ScenarioResult out{std::move(*sys), {}, 0};
  out.result = s.random_runs > 0 ? random_check(out.system, s.random_runs, s.seed, 3, s.opt.guarantee, s.opt.max_seconds)
                                 : check(out.system, s.opt);
  const Verdict v = out.result.verdict;
  if (v != Verdict::Ok && v != Verdict::Budget) {
    out.broke_in_round = s.topo.rounds;
    // The round it broke in: the smallest round count that already fails.
    for (std::uint32_t k = 1; k < s.topo.rounds && s.random_runs == 0; ++k) {
      Scenario fewer = s;
      fewer.topo.rounds = k;
      const Result<Composition> c2 = compose(fewer.topo);
      const Result<System> s2 = lower(*c2, s.hyp);
      const Verdict vk = check(*s2, s.opt).verdict;
      if (vk != Verdict::Ok && vk != Verdict::Budget) {
        out.broke_in_round = k;
        break;
      }
    }
  }
  return out;
}

std::string describe(const Topology& t, const Hypotheses& h) {
  return std::to_string(t.chips) + "x" + std::to_string(t.leaders) + " " + std::string(fabric_name(t.fabric)) +
         (t.host_cc ? " host-cc" : " no-host-cc") + " rounds=" + std::to_string(t.rounds) + " " +
         std::string(name(h.compare)) + " dec=" + std::string(name(h.dec)) + " " + std::string(name(t.wiring)) +
         " " + std::string(name(t.lowering)) + " roles=" + std::string(name(h.roles)) +
         " host-addrs=" + std::string(name(h.host_addrs)) + (h.proxy ? "" : " no-proxy");
}

}  // namespace neffbar::model
