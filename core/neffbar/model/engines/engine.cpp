#include "neffbar/model/engines/engine.h"

#include <algorithm>
#include <array>

namespace neffbar::model {

namespace {

constexpr std::array kEngines{
    EngineInfo{.engine = Engine::Explicit,
               .summary = "every interleaving, with reductions, within its state, memory and time budgets",
               .counterexample = "a shortest one (breadth-first)",
               .run = [](const System& sys, const EngineOptions& o) { return check_explicit(sys, o.check); },
               .qualified_only = false,
               .proves = true,
               .rechecks_rounds = true,
               .exact_text = "explicit (exhaustive: exact)",
               .unfinished = "the search is not exhaustive",
               .runs = "",
               .empty = [] { return EngineStats{SearchStats{}}; }},
    EngineInfo{.engine = Engine::Persistent,
               .summary = "greedy runs of a system that qualifies (a persistent system): exact",
               .counterexample = "a greedy run, cut to what the violation depends on; valid, not necessarily shortest",
               .run = [](const System& sys, const EngineOptions& o) {
                 return *check_persistent(sys, PersistentOptions{o.check, o.max_instructions});  // decide() qualified it
               },
               .qualified_only = true,
               .proves = true,
               .rechecks_rounds = false,  // its own run measures broke-in-round
               .exact_text = "persistent (exact)",
               .unfinished = "the analysis did not finish",
               .runs = "greedy runs",
               .empty = [] { return EngineStats{RunStats{}}; }},
    EngineInfo{.engine = Engine::Random,
               .summary = "PCT schedules (--random N): finds failures, proves nothing",
               .counterexample = "the schedule that found it",
               .run = [](const System& sys, const EngineOptions& o) {
                 return check_random(sys, o.random_runs, o.seed, o.depth, o.check);
               },
               .qualified_only = false,
               .proves = false,
               .rechecks_rounds = false,  // no verdict of fewer rounds would be exact either
               .exact_text = "random schedules (not exact: finds failures, proves nothing)",
               .unfinished = "",
               .runs = "schedules",
               .empty = [] { return EngineStats{RunStats{}}; }},
};

}  // namespace

const EngineInfo& engine_info(Engine e) {
  const auto* row = std::find_if(kEngines.begin(), kEngines.end(), [e](const EngineInfo& i) { return i.engine == e; });
  return row != kEngines.end() ? *row : kEngines.front();
}

std::span<const EngineInfo> engines() { return kEngines; }

Engine chosen_engine(Engine asked, const Qualification& q) {
  if (asked != Engine::Auto) return asked;
  return q.ok ? Engine::Persistent : Engine::Explicit;
}

EngineStats empty_stats(Engine e) { return engine_info(e).empty(); }

Error unqualified(Engine e, const Qualification& q) {
  return Error{Errc::InvalidArgument, std::string(engine_name(e)) + " engine", "a persistent system", q.reason};
}

Result<CheckResult> decide(const System& sys, const EngineOptions& opt) {
  const Qualification q = qualify(sys);
  const Engine e = chosen_engine(opt.engine, q);
  const EngineInfo& info = engine_info(e);
  if (info.qualified_only && !q.ok) return unqualified(e, q);
  CheckResult r = info.run(sys, opt);
  r.not_persistent = q.reason;
  return r;
}

std::optional<Engine> parse_engine(std::string_view name) { return parse_enum<Engine>(name); }

}  // namespace neffbar::model
