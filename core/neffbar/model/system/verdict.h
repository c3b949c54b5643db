// What every engine answers (explicit search, persistent engine, random schedules):
// the verdict, the global barrier property's status, counterexamples and the figures
// of the run.  One set of types, so the CLI, the matrix and the tests read every
// engine the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "neffbar/enum_names.h"

namespace neffbar::model {

enum class Verdict : std::uint8_t { Ok, Deadlock, Unsafe, GlobalUnsafe, NotReusable, Overflow, Budget };
std::string_view verdict_name(Verdict v);
constexpr std::uint32_t bit(Verdict v) { return 1u << static_cast<unsigned>(v); }
constexpr bool failing(Verdict v) { return v != Verdict::Ok && v != Verdict::Budget; }
// The failing kinds every exact engine decides in full (with collect_all), so engines
// and the reference checker are compared on these bits: OVERFLOW is left out, since the
// persistent engine refuses a system that could overflow.
inline constexpr std::uint32_t kComparedKinds =
    bit(Verdict::Deadlock) | bit(Verdict::Unsafe) | bit(Verdict::GlobalUnsafe) | bit(Verdict::NotReusable);

enum class GuaranteeMode : std::uint8_t {
  Global,    // GLOBAL_UNSAFE fails the check
  Declared,  // a broken global property is a finding only
};

// The global barrier property: in every round, no process departs before every
// participant has arrived.
enum class GlobalStatus : std::uint8_t {
  Holds,       // exact: no reachable departure precedes a participant's arrival
  Broken,      // a concrete run shows a departure before some participant arrived
  NotReached,  // exact: nobody ever departs (a deadlock before any DEPART)
  NotRefuted,  // random schedules saw no violation; proves nothing
  Unknown,     // the search stopped first (a budget, or the first failure)
};
std::string_view global_status_name(GlobalStatus g);

// Which engine decided.
enum class Engine : std::uint8_t { Auto, Explicit, Persistent, Random };
std::string_view engine_name(Engine e);

// The budget that cut a run short.
enum class Stop : std::uint8_t { Time, States, Memory, OutOfMemory, Instructions, TooLarge };

}  // namespace neffbar::model

namespace neffbar {
template <>
struct EnumNames<model::Verdict> {
  static constexpr NameTable<model::Verdict, 7> table{{{model::Verdict::Ok, "OK"},
                                                       {model::Verdict::Deadlock, "DEADLOCK"},
                                                       {model::Verdict::Unsafe, "UNSAFE"},
                                                       {model::Verdict::GlobalUnsafe, "GLOBAL_UNSAFE"},
                                                       {model::Verdict::NotReusable, "NOT_REUSABLE"},
                                                       {model::Verdict::Overflow, "OVERFLOW"},
                                                       {model::Verdict::Budget, "BUDGET"}}};
};
template <>
struct EnumNames<model::GuaranteeMode> {
  static constexpr NameTable<model::GuaranteeMode, 2> table{
      {{model::GuaranteeMode::Global, "global"}, {model::GuaranteeMode::Declared, "declared"}}};
};
template <>
struct EnumNames<model::GlobalStatus> {
  static constexpr NameTable<model::GlobalStatus, 5> table{{{model::GlobalStatus::Holds, "holds"},
                                                            {model::GlobalStatus::Broken, "broken"},
                                                            {model::GlobalStatus::NotReached, "not reached"},
                                                            {model::GlobalStatus::NotRefuted, "not refuted"},
                                                            {model::GlobalStatus::Unknown, "unknown"}}};
};
template <>
struct EnumNames<model::Stop> {
  static constexpr NameTable<model::Stop, 6> table{{{model::Stop::Time, "time"},
                                                    {model::Stop::States, "states"},
                                                    {model::Stop::Memory, "memory"},
                                                    {model::Stop::OutOfMemory, "out_of_memory"},
                                                    {model::Stop::Instructions, "instructions"},
                                                    {model::Stop::TooLarge, "too_large"}}};
};
template <>
struct EnumNames<model::Engine> {
  static constexpr NameTable<model::Engine, 4> table{{{model::Engine::Auto, "auto"},
                                                      {model::Engine::Explicit, "explicit"},
                                                      {model::Engine::Persistent, "persistent"},
                                                      {model::Engine::Random, "random"}}};
};
}  // namespace neffbar

namespace neffbar::model {

// One executed instruction of a counterexample.
struct TraceEntry {
  std::uint32_t step;  // atomic step number (1-based); several entries share one under Lipton
  std::uint32_t proc;
  std::uint32_t pc;
  std::int64_t before = 0, after = 0;  // value of the touched semaphore (ops only)
};

struct Counterexample {
  Verdict kind = Verdict::Ok;
  std::string what;                // the violation in one line
  std::vector<TraceEntry> trace;   // from the initial state to the violation
  bool shortest = true;            // false: a valid run, not necessarily a shortest one
};

// Where a budget cut a run: the budget, and where or how far in words (" while verifying
// the symmetry", " (8 MiB: the visited set holds 6 MiB)"), read after the budget's own
// ("time budget exhausted").
struct Cut {
  Stop by = Stop::Time;
  std::string detail;
};

// What a result says beside its verdict, as values, rendered once by note_text().  What
// a cut means for the verdict (a violation found before it is real; a lesser one handed
// out as the counterexample leaves the verdict undecided) is said from the verdict and
// the counterexample, not written by each engine.
struct Note {
  std::optional<Cut> cut;            // the budget that ended the run before its end
  std::vector<std::string> remarks;  // the engine's own, in order ("random schedule: run 3 of seed 1")
  bool round_unmeasured = false;     // a failing verdict whose broke-in-round a budget left unmeasured
};

// SearchStats::symmetry_source when the lowering's symmetry hints checked out.
inline constexpr std::string_view kSymmetryFromHints = "hints";

// What the explicit search counted, and the reductions it used.
struct SearchStats {
  std::uint64_t states = 0, transitions = 0;  // states stored, blocks fired
  bool symmetry_used = false;
  std::uint64_t symmetry_group = 1;  // size of the verified symmetry group (the upper bound of its reduction; saturates)
  std::string symmetry_source;       // kSymmetryFromHints, or the automorphism finder's name ("nauty 2.8.6 (64 bits)")
  double automorphism_order = 0;     // the order of the group the finder found (0: not asked)
  bool por_used = false;
  friend bool operator==(const SearchStats&, const SearchStats&) = default;
};

// What an engine that runs the programs counted: the persistent engine (greedy runs)
// and random schedules (schedules tried).
struct RunStats {
  std::uint64_t instructions = 0;  // instructions executed
  std::uint64_t runs = 0;
  friend bool operator==(const RunStats&, const RunStats&) = default;
};

// An engine's own statistics: its type is the engine's (CheckResult::engine).
using EngineStats = std::variant<SearchStats, RunStats>;

struct CheckResult {
  Verdict verdict = Verdict::Ok;
  std::optional<Counterexample> cex;             // for a failing verdict
  std::optional<Counterexample> global_finding;  // global-only violation (guarantees held), always reported
  GlobalStatus global = GlobalStatus::Unknown;
  std::uint32_t found_mask = 0;                  // every kind seen (complete with collect_all)
  double seconds = 0;
  bool exhaustive = true;                        // the verdict covers every interleaving (random schedules: never)
  Engine engine = Engine::Explicit;
  EngineStats stats;                 // SearchStats from the explicit search, RunStats from the others
  // Failing verdict: the smallest round count that already fails (0: not computed).
  // Users read the round's index instead (broken_round()).
  std::uint32_t broke_in_round = 0;
  Note note;
  // Why the persistent engine cannot decide this system (the system does not qualify);
  // empty when it qualifies.  Set by decide() whichever engine ran.
  std::string not_persistent;
  [[nodiscard]] bool exact() const { return exhaustive && verdict != Verdict::Budget; }
  // The statistics as the engine's type (std::bad_variant_access from another engine).
  [[nodiscard]] const SearchStats& search() const { return std::get<SearchStats>(stats); }
  [[nodiscard]] const RunStats& work() const { return std::get<RunStats>(stats); }
};

// The round a failure broke in as every output shows it: 0-based, as a counterexample's
// steps (`[round 0]`) and its sentence ("departed round 0") number rounds.  `count` is
// CheckResult::broke_in_round (the smallest round count that fails; 0 when not
// computed, then nullopt).
constexpr std::optional<std::uint32_t> broken_round(std::uint32_t count) {
  return count == 0 ? std::nullopt : std::optional<std::uint32_t>(count - 1);
}


// The note in one line, its parts joined by "; " (empty: nothing to say).
std::string note_text(const CheckResult& r);

}  // namespace neffbar::model
