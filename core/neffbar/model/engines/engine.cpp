#include "neffbar/model/engines/engine.h"

namespace neffbar::model {

Result<CheckResult> decide(const System& sys, const EngineOptions& opt) {
  switch (opt.engine) {
    case Engine::Random: {
      CheckResult r = random_check(sys, opt.random_runs, opt.seed, opt.depth, opt.check.guarantee, opt.check.max_seconds,
                                   opt.check.progress, opt.check.clock);
      return r;
    }
    case Engine::Explicit: return explicit_search(sys, opt.check);
    case Engine::Auto:
    case Engine::Persistent: {
      const Qualification q = qualify(sys);
      if (!q.ok && opt.engine == Engine::Persistent) {
        return Error{Errc::InvalidArgument, "persistent engine", "a persistent system", q.reason};
      }
      if (!q.ok) {
        CheckResult r = explicit_search(sys, opt.check);
        r.note = (r.note.empty() ? "" : r.note + "; ") + "not persistent: " + q.reason;
        return r;
      }
      PersistentOptions p;
      p.guarantee = opt.check.guarantee;
      p.collect_all = opt.check.collect_all;
      p.max_instructions = opt.max_instructions;
      p.max_seconds = opt.check.max_seconds;
      p.progress = opt.check.progress;
      return check_persistent(sys, p);
    }
  }
  return Error{Errc::InvalidArgument, "engine", enum_choices<Engine>(), "?"};
}

std::optional<Engine> parse_engine(std::string_view name) { return parse_enum<Engine>(name); }

}  // namespace neffbar::model
