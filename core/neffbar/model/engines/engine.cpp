#include "neffbar/model/engines/engine.h"

namespace neffbar::model {

Result<CheckResult> decide(const System& sys, const EngineOptions& opt) {
  switch (opt.engine) {
    case Engine::Random: {
      return random_check(sys, opt.random_runs, opt.seed, opt.depth, opt.check);
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
      return check_persistent(sys, PersistentOptions{opt.check, opt.max_instructions});
    }
  }
  return Error{Errc::InvalidArgument, "engine", enum_choices<Engine>(), "?"};
}

std::optional<Engine> parse_engine(std::string_view name) { return parse_enum<Engine>(name); }

}  // namespace neffbar::model
