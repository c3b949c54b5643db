#include "neffbar/model/system/verdict.h"

namespace neffbar::model {

std::string_view verdict_name(Verdict v) { return enum_name(v); }
std::string_view global_status_name(GlobalStatus g) { return enum_name(g); }
std::string_view engine_name(Engine e) { return enum_name(e); }

namespace {

std::string_view stop_phrase(Stop s) {
  switch (s) {
    case Stop::Time: return "time budget exhausted";
    case Stop::States: return "state budget exhausted";
    case Stop::Memory: return "memory budget exhausted";
    case Stop::OutOfMemory: return "out of memory";
    case Stop::Instructions: return "instruction budget exhausted";
    case Stop::TooLarge: return "too large for the explicit search";
  }
  return "stopped";
}

}  // namespace

std::string note_text(const CheckResult& r) {
  std::vector<std::string> parts;
  if (const std::optional<Cut>& cut = r.note.cut) {
    std::string s = std::string(stop_phrase(cut->by)) + cut->detail;
    if (failing(r.verdict)) {
      s += " after the violation was found: the violation is real, but the run did not finish, so other kinds of "
           "violation may be missed";
    } else if (r.verdict == Verdict::Budget && r.cex) {
      s += " after a " + std::string(verdict_name(r.cex->kind)) +
           " was found (the counterexample): a more severe violation may come later, so the verdict is undecided";
    }
    parts.push_back(std::move(s));
  }
  parts.insert(parts.end(), r.note.remarks.begin(), r.note.remarks.end());
  if (r.note.round_unmeasured) parts.emplace_back("broke in round: not measured (the budget ran out)");
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : "; ") + p;
  return text;
}

}  // namespace neffbar::model
