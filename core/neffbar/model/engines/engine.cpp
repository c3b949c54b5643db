#include "neffbar/model/engines/engine.h"

namespace neffbar::model {

namespace {

Result<CheckResult> run_engine(const System& sys, const EngineOptions& opt, const Qualification& q) {
  switch (opt.engine) {
    case Engine::Random: return check_random(sys, opt.random_runs, opt.seed, opt.depth, opt.check);
    case Engine::Explicit: return check_explicit(sys, opt.check);
    case Engine::Auto:
    case Engine::Persistent:
      if (q.ok) return check_persistent(sys, PersistentOptions{opt.check, opt.max_instructions});
      if (opt.engine == Engine::Persistent) return persistent_refusal(q);
      return check_explicit(sys, opt.check);
  }
  return Error{Errc::InvalidArgument, "engine", enum_choices<Engine>(), "?"};
}

}  // namespace

Error persistent_refusal(const Qualification& q) {
  return Error{Errc::InvalidArgument, "persistent engine", "a persistent system", q.reason};
}

Result<CheckResult> decide(const System& sys, const EngineOptions& opt) {
  const Qualification q = qualify(sys);
  Result<CheckResult> r = run_engine(sys, opt, q);
  if (r) r->not_persistent = q.reason;
  return r;
}

std::optional<Engine> parse_engine(std::string_view name) { return parse_enum<Engine>(name); }

}  // namespace neffbar::model
