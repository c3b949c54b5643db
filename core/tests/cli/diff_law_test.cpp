// The law of diff on compose's output, at the command line where the slips are (the
// contract: core/cli/README.md, "What diff compares"): two compose directories are
// diff-equal (exit 0, nothing printed, "equal": true in --json) exactly when every file
// compose wrote (the manifest and the files it names) is byte-identical; otherwise exit
// 5, and both the text and the JSON name every such file that differs or stands on one
// side only; or, for what the contract refuses (a manifest that does not read, a file
// it names that is missing, a leader image beside a file of another length), exit 1,
// nothing on stdout and one line on stderr naming the file.  The directories are
// composed from random options (with and without --logs, the same options or one
// changed), then one file of the second changed: a byte flipped, cut short, deleted, or
// a file compose writes elsewhere added (a log, a leader image, a driver context).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "in_process.h"
#include "neffbar/model/scenarios/composed_files.h"

namespace neffbar::cli::laws {
namespace {

enum class Change { None, Flip, Truncate, Delete, Add };

// The second directory's options: the first's, or with one of them changed.
ComposeOptions maybe_changed(ComposeOptions o) {
  switch (*rc::gen::resize(100, rc::gen::inRange(0, 6))) {  // uniform at every size (inRange scales with it)
    case 0: o.chips = o.chips % 4 + 1; break;
    case 1: o.compare = o.compare == "ge" ? "gt" : "ge"; break;  // the manifest alone changes
    case 2: o.host_cc = !o.host_cc; break;
    default: break;  // the same options (3 in 6)
  }
  return o;
}

// Applies `change` to one file of `dir` (a file compose could have written, for Add);
// returns the file's name, or "" when nothing changed.
std::string change_one(const fs::path& dir, Change change) {
  std::map<std::string, std::string> files = tree(dir);
  std::vector<std::string> names;
  for (const auto& [n, _] : files) names.push_back(n);
  if (change == Change::None) return "";
  if (change == Change::Add) {
    const std::vector<std::string> candidates{"chip00_leader0.json", "chip00_leader7.bin", "chip09_context.bin", "chip09_leader0.bin"};
    std::vector<std::string> absent;
    std::copy_if(candidates.begin(), candidates.end(), std::back_inserter(absent), [&](const std::string& n) { return !files.contains(n); });
    const std::string name = *rc::gen::elementOf(absent);
    const std::string like = *rc::gen::elementOf(names);  // bytes of the kind compose writes
    write_bytes(dir / name, files[like]);
    return name;
  }
  const std::string name = *rc::gen::elementOf(names);
  const std::string& bytes = files[name];
  if (change == Change::Delete) {
    fs::remove(dir / name);
  } else if (change == Change::Truncate) {
    write_bytes(dir / name, bytes.substr(0, *rc::gen::inRange<std::size_t>(0, bytes.size())));
  } else {
    std::string flipped = bytes;
    const std::size_t at = *rc::gen::inRange<std::size_t>(0, bytes.size());
    flipped[at] = static_cast<char>(flipped[at] ^ *rc::gen::inRange(1, 256));
    write_bytes(dir / name, flipped);
  }
  return name;
}

// What diff reads of a directory: the files compose wrote (the manifest and the files
// it names, leader images apart) or, for a directory without compose's manifest, every
// file; nullopt for a manifest.json that does not read (refused).
struct Written {
  std::set<std::string> files, leaders;
};
std::optional<Written> written(const fs::path& dir) {
  const std::map<std::string, std::string> t = tree(dir);
  Written w;
  if (!t.contains("manifest.json")) {
    for (const auto& [n, _] : t) w.files.insert(n);
    return w;
  }
  const Result<model::Manifest> m = model::read_manifest(t.at("manifest.json"));
  if (!m && m.error().where == "$.format" && m.error().got == "nothing") {  // another program's: a plain directory
    for (const auto& [n, _] : t) w.files.insert(n);
    return w;
  }
  if (!m) return std::nullopt;
  w.files.insert("manifest.json");
  for (const model::ManifestEntry& e : m->entries) {
    w.files.insert(e.file);
    if (e.role == model::FileRole::Leader) w.leaders.insert(e.file);
    if (e.log) w.files.insert(*e.log);
  }
  return w;
}

// What diff must answer: a refusal naming one of `refused`, or the files that differ.
struct Expected {
  std::set<std::string> refused;
  std::vector<std::string> differing;
};
Expected expected(const fs::path& a, const fs::path& b) {
  const std::optional<Written> wa = written(a), wb = written(b);
  Expected e;
  if (!wa || !wb) {
    e.refused.insert("manifest.json");
    return e;
  }
  const auto ta = tree(a), tb = tree(b);
  for (const auto& [w, t] : {std::pair{*wa, ta}, std::pair{*wb, tb}}) {
    for (const std::string& n : w.files) {
      if (!t.contains(n) && n != "manifest.json") e.refused.insert(n);  // a file its manifest names is missing
    }
  }
  std::set<std::string> all = wa->files;
  all.insert(wb->files.begin(), wb->files.end());
  for (const std::string& n : all) {
    const bool leader = wa->leaders.contains(n) || wb->leaders.contains(n);
    if (leader && ta.contains(n) && tb.contains(n) && ta.at(n).size() != tb.at(n).size()) e.refused.insert(n);  // config vs not
    if (!ta.contains(n) || !tb.contains(n) || ta.at(n) != tb.at(n)) e.differing.push_back(n);
  }
  return e;
}

// compose twice, change one file of the second as `change` says, diff the two.
void diff_is_equal_exactly_when_byte_identical(Change change) {
  Scratch scratch;
  const ComposeOptions oa = any_compose_options();
  const ComposeOptions ob = maybe_changed(oa);
  const bool logs_a = *rc::gen::arbitrary<bool>();
  const bool logs_b = *rc::gen::weightedOneOf<bool>({{5, rc::gen::just(logs_a)}, {1, rc::gen::just(!logs_a)}});
  const std::string a = scratch.path("a"), b = scratch.path("b");
  for (const auto& [dir, o, logs] : {std::tuple{a, oa, logs_a}, std::tuple{b, ob, logs_b}}) {
    std::vector<std::string> w{"compose", "-o", dir};
    const std::vector<std::string> ow = o.words();
    w.insert(w.end(), ow.begin(), ow.end());
    if (logs) w.emplace_back("--logs");
    const Ran r = run_cli(w);
    RC_ASSERT(r.code == 0);
  }
  const std::string changed = change_one(b, change);
  const Expected want = expected(a, b);
  RC_TAG(!want.refused.empty() ? "refused" : want.differing.empty() ? "equal" : change == Change::None ? "options" : "changed");
  RC_CLASSIFY(changed.find("context") != std::string::npos, "a driver context changed");

  const Ran text = run_cli({"diff", a, b});
  const Ran js = run_cli({"diff", "--json", a, b});
  RC_LOG() << "compose " << show(oa.words()) << (logs_a ? " --logs" : "") << "\n    and " << show(ob.words())
           << (logs_b ? " --logs" : "") << "\nchanged " << changed << "; refused for:";
  for (const std::string& n : want.refused) RC_LOG() << " " << n;
  RC_LOG() << "; differing files:";
  for (const std::string& n : want.differing) RC_LOG() << " " << n;
  RC_LOG() << "\ndiff: exit " << text.code << "\n" << text.out << text.err << "diff --json: exit " << js.code << "\n" << js.out << js.err;
  if (!want.refused.empty()) {
    for (const Ran& r : {text, js}) {
      RC_ASSERT(r.code == 1);
      RC_ASSERT(r.out.empty());
      RC_ASSERT(r.err.starts_with("neffbar: ") && r.err.find('\n') == r.err.size() - 1);  // one line
      RC_ASSERT(std::any_of(want.refused.begin(), want.refused.end(), [&](const std::string& n) { return r.err.find(n) != std::string::npos; }));
    }
    return;
  }
  const bool equal = want.differing.empty();
  RC_ASSERT(text.code == (equal ? 0 : 5));
  RC_ASSERT(js.code == (equal ? 0 : 5));
  RC_ASSERT(!equal || text.out.empty());
  const nlohmann::json j = nlohmann::json::parse(js.out, nullptr, false);
  RC_ASSERT(!j.is_discarded());
  RC_ASSERT(j.value("equal", !equal) == equal);
  for (const std::string& n : want.differing) {
    RC_ASSERT(text.out.find(n) != std::string::npos);  // the text names it
    RC_ASSERT(j.dump().find(n) != std::string::npos);  // so does the JSON
  }
}

// One test a kind of change, so that a failure says which kind diff misses.
RC_GTEST_PROP(DiffLaw, SameOrOtherOptions, ()) { diff_is_equal_exactly_when_byte_identical(Change::None); }
RC_GTEST_PROP(DiffLaw, AByteFlipped, ()) { diff_is_equal_exactly_when_byte_identical(Change::Flip); }
RC_GTEST_PROP(DiffLaw, AFileCutShort, ()) { diff_is_equal_exactly_when_byte_identical(Change::Truncate); }
RC_GTEST_PROP(DiffLaw, AFileDeleted, ()) { diff_is_equal_exactly_when_byte_identical(Change::Delete); }
RC_GTEST_PROP(DiffLaw, AFileAdded, ()) { diff_is_equal_exactly_when_byte_identical(Change::Add); }

}  // namespace
}  // namespace neffbar::cli::laws
