#include "model_cmds.h"

#include <unistd.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <span>
#include <sstream>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "engine_cmds.h"
#include "exit.h"
#include "input.h"
#include "memory_reserve.h"
#include "output.h"
#include "neffbar/codec.h"
#include "neffbar/model/engines/engine_options.h"
#include "neffbar/model/scenarios/matrix.h"
#include "neffbar/report/matrix_page.h"
#include "neffbar/report/matrix_report.h"
#include "neffbar/model/exports/promela.h"
#include "neffbar/model/exports/sequence_chart.h"
#include "neffbar/model/scenarios/composed_files.h"
#include "neffbar/model/scenarios/scenario.h"
#include "neffbar/overloaded.h"
#include "neffbar/strict_numbers.h"

namespace neffbar::cli {
namespace {

using namespace neffbar::model;

// Progress lines go to stderr when it is a terminal (and the output is not --json), or
// wherever it goes with --progress: a log or a pipe gets only what it asked for.
bool progress_wanted(bool asked, bool json) { return asked || (!json && isatty(STDERR_FILENO) != 0); }

// An engine's progress line, in what the engine that runs counts.
void progress_line(const Progress& p) { std::cerr << progress_text(p) << '\n'; }

constexpr const char* kProgressHelp =
    "Progress lines on stderr (the engine's work about once a second; hypotheses: every 64 scenarios) wherever "
    "stderr goes and with --json too; without it only a terminal gets them, and not with --json";

// Numbers are kept as typed and parsed strictly (neffbar/strict_numbers.h): CLI11 would wrap "-1".  The
// engines' options are the rows of kEngineOptions, by flag, with the defaults and parsers the rows give.
struct CheckArgs {
  std::string chips = "1", leaders = "1", rounds = "1";
  std::string fabric = "default", compare = "ge", dec = "one", wiring = "per_peer", lowering = "table",
              roles = "code", host_addrs = "ctx", guarantee = "global", engine = "auto";
  bool host_cc = false, no_proxy = false, json = false, progress = false;
  std::string random;
  std::string html;  // --html FILE (check, check-configs; hypotheses has its own)
  std::map<std::string_view, std::string> values = engine_values();  // an engine option with a value: its text
  std::map<std::string_view, bool> flags;                             // a flag among them: given or not
  [[nodiscard]] const std::string& value(std::string_view flag) const { return values.at(flag); }
  [[nodiscard]] bool flag(std::string_view flag) const { return flags.count(flag) > 0 && flags.at(flag); }

 private:
  static std::map<std::string_view, std::string> engine_values() {
    std::map<std::string_view, std::string> v;
    for (const EngineOption& o : kEngineOptions) {
      if (!o.type.empty()) v[o.flag] = o.default_text ? o.default_text() : std::string();
    }
    return v;
  }
};

constexpr std::uint64_t kU32Max = std::numeric_limits<std::uint32_t>::max();

// An enum option's value, by its one name table (neffbar/enum_names.h).
template <class E>
Result<E> pick(const std::string& what, const std::string& v) {
  if (const std::optional<E> e = parse_enum<E>(v)) return *e;
  return Error{Errc::InvalidArgument, what, enum_choices<E>(), "'" + v + "'"};
}

// Core errors name the field ("chips", "fabric"); the command line names its option
// ("--chips"), or `option` when given.
Error as_option(Error e, const std::string& option = "") {
  if (!option.empty()) {
    e.where = option;
    return e;
  }
  for (const char* field : {"chips", "leaders", "rounds"}) {
    if (e.where == field) e.where = std::string("--") + field;
  }
  return e;
}

// What the system is made of beyond the topology (check, check-configs, promela).
void add_model_options(CLI::App* cmd, CheckArgs& a) {
  cmd->add_option("--rounds", a.rounds, "Back-to-back barrier rounds on the same semaphores (" + kRoundRange.text() + ")")->capture_default_str()->type_name("N");
  cmd->add_option("--compare", a.compare, enum_choices<Compare>() + ": the wait compare (C4)")->capture_default_str();
  cmd->add_option("--dec", a.dec, enum_choices<DecMode>() + ": what a released wait removes (C5)")->capture_default_str();
  cmd->add_option("--lowering", a.lowering, enum_choices<Lowering>() + " (C7)")->capture_default_str();
  cmd->add_option("--guarantee", a.guarantee,
                  enum_choices<GuaranteeMode>() + ": with declared, a broken global property is a finding, not a failure")
      ->capture_default_str();
}

// How the system is decided and shown (check, check-configs; not promela, which decides nothing).
void add_engine_options(CLI::App* cmd, CheckArgs& a) {
  cmd->add_option("--engine", a.engine,
                  enum_choices<Engine>() + ": auto decides exactly with the persistent engine when the "
                  "system qualifies, else searches explicitly")
      ->capture_default_str();
  cmd->add_option("--random", a.random, "Random schedules (PCT): this many (implies --engine random; proves nothing)")->type_name("N");
  for (const EngineOption& o : kEngineOptions) {
    if (o.type.empty()) {
      cmd->add_flag(std::string(o.flag), a.flags[o.flag], std::string(o.help));
    } else {
      cmd->add_option(std::string(o.flag), a.values.at(o.flag), std::string(o.help))->capture_default_str()->type_name(std::string(o.type));
    }
  }
  cmd->add_flag("--json", a.json, "Machine-readable output");
  cmd->add_flag("--progress", a.progress, kProgressHelp);
  cmd->add_option("--html", a.html,
                  "Also write the counterexample (or the global finding) as a sequence chart: one self-contained HTML "
                  "page, whole or not at all")
      ->type_name("FILE");
}

// The topology and the host-side choices (check, promela).
void add_topology_options(CLI::App* cmd, CheckArgs& a) {
  cmd->add_option("--chips", a.chips, "Chips (" + kChipRange.text() + ")")->capture_default_str()->type_name("N");
  cmd->add_option("--leaders", a.leaders, "Leader SPs per chip (" + kLeaderRange.text() + ")")->capture_default_str()->type_name("N");
  cmd->add_option("--fabric", a.fabric, enum_choices<Fabric>())->capture_default_str();
  cmd->add_flag("--host-cc", a.host_cc, "Host-CC mode (ctx[0x231] == 1): the done semaphores merge");
  cmd->add_flag("--no-proxy", a.no_proxy, "Drop the barrier proxy (non-host-CC mode)");
  cmd->add_option("--wiring", a.wiring, enum_choices<Wiring>())->capture_default_str();
  cmd->add_option("--roles", a.roles, enum_choices<Roles>() + ": start/done semaphore ids (C2)")->capture_default_str();
  cmd->add_option("--host-addrs", a.host_addrs, enum_choices<HostAddrs>() + ": where the host leg takes its addresses (C1)")
      ->capture_default_str();
}

// An engine option the chosen engine would not read is refused (exit 2, the option and
// its owner named), as kEngineOptions says who reads what.
Status refuse_unused(const CLI::App* cmd, Engine e) {
  for (const EngineOption& o : kEngineOptions) {
    if (!o.readers.has(e) && cmd->count(std::string(o.flag)) > 0) {
      return Error{Errc::InvalidArgument, std::string(o.flag), std::string(o.owner), "--engine " + std::string(engine_name(e))};
    }
  }
  return {};
}

Result<Scenario> to_scenario(const CheckArgs& a) {
  Scenario s;
  auto f = parse_fabric(a.fabric);
  if (!f) return as_option(f.error(), "--fabric");
  // The composer's ranges (composer.h), so that the message gives the real bounds.
  const auto chips = parse_count("--chips", a.chips, kChipRange.lo, kChipRange.hi);
  const auto leaders = parse_count("--leaders", a.leaders, kLeaderRange.lo, kLeaderRange.hi);
  const auto rounds = parse_count("--rounds", a.rounds, kRoundRange.lo, kRoundRange.hi);
  const auto random = parse_count("--random", a.random.empty() ? "0" : a.random, a.random.empty() ? 0 : 1, kU32Max);
  for (const Error* e : {chips ? nullptr : &chips.error(), leaders ? nullptr : &leaders.error(),
                         rounds ? nullptr : &rounds.error(), random ? nullptr : &random.error()}) {
    if (e) return *e;
  }
  for (const EngineOption& o : kEngineOptions) {  // a flag is read when given, a value always (its default)
    if (!o.type.empty() || a.flag(o.flag)) {
      if (const Status st = o.apply(o.flag, o.type.empty() ? "" : a.value(o.flag), s.run); !st) return st.error();
    }
  }
  s.topo = Topology{static_cast<std::uint32_t>(*chips), static_cast<std::uint32_t>(*leaders), *f, a.host_cc,
                    static_cast<std::uint32_t>(*rounds), Wiring::PerPeer, Lowering::Table};
  if (const Status st = check_ranges(s.topo); !st) return as_option(st.error());  // the composer's ranges, one place
  auto cmp = pick<Compare>("--compare", a.compare);
  auto dec = pick<DecMode>("--dec", a.dec);
  auto wir = pick<Wiring>("--wiring", a.wiring);
  auto low = pick<Lowering>("--lowering", a.lowering);
  auto rol = pick<Roles>("--roles", a.roles);
  auto hos = pick<HostAddrs>("--host-addrs", a.host_addrs);
  auto gua = pick<GuaranteeMode>("--guarantee", a.guarantee);
  for (const Error* e : {cmp.ok() ? nullptr : &cmp.error(), dec.ok() ? nullptr : &dec.error(), wir.ok() ? nullptr : &wir.error(),
                         low.ok() ? nullptr : &low.error(), rol.ok() ? nullptr : &rol.error(), hos.ok() ? nullptr : &hos.error(),
                         gua.ok() ? nullptr : &gua.error()}) {
    if (e) return *e;
  }
  s.topo.wiring = *wir;
  s.topo.lowering = *low;
  s.hyp = Hypotheses{*cmp, *dec, *rol, *hos, !a.no_proxy};
  s.run.check.guarantee = *gua;
  const std::optional<Engine> engine = parse_engine(a.engine);
  if (!engine) return Error{Errc::InvalidArgument, "--engine", enum_choices<Engine>(), "'" + a.engine + "'"};
  s.run.engine = *engine;
  if (*random > 0) {
    if (s.run.engine != Engine::Auto && s.run.engine != Engine::Random) {
      return Error{Errc::InvalidArgument, "--random", "no --random with --engine " + a.engine, std::to_string(*random)};
    }
    s.run.engine = Engine::Random;
    s.run.random_runs = *random;
  }
  return s;
}

nlohmann::ordered_json cex_json(const System& sys, const Counterexample& c) {
  nlohmann::ordered_json j;
  j["kind"] = verdict_name(c.kind);
  j["what"] = c.what;
  auto steps = nlohmann::ordered_json::array();
  for (const TraceEntry& e : c.trace) {
    nlohmann::ordered_json s;
    s["step"] = e.step;
    s["process"] = sys.procs[e.proc].name;
    s["instruction"] = describe(sys, e.proc, e.pc);
    const Instr& in = sys.procs[e.proc].program[e.pc];
    if (in.marker == Marker::None) {
      s["semaphore"] = sys.semas[in.op.sema].name;
      s["before"] = e.before;
      s["after"] = e.after;
    }
    steps.push_back(std::move(s));
  }
  j["trace"] = std::move(steps);
  return j;
}

// Exit 4 unless the verdict is OK: a BUDGET verdict decided nothing, so a script must
// not read it as a pass (model::failing() is the verdict's own failing kinds, without it).
bool not_ok(const CheckResult& r) { return r.verdict != Verdict::Ok; }

// Random mode never says OK: it says what it did not refute.
std::string verdict_text(const CheckResult& r) {
  if (!engine_info(r.engine).proves && r.verdict == Verdict::Ok) return "NOT_REFUTED";
  return std::string(verdict_name(r.verdict));
}

std::string engine_text(const CheckResult& r) {
  const EngineInfo& info = engine_info(r.engine);
  if (r.exact() || !info.proves) return std::string(info.exact_text);
  const std::string name(engine_name(r.engine));
  return failing(r.verdict)
             ? name + " (budget ran out after a violation was found: the violation is real, " + std::string(info.unfinished) + ")"
             : name + " (budget ran out: not exact)";
}

// "group of 24, from the lowering's hints" / "group of 2^64 or more, found by nauty ...".
std::string symmetry_text(const SearchStats& s) {
  const std::string size = s.symmetry_group == UINT64_MAX ? "2^64 or more" : std::to_string(s.symmetry_group);
  return "group of " + size + (s.symmetry_source == kSymmetryFromHints ? ", from the lowering's hints" : ", found by " + s.symmetry_source);
}

// The engine's statistics in the JSON, by their type.
void stats_json(const CheckResult& r, nlohmann::ordered_json& j) {
  std::visit(Overloaded{[&](const SearchStats& s) {
                          j["states"] = s.states;
                          j["transitions"] = s.transitions;
                          j["states_per_second"] = r.seconds > 0 ? static_cast<double>(s.states) / r.seconds : 0;
                          j["symmetry"] = s.symmetry_used;
                          j["symmetry_group"] = s.symmetry_group;
                          if (s.symmetry_used) j["symmetry_source"] = s.symmetry_source;
                          if (s.automorphism_order > 0) j["automorphism_order"] = s.automorphism_order;
                          j["por"] = s.por_used;
                        },
                        [&](const RunStats& w) {
                          j["instructions"] = w.instructions;
                          std::string key(engine_info(r.engine).runs);
                          std::replace(key.begin(), key.end(), ' ', '_');  // "schedules", "greedy_runs"
                          j[key] = w.runs;
                        }},
             r.stats);
}

// The engine's statistics as the text's one line, by their type.
std::string stats_line(const CheckResult& r) {
  std::ostringstream out;
  std::visit(Overloaded{[&](const SearchStats& s) {
                          const double rate = r.seconds > 0 ? static_cast<double>(s.states) / r.seconds : 0;
                          out << "states:   " << s.states << " explored in " << r.seconds << " s ("
                              << static_cast<std::uint64_t>(rate) << " states/s), reductions: "
                              << (s.symmetry_used || s.por_used ? "" : "lipton or none") << (s.por_used ? "por" : "")
                              << (s.symmetry_used ? std::string(s.por_used ? "+" : "") + "symmetry (" + symmetry_text(s) + ")" : "");
                        },
                        [&](const RunStats& w) {
                          out << "work:     " << w.instructions << " instructions executed in " << w.runs << ' '
                              << engine_info(r.engine).runs << ", " << r.seconds << " s";
                        }},
             r.stats);
  return out.str();
}

std::string global_text(const CheckResult& r) {
  switch (r.global) {
    case GlobalStatus::Holds: return "holds";
    case GlobalStatus::Broken: return "BROKEN";
    case GlobalStatus::NotReached: return "not reached (no process departs)";
    case GlobalStatus::NotRefuted: return "not refuted in " + std::to_string(r.work().runs) + " " + std::string(engine_info(r.engine).runs);
    case GlobalStatus::Unknown:
      return r.verdict == Verdict::Budget || !r.exhaustive ? "unknown (budget)" : "unknown (the search stopped at the first failure)";
  }
  return "?";
}

// The configs (named) whose gate, execute_device_barrier (0x124 bit 0), is clear: on
// the device their 4 steps would not run (libncfw @0x1121a; the semantics INFERRED),
// while the lowering decides every config's steps as if the gate were set.
std::vector<std::string> gate_clear(std::span<const ConfigBytes> configs, const std::function<std::string(std::size_t)>& name) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    BarrierConfigs c;
    decode_into(configs[i], c);
    if (c.execute_device_barrier == 0) out.push_back(name(i));
  }
  return out;
}

void print_result(const ScenarioResult& sr, bool json, const std::string& title, GuaranteeMode mode,
                  std::span<const std::string> gate_clear = {}) {
  const CheckResult& r = sr.result;
  // The global finding is shown apart unless it is the counterexample already shown.
  const bool finding_apart = r.global_finding && !(r.cex && r.cex->kind == Verdict::GlobalUnsafe);
  if (json) {
    nlohmann::ordered_json j;
    j["scenario"] = title;
    j["guarantee"] = mode == GuaranteeMode::Global ? "global" : "declared";
    j["verdict"] = verdict_text(r);
    j["engine"] = engine_name(r.engine);
    j["exact"] = r.exact();
    j["persistent"] = {{"qualifies", r.not_persistent.empty()}};
    if (!r.not_persistent.empty()) j["persistent"]["reason"] = r.not_persistent;
    if (!gate_clear.empty()) j["gate_clear"] = gate_clear;
    j["exhaustive"] = r.exhaustive;
    auto procs = nlohmann::ordered_json::array();  // the processes a counterexample's steps name
    for (const Process& p : sr.system.procs) procs.push_back(p.name);
    j["processes"] = std::move(procs);
    stats_json(r, j);
    j["seconds"] = r.seconds;
    j["phases"] = {{"compose_lower", sr.phases.compose_lower}, {"decide", sr.phases.decide}, {"rechecks", sr.phases.rechecks}};
    j["global_property"] = global_status_name(r.global);
    j["global_property_holds"] = r.global == GlobalStatus::Holds;
    if (const auto round = broken_round(r.broke_in_round)) j["broke_in_round"] = *round;
    if (const std::string note = note_text(r); !note.empty()) j["note"] = note;
    if (r.note.cut) j["cut_by"] = enum_name(r.note.cut->by);
    if (r.cex) {
      j["counterexample"] = cex_json(sr.system, *r.cex);
      j["counterexample"]["shortest"] = r.cex->shortest;
    }
    if (finding_apart) j["global_finding"] = cex_json(sr.system, *r.global_finding);
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';  // a path's bytes need not be UTF-8
    return;
  }
  // The title and the gate's file names hold paths the user chose: escaped (exit.h).
  std::cout << "scenario: " << escape(title) << '\n' << "engine:   " << engine_text(r) << '\n';
  if (!r.not_persistent.empty()) std::cout << "          (persistent engine not applicable: " << r.not_persistent << ")\n";
  if (!gate_clear.empty()) {
    std::cout << "gate:     clear in";
    for (const std::string& f : gate_clear) std::cout << ' ' << escape(f);
    std::cout << ": execute_device_barrier (0x124 bit 0) is 0, so the device would not run " << (gate_clear.size() == 1 ? "its" : "their")
              << " 4 steps (INFERRED); decided as if it were set\n";
  }
  std::cout << "verdict:  " << verdict_text(r) << '\n';
  std::cout << stats_line(r) << '\n';
  if (const std::string note = note_text(r); !note.empty()) std::cout << "note:     " << note << '\n';
  std::cout << "global barrier property: " << global_text(r) << '\n';
  if (const auto round = broken_round(r.broke_in_round)) std::cout << "broke in round: " << *round << '\n';
  const auto heading = [](const Counterexample& c) {
    return std::string(c.shortest ? "" : " (a valid run, not necessarily a shortest one)");
  };
  if (r.cex) {
    // Under BUDGET the counterexample is of what was found before the budget ran out.
    std::cout << "\ncounterexample"
              << (r.verdict == Verdict::Budget ? " of the " + std::string(verdict_name(r.cex->kind)) + " found before the budget ran out"
                                               : std::string())
              << heading(*r.cex) << ":\n"
              << format_counterexample(sr.system, *r.cex);
  }
  if (finding_apart) {
    // Under declared the global property is not checked: a finding.  Under global it
    // is, but the verdict above is the failure the search stopped at.
    std::cout << (mode == GuaranteeMode::Declared ? "\nfinding (global property, not a failure under --guarantee declared)"
                                                  : "\nalso found (global property; the verdict above is the first failure)")
              << heading(*r.global_finding) << ":\n"
              << format_counterexample(sr.system, *r.global_finding);
  }
}


// --html FILE: the counterexample shown (or else the global finding) as a sequence
// chart; with neither, a page that says so.
std::string chart_page(const ScenarioResult& sr, const std::string& title) {
  const CheckResult& r = sr.result;
  const Counterexample* c = r.cex ? &*r.cex : r.global_finding ? &*r.global_finding : nullptr;
  const bool finding = c != nullptr && !r.cex;  // shown, not failed (--guarantee declared)
  const std::string sentence =
      !c        ? verdict_text(r) + ": no counterexample to show"
      : finding ? "finding (not a failure under --guarantee declared), " + std::string(verdict_name(c->kind)) + ": " + c->what
                : std::string(verdict_name(c->kind)) + ": " + c->what;
  return sequence_chart_html(sr.system, c ? *c : Counterexample{}, title, sentence, c && !finding);
}

// --html names a file, and not -o's: stdout (or -o) carries the verdict.
Status check_html_option(const CLI::App* cmd, const std::string& html, const Run& run) {
  if (cmd->count("--html") == 0) return {};
  if (html == "-") return Error{Errc::InvalidArgument, "--html", "a file (stdout carries the verdict)", "'-'"};
  if (html.empty()) return Error{Errc::InvalidArgument, "--html", "a file", "an empty path"};
  if (run.to_stdout() && names_stdout(html)) {
    return Error{Errc::InvalidArgument, "--html", "a file other than stdout (stdout carries the verdict)", "'" + html + "'"};
  }
  if (!run.to_stdout() && same_output(html, run.output)) {
    return Error{Errc::InvalidArgument, "--html", "another file than -o's (the verdict's text)", "'" + html + "'"};
  }
  return {};
}

// check: compose a topology, lower it, model-check it.
void add_check(CLI::App& app, Run& run) {
  auto a = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "Compose a topology, lower it and model-check it (exit 4 on a failing verdict)");
  add_topology_options(cmd, *a);
  add_model_options(cmd, *a);
  add_engine_options(cmd, *a);
  cmd->callback([a, cmd, &run] {
    const Result<Scenario> s = to_scenario(*a);
    if (!s) return void(run.exit_code = fail_usage(s.error()));
    if (const Status st = refuse_unused(cmd, s->run.engine); !st) return void(run.exit_code = fail_usage(st.error()));
    if (const Status st = check_html_option(cmd, a->html, run); !st) return void(run.exit_code = fail_usage(st.error()));
    Scenario sc = *s;
    sc.run.check.clock = run.clock;
    if (progress_wanted(a->progress, a->json)) sc.run.check.progress = progress_line;
    const Result<ScenarioResult> r = run_scenario(sc);
    MemoryReserve::rearm();
    if (!r) return void(run.exit_code = fail_usage(as_option(r.error())));
    print_result(*r, a->json, scenario_title(sc.topo, sc.hyp), sc.run.check.guarantee);
    if (!a->html.empty()) run.files.emplace_back(a->html, chart_page(*r, scenario_title(sc.topo, sc.hyp)));
    run.exit_code = code(not_ok(r->result) ? Exit::Failing : Exit::Ok);
  });
}

// check-configs on compose's files: the manifest's topology and options, each one the
// command line gives explicitly taking its place; the composition its files make.
Status from_manifest(const ManifestAt& m, const CLI::App* cc, Scenario& sc) {
  const Result<std::vector<std::string>> bytes = read_manifest_files(m);
  if (!bytes) return bytes.error();
  Result<Composition> comp = composition_of(m.manifest, *bytes);
  if (!comp) return comp.error();
  Topology t = m.manifest.topo;
  Hypotheses h = m.manifest.hyp;
  if (cc->count("--fabric") > 0) t.fabric = sc.topo.fabric;
  if (cc->count("--rounds") > 0) t.rounds = sc.topo.rounds;
  if (cc->count("--lowering") > 0) t.lowering = sc.topo.lowering;
  if (cc->count("--compare") > 0) h.compare = sc.hyp.compare;
  if (cc->count("--dec") > 0) h.dec = sc.hyp.dec;
  if (cc->count("--guarantee") == 0) sc.run.check.guarantee = m.manifest.guarantee;
  if (t.lowering != m.manifest.topo.lowering) {
    // The declared guarantees depend on the lowering (the composer's tier wiring: table
    // guarantees a tier partner's same leader, the others every leader of that chip), so
    // under another lowering they are the ones the composer declares under it.
    const Result<Composition> declared = compose(t);
    if (!declared) return declared.error();
    comp->guarantee = declared->guarantee;
  }
  comp->topo = t;
  sc.topo = t;
  sc.hyp = h;
  sc.composition = std::move(*comp);
  return {};
}

// check-configs: the same on config files, one leader each.
void add_check_configs(CLI::App& app, Run& run) {
  auto b = std::make_shared<CheckArgs>();
  auto files = std::make_shared<std::vector<std::string>>();
  auto* cc = app.add_subcommand("check-configs",
                                "Model-check a system given as config files, one leader each (device barrier only), or as "
                                "compose's directory or manifest (its topology, host leg and options)");
  cc->add_option("FILE", *files,
                 "Config images (0x128 bytes each), or one directory or manifest.json that compose wrote (its options "
                 "are the defaults; --fabric, --rounds, --lowering, --compare, --dec, --guarantee given here replace them; "
                 "another --lowering also brings the guarantees the composer declares under it)")
      ->required();
  cc->add_option("--fabric", b->fabric, enum_choices<Fabric>() + ": the table that gives each step's operation")->capture_default_str();
  add_model_options(cc, *b);
  add_engine_options(cc, *b);
  cc->callback([b, files, cc, &run] {
    Result<Scenario> s = to_scenario(*b);
    if (!s) return void(run.exit_code = fail_usage(s.error()));
    if (const Status st = refuse_unused(cc, s->run.engine); !st) return void(run.exit_code = fail_usage(st.error()));
    if (const Status st = check_html_option(cc, b->html, run); !st) return void(run.exit_code = fail_usage(st.error()));
    Scenario sc = *s;
    std::string title;
    std::vector<std::string> gates;
    const Result<std::optional<ManifestAt>> m = files->size() == 1 ? find_manifest(files->front()) : std::optional<ManifestAt>();
    if (!m) return void(run.exit_code = fail_input(m.error(), files->front()));
    if (*m) {
      if (const Status st = from_manifest(**m, cc, sc); !st) return void(run.exit_code = fail_input(st.error(), files->front()));
      title = scenario_title(sc.topo, sc.hyp) + " (" + files->front() + ")";
      gates = gate_clear(sc.composition->configs, [&](std::size_t i) { return ((*m)->dir / (*m)->manifest.entries[i].file).string(); });
    } else {
      for (const std::string& f : *files) {
        std::error_code ec;
        if (std::filesystem::is_directory(f, ec)) {  // a folder that is not compose's: say which it is
          const bool has = std::filesystem::exists(std::filesystem::path(f) / std::string(kManifestName), ec);
          return void(run.exit_code = fail_input(
                          Error{Errc::Io, "", "a config image, or compose's directory (manifest.json with its \"format\")",
                                has ? "a directory whose manifest.json has no \"format\" (not compose's)"
                                    : "a directory without manifest.json"},
                          f));
        }
        const Result<ConfigBytes> cfg = read_config(f);
        if (!cfg) return void(run.exit_code = fail_input(cfg.error(), f));
        sc.configs.push_back(*cfg);
      }
      title = "configs: " + std::to_string(sc.configs.size()) + (sc.configs.size() == 1 ? " file" : " files") + ", fabric " + std::string(fabric_name(sc.topo.fabric)) +
              ", rounds=" + std::to_string(sc.topo.rounds) + " " + std::string(name(sc.hyp.compare)) + " dec=" +
              std::string(name(sc.hyp.dec)) + " " + std::string(name(sc.topo.lowering));
      gates = gate_clear(sc.configs, [&](std::size_t i) { return (*files)[i]; });
    }
    sc.run.check.clock = run.clock;
    if (progress_wanted(b->progress, b->json)) sc.run.check.progress = progress_line;
    const Result<ScenarioResult> r = run_scenario(sc);
    MemoryReserve::rearm();
    if (!r) return void(run.exit_code = fail_input(r.error(), "check-configs"));
    print_result(*r, b->json, title, sc.run.check.guarantee, gates);
    if (!b->html.empty()) run.files.emplace_back(b->html, chart_page(*r, title));
    run.exit_code = code(not_ok(r->result) ? Exit::Failing : Exit::Ok);
  });
}

// promela: the composed system as a SPIN model.
void add_promela(CLI::App& app, Run& run) {
  auto pa = std::make_shared<CheckArgs>();
  auto* pm = app.add_subcommand("promela", "Export a composed system as a Promela model for SPIN (the topology and model options of check)");
  add_topology_options(pm, *pa);
  add_model_options(pm, *pa);
  pm->callback([pa, &run] {
    const Result<Scenario> s = to_scenario(*pa);
    if (!s) return void(run.exit_code = fail_usage(s.error()));
    const Result<Composition> comp = compose(s->topo);
    if (!comp) return void(run.exit_code = fail_usage(as_option(comp.error())));
    const Result<System> sys = lower(*comp, s->hyp);
    if (!sys) return void(run.exit_code = fail_input(sys.error(), "promela"));
    if (const Status st = spin_limits(*sys); !st) return void(run.exit_code = fail_input(st.error(), "promela"));
    std::cout << to_promela(*sys, s->run.check.guarantee == GuaranteeMode::Global);
    run.exit_code = code(Exit::Ok);
  });
}

// compose: the topology's configs as files, with a manifest.
void add_compose(CLI::App& app, Run& run) {
  auto ca = std::make_shared<CheckArgs>();
  auto logs = std::make_shared<bool>(false);
  auto* cm = app.add_subcommand("compose",
                                "Write a topology's composed configs to a directory: one image per leader, each chip's "
                                "driver context, manifest.json (the topology and model options of check)");
  add_topology_options(cm, *ca);
  add_model_options(cm, *ca);
  cm->add_flag("--logs", *logs, "Also write each image's JSON log beside it (chipCC_leaderL.json)");
  cm->add_option("-o,--output", run.output,
                 "The directory to write, whole or not at all (a temporary directory beside it, then one rename); "
                 "an existing one is replaced only when empty or provably an earlier compose's (its manifest.json reads as "
                 "compose's and it holds nothing else but the files it names); any other folder is refused and left as it was")
      ->required()
      ->type_name("DIR");
  cm->callback([ca, logs, &run] {
    const Result<Scenario> s = to_scenario(*ca);
    if (!s) return void(run.exit_code = fail_usage(s.error()));
    if (run.to_stdout()) {
      return void(run.exit_code = fail_usage(Error{Errc::InvalidArgument, "--output", "a directory (compose writes files)",
                                                   run.output.empty() ? "an empty path" : "'-'"}));
    }
    Result<std::vector<NamedFile>> files = composed_files(*s, *logs);
    if (!files) return void(run.exit_code = fail_usage(as_option(files.error())));
    run.directory = std::move(*files);  // written with the text below, all or none (app.cpp)
    const std::uint32_t n = s->topo.chips * s->topo.leaders;
    std::cout << "wrote " << escape(run.output) << ": " << n << " leader image" << (n == 1 ? "" : "s")
              << (*logs ? " with their logs, " : ", ") << s->topo.chips << " driver context"
              << (s->topo.chips == 1 ? "" : "s") << ", " << kManifestName << '\n';
    run.exit_code = code(Exit::Ok);
  });
}

// hypotheses: the matrix over the reference topologies, or the full-scale table.
void add_hypotheses(CLI::App& app, Run& run) {
  struct MatrixArgs {
    bool json = false, small = false, full = false, progress = false;
    std::string html;
  };
  auto hj = std::make_shared<MatrixArgs>();
  auto* hy = app.add_subcommand("hypotheses",
                                "Run the hypothesis matrix over the reference topologies, or the full-scale table (--full)");
  hy->add_flag("--json", hj->json, "JSON instead of Markdown");
  hy->add_flag("--small", hj->small, "Only the 1x4 and 2x2 topologies (quick)");
  hy->add_flag("--progress", hj->progress, kProgressHelp);
  hy->add_flag("--full", hj->full,
               "Every chips 1..64 x leaders 1..4 x fabric x host-CC x lowering x wiring at 1 round, and a rounds "
               "sample, decided exactly by the persistent engine (about 20 s on one core)");
  hy->add_option("--html", hj->html,
                 "Also write the matrix as a grid, one cell per scenario coloured by verdict, each failing cell linked "
                 "to its counterexample's sequence chart (with --full the cells link nowhere: its rows keep no "
                 "counterexample): one self-contained HTML page, whole or not at all")
      ->type_name("FILE");
  hy->callback([hj, hy, &run] {
    if (hj->small && hj->full) return void(run.exit_code = fail_usage(Error{Errc::InvalidArgument, "--full", "not with --small", "--small"}));
    if (const Status st = check_html_option(hy, hj->html, run); !st) return void(run.exit_code = fail_usage(st.error()));
    MatrixOptions mo;
    mo.small = hj->small;
    mo.full = hj->full;
    mo.keep_counterexamples = !hj->html.empty() && !hj->full;
    // After each scenario: the memory reserve back if a search used it (memory_reserve.h).
    mo.progress = [shown = progress_wanted(hj->progress, hj->json), step = hj->full ? 512u : 64u](std::size_t done,
                                                                                                   std::size_t total) {
      MemoryReserve::rearm();
      if (shown && (done % step == 0 || done == total)) std::cerr << "  ... " << done << "/" << total << " scenarios\n";
    };
    auto rows = run_matrix(mo);
    if (hj->full) {
      for (MatrixRow& r : rows) r.counterexample.clear();  // thousands of them: `neffbar check` shows any one
    }
    if (hj->json) {
      std::cout << report::matrix_json(rows);
    } else {
      if (hj->full) std::cout << "## Where each lowering is a global barrier (1 round, exact)\n\n" << report::full_summary_markdown(rows) << "\n## Every scenario\n\n";
      std::cout << report::matrix_markdown(rows);
    }
    const std::string title = std::string(hj->full ? "neffbar full-scale table" : "neffbar hypothesis matrix") + ": " +
                              std::to_string(rows.size()) + " scenarios";
    if (!hj->html.empty()) run.files.emplace_back(hj->html, report::matrix_html(rows, title));
    run.exit_code = code(Exit::Ok);
  });
}

}  // namespace

void add_model_commands(CLI::App& app, Run& run, std::string_view only) {
  add_commands(app, run, only,
               {{"check", add_check}, {"check-configs", add_check_configs}, {"compose", add_compose}, {"promela", add_promela},
                {"hypotheses", add_hypotheses}, {"engines", add_engines}});
}

}  // namespace neffbar::cli
