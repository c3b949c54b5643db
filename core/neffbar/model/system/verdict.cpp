#include "neffbar/model/system/verdict.h"

namespace neffbar::model {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Ok: return "OK";
    case Verdict::Deadlock: return "DEADLOCK";
    case Verdict::Unsafe: return "UNSAFE";
    case Verdict::GlobalUnsafe: return "GLOBAL_UNSAFE";
    case Verdict::NotReusable: return "NOT_REUSABLE";
    case Verdict::Overflow: return "OVERFLOW";
    case Verdict::Budget: return "BUDGET";
  }
  return "?";
}

std::string_view global_status_name(GlobalStatus g) {
  switch (g) {
    case GlobalStatus::Holds: return "holds";
    case GlobalStatus::Broken: return "broken";
    case GlobalStatus::NotReached: return "not reached";
    case GlobalStatus::NotRefuted: return "not refuted";
    case GlobalStatus::Unknown: return "unknown";
  }
  return "?";
}

std::string_view engine_name(Engine e) {
  switch (e) {
    case Engine::Auto: return "auto";
    case Engine::Explicit: return "explicit";
    case Engine::Persistent: return "persistent";
    case Engine::Random: return "random";
  }
  return "?";
}

}  // namespace neffbar::model
