// The law of diff on compose's output, at the command line where the slips are: two
// compose directories are diff-equal (exit 0, nothing printed, "equal": true in --json)
// exactly when their trees are byte-identical; otherwise exit 5, and both the text and
// the JSON name every file that differs or stands on one side only.  The directories
// are composed from random options (with and without --logs, the same options or one
// changed), then one file of the second changed: a byte flipped, cut short, deleted, or
// a file compose writes added (a log, a leader image, a driver context).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "in_process.h"

namespace neffbar::cli::laws {
namespace {

enum class Change { None, Flip, Truncate, Delete, Add };

// The second directory's options: the first's, or with one of them changed.
ComposeOptions maybe_changed(ComposeOptions o) {
  switch (*rc::gen::inRange(0, 6)) {
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

// The files whose bytes differ, or that one side lacks.
std::vector<std::string> differing(const fs::path& a, const fs::path& b) {
  const auto ta = tree(a), tb = tree(b);
  std::vector<std::string> out;
  for (const auto& [n, bytes] : ta) {
    if (!tb.contains(n) || tb.at(n) != bytes) out.push_back(n);
  }
  for (const auto& [n, _] : tb) {
    if (!ta.contains(n)) out.push_back(n);
  }
  return out;
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
  const std::vector<std::string> diff = differing(a, b);
  RC_TAG(diff.empty() ? "identical" : change == Change::None ? "options" : changed.ends_with(".json") ? "a .json" : "a .bin");
  RC_CLASSIFY(changed.find("context") != std::string::npos, "a driver context changed");

  const Ran text = run_cli({"diff", a, b});
  const Ran js = run_cli({"diff", "--json", a, b});
  RC_LOG() << "compose " << show(oa.words()) << (logs_a ? " --logs" : "") << "\n    and " << show(ob.words())
           << (logs_b ? " --logs" : "") << "\nchanged " << changed << "; differing files:";
  for (const std::string& n : diff) RC_LOG() << " " << n;
  RC_LOG() << "\ndiff: exit " << text.code << "\n" << text.out << text.err << "diff --json: exit " << js.code << "\n" << js.out << js.err;
  if (diff.empty()) {
    RC_ASSERT(text.code == 0);
    RC_ASSERT(text.out.empty());
    RC_ASSERT(js.code == 0);
  } else {
    RC_ASSERT(text.code == 5);
    RC_ASSERT(js.code == 5);
  }
  const nlohmann::json j = nlohmann::json::parse(js.out, nullptr, false);
  RC_ASSERT(!j.is_discarded());
  RC_ASSERT(j.value("equal", !diff.empty()) == diff.empty());
  for (const std::string& n : diff) {
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
