// The laws of budget_cuts: a run cut at any point is honest: each a typed input, its
// generator and its law (properties.h says how they are written and plugged in).
#pragma once

#include "law_prelude.h"

namespace neffbar::props {

// ------------------------------------------------------------------- budget cuts -----
// A check cut short by its budget at any point (the time budget at any read of the
// clock, every poll reading it; the state budget at any state count) gives the uncut
// verdict or BUDGET, never another; reports what it found before the cut, with
// counterexamples that replay; calls a result exact only when it is the uncut one; and
// a cut later than one that gave the uncut verdict gives it too.  On arbitrary systems
// through each engine, and on small composed topologies as whole scenarios: the
// symmetry verification, the re-checks of fewer rounds (the round it broke in is the
// uncut one, or unmeasured and said so) and the persistent analysis.
enum class CutBudget : std::uint8_t { Time, States, Memory };

struct CutInput {
  static constexpr bool kPropertyInput = true;
  bool composed = false;
  System sys;      // checked through decide() when !composed
  Topology topo;   // checked as a scenario when composed
  Engine engine = Engine::Explicit;
  CutBudget budget = CutBudget::Time;
  std::uint32_t first = 0, second = 0;  // two cut points, in thousandths of the list of them (cut_points)
};

inline CutInput draw_cuts(Source& s) {
  CutInput in;
  in.engine = s.element({Engine::Explicit, Engine::Persistent, Engine::Random});
  in.composed = s.weighted({3, 1}) == 1;
  if (in.composed) {
    in.topo = draw_topology(s, 2, 3);
    in.topo.leaders = std::min(in.topo.leaders, 2u);  // the explicit search decides them in milliseconds
  } else {
    ArbitraryShape shape;
    shape.persistent_only = in.engine == Engine::Persistent;
    in.sys = arbitrary_system(s, shape);
  }
  in.budget = in.engine != Engine::Explicit ? CutBudget::Time : s.element({CutBudget::Time, CutBudget::States, CutBudget::Memory});
  in.first = static_cast<std::uint32_t>(s.below(1001));
  in.second = static_cast<std::uint32_t>(s.below(1001));
  return in;
}

// A clock that returns 0 for its first `at` reads, then a time past any budget: a cut
// at that read.  Its count is shared by the copies the options make of it.
struct CutClock {
  std::shared_ptr<std::uint64_t> reads = std::make_shared<std::uint64_t>(0);
  std::uint64_t at = UINT64_MAX;
  double operator()() const { return (*reads)++ < at ? 0.0 : 1e9; }
};

// The implementation under test: a system through an engine, a scenario whole.
struct CutImpl {
  std::function<Result<CheckResult>(const System&, const EngineOptions&)> decide = model::decide;
  std::function<Result<ScenarioResult>(const Scenario&)> scenario = run_scenario;
};

// Runs the input with its budget at `at` (UINT64_MAX: not cut): the clock cut at read
// `at`, at most `at` states, or `at` bytes; returns the system checked, the result, and
// how many clock reads the run made.
struct CutRun {
  System sys;
  CheckResult res;
  std::uint64_t reads = 0;
};
inline std::optional<CutRun> run_cut(const CutInput& in, const CutImpl& impl, std::uint64_t at) {
  EngineOptions o;
  o.engine = in.engine;
  o.random_runs = 4;
  o.check.poll_cadence = 1;
  CutClock clock;
  if (in.budget == CutBudget::Time) clock.at = at;
  if (in.budget == CutBudget::States && at != UINT64_MAX) o.check.max_states = at;
  if (in.budget == CutBudget::Memory && at != UINT64_MAX) o.check.max_memory = at;
  o.check.clock = clock;
  CutRun out;
  if (in.composed) {
    Result<ScenarioResult> r = impl.scenario(Scenario{in.topo, Hypotheses{}, o, {}, std::nullopt});
    if (!r) return std::nullopt;
    out.sys = std::move(r->system);
    out.res = std::move(r->result);
  } else {
    Result<CheckResult> r = impl.decide(in.sys, o);
    if (!r) return std::nullopt;
    out.sys = in.sys;
    out.res = std::move(*r);
  }
  out.reads = *clock.reads;
  return out;
}

// The explicit search's memory at its growth steps: what it holds beside the visited set
// (the value tables), and the visited set's peak through each insert that grows it, by
// the count of states before that insert (bytes() + next_growth(); state_set_test.cpp
// shows it is the peak to the byte).
struct MemorySteps {
  std::uint64_t fixed = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> peaks;  // (states before, peak bytes)
  // The most the search held with `states` states inserted.
  [[nodiscard]] std::uint64_t peak_with(std::uint64_t states) const {
    std::uint64_t p = 0;
    for (const auto& [count, bytes] : peaks) {
      if (count < states) p = std::max(p, bytes);
    }
    return fixed + p;
  }
};
inline MemorySteps memory_steps(const System& sys, std::uint64_t states) {
  MemorySteps m;
  m.fixed = std::uint64_t{model::detail::Compiled(sys, true, true, true).prefix_entries} * 8;
  const auto P = static_cast<std::uint32_t>(sys.procs.size());
  model::detail::StateSet set(P);
  std::vector<std::uint16_t> pcs(P, 0);
  for (std::uint64_t i = 0; i <= states; ++i) {
    if (const std::uint64_t g = set.next_growth(); g > 0) m.peaks.emplace_back(i, set.bytes() + g);
    pcs[0] = static_cast<std::uint16_t>(i);
    if (P > 1) pcs[1] = static_cast<std::uint16_t>(i >> 16);
    set.insert(pcs.data(), static_cast<std::uint32_t>(i), 0);
  }
  return m;
}

// Every point the input's budget can be cut at, as run_cut's `at`: each clock read of the
// uncut run, each state count, or, for memory, one byte short of each growth step's peak
// and the peak itself.
inline std::vector<std::uint64_t> cut_points(const CutInput& in, const CutRun& full) {
  std::vector<std::uint64_t> at;
  if (in.budget == CutBudget::Memory) {
    const MemorySteps m = memory_steps(full.sys, full.res.search().states);
    for (const auto& step : m.peaks) at.insert(at.end(), {m.fixed + step.second - 1, m.fixed + step.second});
    return at;
  }
  // A state budget cuts the explicit search alone (draw_cuts).
  const std::uint64_t n = in.budget == CutBudget::Time ? full.reads : full.res.search().states;
  for (std::uint64_t k = 0; k <= n; ++k) at.push_back(k);
  return at;
}

// What one cut run gets wrong against the uncut one ("" when nothing); `max_memory`: the
// memory budget it ran under (UINT64_MAX: none).
inline std::string cut_disagreement(const CutRun& full, const CutRun& cut, const CutInput& in, std::uint64_t at) {
  const CheckResult &f = full.res, &c = cut.res;
  const bool composed = in.composed;
  if (in.budget == CutBudget::Memory && at != UINT64_MAX && c.engine == Engine::Explicit &&
      memory_steps(cut.sys, c.search().states).peak_with(c.search().states) > at) {
    return "the search's memory never passes its budget";
  }
  if (c.verdict != f.verdict && c.verdict != Verdict::Budget) return "the verdict is the uncut one or BUDGET";
  if (c.exact() && (c.verdict != f.verdict || c.found_mask != f.found_mask || c.stats != f.stats)) {
    return "only the uncut result is exact";
  }
  if (failing(c.verdict) && !c.cex) return "a failing verdict comes with its counterexample";
  if (c.cex && (c.cex->kind == Verdict::Unsafe || c.cex->kind == Verdict::Deadlock || c.cex->kind == Verdict::Overflow) &&
      c.verdict != c.cex->kind) {
    return "a stopping violation found before the cut is the verdict";
  }
  if (c.cex && !replay(cut.sys, *c.cex)) return "the counterexample replays";
  if (c.global_finding && !replay(cut.sys, *c.global_finding)) return "the global finding replays";
  if (c.found_mask != 0 && !c.cex && !c.global_finding) return "what was found before the cut is reported";
  if ((c.cex && !(c.found_mask & bit(c.cex->kind))) || (c.global_finding && !(c.found_mask & bit(Verdict::GlobalUnsafe)))) {
    return "what is reported is in the mask of what was found";
  }
  if (c.verdict == Verdict::Budget && c.global_finding && !(c.cex && c.cex->kind == Verdict::GlobalUnsafe)) {
    return "a global finding in hand at BUDGET is the counterexample";
  }
  if (!c.exhaustive && c.global_finding && c.global != GlobalStatus::Broken) return "a global finding in hand says BROKEN";
  if (c.verdict == Verdict::Budget && !c.global_finding &&
      (c.global == GlobalStatus::Holds || c.global == GlobalStatus::Broken || c.global == GlobalStatus::NotReached)) {
    return "a cut run with no global finding claims nothing of the global property";  // UNKNOWN, or random's NOT_REFUTED
  }
  const bool cut_short = c.verdict == Verdict::Budget || (f.exhaustive && !c.exhaustive);  // a violation found, the rest not
  if (cut_short && (!c.note.cut || (c.note.cut->by == Stop::Time) != (in.budget == CutBudget::Time))) {
    return "the note names the budget that ran out";
  }
  if (composed && c.broke_in_round != f.broke_in_round &&
      !(c.broke_in_round == 0 && (c.verdict == Verdict::Budget || c.note.round_unmeasured))) {
    return "the round it broke in is the uncut one, or not measured and said so";
  }
  return "";
}

inline void budget_cuts_are_honest(const CutInput& in, const CutImpl& impl, Judge& j) {
  // Composed scenarios past 4 leader-rounds (milliseconds of explicit search under ASan,
  // three times) only where the judge is thorough; props/budget_cuts_test.cpp cuts such
  // scenarios at every point anyway.
  if (in.composed && in.topo.chips * in.topo.leaders * in.topo.rounds > 4) j.assume(j.thorough());
  const std::optional<CutRun> full = run_cut(in, impl, UINT64_MAX);
  j.assume(full.has_value());  // the persistent engine refuses what does not qualify
  // Two cut points, the earlier one first (thousandths of the list of points).
  const std::vector<std::uint64_t> points = cut_points(in, *full);
  j.assume(!points.empty());
  const auto at = [&](std::uint32_t permille) { return points[(points.size() - 1) * permille / 1000]; };
  const std::uint64_t k1 = std::min(at(in.first), at(in.second)), k2 = std::max(at(in.first), at(in.second));
  const std::optional<CutRun> c1 = run_cut(in, impl, k1), c2 = run_cut(in, impl, k2);
  j.require(c1 && c2, "a cut run answers as the uncut one does");
  for (const auto& [c, k] : {std::pair{&*c1, k1}, std::pair{&*c2, k2}}) {
    const std::string wrong = cut_disagreement(*full, *c, in, k);
    if (!wrong.empty()) j.fail(wrong);
  }
  j.require(!(c1->res.verdict == full->res.verdict && c2->res.verdict != full->res.verdict),
            "a cut later than one that gave the uncut verdict gives it too");
  j.tags(in.composed ? "composed" : "arbitrary", c1->res.verdict == Verdict::Budget ? "cut" : "uncut verdict");
}

}  // namespace neffbar::props
