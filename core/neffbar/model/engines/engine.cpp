#include "neffbar/model/engines/engine.h"

#include <algorithm>
#include <array>

namespace neffbar::model {

namespace {

constexpr std::array kEngines{
    EngineInfo{Engine::Explicit, "every interleaving, with reductions, within its state, memory and time budgets",
               "a shortest one (breadth-first)",
               [](const System& sys, const EngineOptions& o) { return check_explicit(sys, o.check); },
               false, true, true, "explicit (exhaustive: exact)", "the search is not exhaustive", "",
               [] { return EngineStats{SearchStats{}}; }},
    EngineInfo{Engine::Persistent, "greedy runs of a system that qualifies (a persistent system): exact",
               "a greedy run, cut to what the violation depends on; valid, not necessarily shortest",
               [](const System& sys, const EngineOptions& o) {
                 return *check_persistent(sys, PersistentOptions{o.check, o.max_instructions});
               },
               true, true, false, "persistent (exact)", "the analysis did not finish", "greedy runs",
               [] { return EngineStats{RunStats{}}; }},
    EngineInfo{Engine::Random, "PCT schedules (--random N): finds failures, proves nothing", "the schedule that found it",
               [](const System& sys, const EngineOptions& o) {
                 return check_random(sys, o.random_runs, o.seed, o.depth, o.check);
               },
               false, false, false, "random schedules (not exact: finds failures, proves nothing)", "", "schedules",
               [] { return EngineStats{RunStats{}}; }},
};

}  // namespace

const EngineInfo& engine_info(Engine e) {
  const auto* row = std::find_if(kEngines.begin(), kEngines.end(), [e](const EngineInfo& i) { return i.engine == e; });
  return row != kEngines.end() ? *row : kEngines.front();
}

std::span<const EngineInfo> engines() { return kEngines; }

EngineStats empty_stats(Engine e) { return engine_info(e).empty(); }

Error persistent_refusal(const Qualification& q) {
  return Error{Errc::InvalidArgument, "persistent engine", "a persistent system", q.reason};
}

Result<CheckResult> decide(const System& sys, const EngineOptions& opt) {
  const Qualification q = qualify(sys);
  // Auto: the persistent engine where the system qualifies, else the explicit search.
  const Engine e = opt.engine != Engine::Auto ? opt.engine : q.ok ? Engine::Persistent : Engine::Explicit;
  const EngineInfo& info = engine_info(e);
  if (info.qualified_only && !q.ok) return persistent_refusal(q);
  CheckResult r = info.run(sys, opt);
  r.not_persistent = q.reason;
  return r;
}

std::optional<Engine> parse_engine(std::string_view name) { return parse_enum<Engine>(name); }

}  // namespace neffbar::model
