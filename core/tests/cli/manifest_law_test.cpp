// The law of the manifest, at the command line: for compose's options drawn at random
// (every one check takes that the manifest records), with the manifest's files array
// rewritten in a random order, `check-configs DIR` decides what `check` decides on the
// same topology and options: the same exit code and, in --json, the same verdict,
// global line, broke-in-round, counterexample and finding (field by field, all but the
// scenario's title, timings and statistics).  Also with options on check-configs'
// command line that replace the manifest's (--fabric --rounds --lowering --compare
// --dec --guarantee), against check given the same replacements.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>

#include <nlohmann/json.hpp>

#include "in_process.h"

namespace neffbar::cli::laws {
namespace {

// What both commands decide; the rest (title, seconds, phases, states, symmetry, runs)
// is how they got there.
constexpr std::array kDecision{"verdict",     "guarantee", "engine",          "exact",          "exhaustive",
                               "persistent",  "processes", "global_property", "global_property_holds",
                               "broke_in_round", "note",   "counterexample",  "global_finding", "gate_clear"};

// Budgets that keep a case to milliseconds and cut the same search at the same state.
const std::vector<std::string> kBudget{"--json", "--max-states", "20000", "--max-seconds", "30"};

// Rewrites DIR's manifest with its files array in a random order.
void permute_manifest(const fs::path& dir) {
  nlohmann::ordered_json m = nlohmann::ordered_json::parse(read_bytes(dir / "manifest.json"));
  std::vector<nlohmann::ordered_json> files(m["files"].begin(), m["files"].end());
  std::vector<std::size_t> order(files.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[*rc::gen::inRange<std::size_t>(0, i)]);
  nlohmann::ordered_json permuted = nlohmann::ordered_json::array();
  for (const std::size_t i : order) permuted.push_back(files[i]);
  m["files"] = permuted;
  write_bytes(dir / "manifest.json", m.dump(2) + "\n");
}

// check-configs' replacements of the manifest's options, each drawn or not; applied to
// check's options too.
std::vector<std::string> any_overrides(ComposeOptions& o) {
  std::vector<std::string> w;
  const auto maybe = [&](const char* flag, std::string& field, std::string value) {
    if (!*rc::gen::weightedOneOf<bool>({{3, rc::gen::just(false)}, {1, rc::gen::just(true)}})) return;
    field = std::move(value);
    w.insert(w.end(), {flag, field});
  };
  maybe("--fabric", o.fabric, any_name<Fabric>());
  std::string rounds = std::to_string(o.rounds);
  maybe("--rounds", rounds, std::to_string(*rc::gen::inRange(1, 4)));
  o.rounds = static_cast<std::uint32_t>(std::stoul(rounds));
  maybe("--lowering", o.lowering, any_name<model::Lowering>());
  maybe("--compare", o.compare, any_name<Compare>());
  maybe("--dec", o.dec, any_name<model::DecMode>());
  maybe("--guarantee", o.guarantee, any_name<model::GuaranteeMode>());
  return w;
}

// compose, the manifest permuted, then check-configs on it (with replacements when
// `replace`) against check on the options it stands for.
void decides_as_check(bool replace) {
  Scratch scratch;
  ComposeOptions o = any_compose_options();
  const std::string dir = scratch.path("composed");
  std::vector<std::string> compose{"compose", "-o", dir};
  const std::vector<std::string> ow = o.words();
  compose.insert(compose.end(), ow.begin(), ow.end());
  if (*rc::gen::arbitrary<bool>()) compose.emplace_back("--logs");
  const Ran composed = run_cli(compose);
  RC_ASSERT(composed.code == 0);
  permute_manifest(dir);

  std::vector<std::string> from_files{"check-configs", dir};
  const std::vector<std::string> overrides = replace ? any_overrides(o) : std::vector<std::string>{};  // o: what check is given
  from_files.insert(from_files.end(), overrides.begin(), overrides.end());
  from_files.insert(from_files.end(), kBudget.begin(), kBudget.end());
  std::vector<std::string> direct{"check"};
  const std::vector<std::string> dw = o.words();
  direct.insert(direct.end(), dw.begin(), dw.end());
  direct.insert(direct.end(), kBudget.begin(), kBudget.end());

  const Ran a = run_cli(direct), b = run_cli(from_files);
  RC_LOG() << show(compose) << "\n" << show(direct) << ": exit " << a.code << "\n" << a.out << a.err << show(from_files) << ": exit "
           << b.code << "\n" << b.out << b.err;
  const nlohmann::json x = nlohmann::json::parse(a.out, nullptr, false), y = nlohmann::json::parse(b.out, nullptr, false);
  RC_ASSERT(!x.is_discarded());
  RC_ASSERT(!y.is_discarded());
  // A budget may cut the two searches at different states (check-configs finds its
  // symmetry otherwise): only whole decisions are compared.
  if (x.value("verdict", "") == "BUDGET" || y.value("verdict", "") == "BUDGET") {
    RC_TAG("budget");
    return;
  }
  RC_TAG(x.value("verdict", "?"), overrides.empty() ? "manifest's options" : "options replaced");
  RC_ASSERT(a.code == b.code);
  for (const char* key : kDecision) {
    RC_LOG() << "field " << key << "\n";
    RC_ASSERT(x.contains(key) == y.contains(key));
    if (x.contains(key)) RC_ASSERT(x[key] == y[key]);
  }
}

RC_GTEST_PROP(ManifestLaw, CheckConfigsDecidesWhatCheckDecides, ()) { decides_as_check(false); }

RC_GTEST_PROP(ManifestLaw, ReplacedOptionsDecideAsCheckGivenThem, ()) { decides_as_check(true); }

}  // namespace
}  // namespace neffbar::cli::laws
