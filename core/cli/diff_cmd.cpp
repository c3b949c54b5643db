// The diff command (diff_cmd.h).
#include "diff_cmd.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "exit.h"
#include "input.h"
#include "neffbar/config_diff.h"
#include "neffbar/context_diff.h"
#include "neffbar/model/scenarios/composed_files.h"

namespace neffbar::cli {
namespace {

namespace fs = std::filesystem;

// How a pair of files is compared.  Auto: by what the files are (two 0x128-byte files
// are config images; one of each is refused; two .json files are compared by their
// bytes; any other two are driver contexts).
enum class Kind : std::uint8_t { Auto, Config, Context, Bytes };

// The files a diff argument names: a compose manifest's (its images, logs, contexts
// and the manifest itself, each of known kind), or a plain directory's regular files
// (not dot-files).  nullopt when the argument is one file.
struct FileSet {
  fs::path dir;
  std::map<std::string, Kind> files;  // by name, so pairs and lines come sorted
};

Result<std::optional<FileSet>> file_set(const std::string& path) {
  std::error_code ec;
  const Result<std::optional<ManifestAt>> m = find_manifest(path);
  if (!m) return m.error();
  if (*m) {
    FileSet s{(*m)->dir, {}};
    for (const model::ManifestEntry& e : (*m)->manifest.entries) {
      s.files[e.file] = e.role == model::FileRole::Leader ? Kind::Config : Kind::Context;
      if (e.log) s.files[*e.log] = Kind::Bytes;
    }
    for (const auto& [name, kind] : s.files) {  // a file the manifest names is there, or it is refused
      if (!fs::is_regular_file(s.dir / name, ec)) {
        return Error{Errc::Io, name, "the file the manifest names", fs::exists(s.dir / name, ec) ? "not a regular file" : "nothing there"};
      }
    }
    s.files[(*m)->file.filename().string()] = Kind::Bytes;  // the manifest itself
    return std::optional<FileSet>(std::move(s));
  }
  if (!fs::is_directory(path, ec)) return std::optional<FileSet>();
  FileSet s{path, {}};
  for (const auto& e : fs::directory_iterator(path, ec)) {
    const std::string name = e.path().filename().string();
    std::error_code entry;  // an entry that cannot be followed (a dangling link, a loop) is not a file
    if (!name.starts_with(".") && e.is_regular_file(entry)) s.files[name] = Kind::Auto;
  }
  if (ec) return Error{Errc::Io, "", "a readable directory", ec.message()};
  return std::optional<FileSet>(std::move(s));
}

// One compared pair and what differs.
struct Pair {
  std::string name;  // in a directory; empty for two files
  std::string a, b;
  Kind kind = Kind::Bytes;
  std::variant<std::vector<FieldDiff>, std::vector<ContextDiff>, std::optional<std::size_t>> diff;
  std::size_t a_size = 0, b_size = 0;
  std::size_t first_line = 0;  // Bytes: the line of the first difference (1-based)
  [[nodiscard]] bool equal() const {
    return std::visit([](const auto& d) {
      if constexpr (std::is_same_v<std::decay_t<decltype(d)>, std::optional<std::size_t>>) {
        return !d.has_value();
      } else {
        return d.empty();
      }
    }, diff);
  }
};

// An error and the file it is about (the error line names the file first).
struct FileError {
  Error error;
  std::string file;
};
template <class T>
using FileResult = std::variant<T, FileError>;

Result<std::string> read_file(const std::string& path, std::size_t limit, std::string_view what) {
  Result<Input> in = read_bounded(path, limit);
  if (!in) return in.error();
  if (in->over_limit && limit == kConfigSize) {
    return Error{Errc::WrongLength, "config image", "296 bytes (0x128)",
                 in->file_size ? std::to_string(*in->file_size) + " bytes" : "more than 296 bytes"};
  }
  if (in->over_limit) {
    return Error{Errc::WrongLength, std::string(what), "at most 1 MiB",
                 in->file_size ? std::to_string(*in->file_size) + " bytes" : "more than 1 MiB"};
  }
  return std::move(in->data);
}

ConfigBytes as_config(const std::string& s) {
  ConfigBytes c{};
  std::copy(s.begin(), s.end(), reinterpret_cast<char*>(c.data()));
  return c;
}

std::span<const std::uint8_t> as_bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

FileError wrong_config_length(const std::string& path, std::size_t got) {
  return {Error{Errc::WrongLength, "config image", "296 bytes (0x128)", std::to_string(got) + " bytes"}, path};
}

// Compares the pair as `kind` says (Auto: decided from the bytes).
FileResult<Pair> compare(std::string name, const std::string& pa, const std::string& pb, Kind kind) {
  // A config is read up to 0x129 bytes (enough to tell its length is wrong), anything else up to 1 MiB.
  const std::size_t limit = kind == Kind::Config ? kConfigSize : kMaxJsonBytes;
  const std::string_view what = kind == Kind::Bytes ? "file" : "driver context";
  const Result<std::string> x = read_file(pa, limit, what);
  if (!x) return FileError{x.error(), pa};
  const Result<std::string> y = read_file(pb, limit, what);
  if (!y) return FileError{y.error(), pb};
  if (kind == Kind::Auto) {
    const bool ca = x->size() == kConfigSize, cb = y->size() == kConfigSize;
    if (ca != cb) return ca ? wrong_config_length(pb, y->size()) : wrong_config_length(pa, x->size());
    kind = ca ? Kind::Config : pa.ends_with(".json") && pb.ends_with(".json") ? Kind::Bytes : Kind::Context;
  }
  Pair p{std::move(name), pa, pb, kind, {}, x->size(), y->size()};
  switch (kind) {
    case Kind::Config:
      if (x->size() != kConfigSize) return wrong_config_length(pa, x->size());
      if (y->size() != kConfigSize) return wrong_config_length(pb, y->size());
      p.diff = diff_configs(as_config(*x), as_config(*y));
      break;
    case Kind::Context: p.diff = diff_contexts(as_bytes(*x), as_bytes(*y)); break;
    default: {
      const std::optional<std::size_t> at = first_difference(*x, *y);
      if (at) p.first_line = 1 + static_cast<std::size_t>(std::count(x->begin(), x->begin() + static_cast<std::ptrdiff_t>(*at), '\n'));
      p.diff = at;
    }
  }
  return p;
}

// The pair's differences as text lines (without the file-name prefix).
std::vector<std::string> lines(const Pair& p) {
  std::vector<std::string> out;
  if (const auto* d = std::get_if<std::vector<FieldDiff>>(&p.diff)) {
    for (const FieldDiff& f : *d) out.push_back(f.line());
  } else if (const auto* c = std::get_if<std::vector<ContextDiff>>(&p.diff)) {
    for (const ContextDiff& f : *c) out.push_back("driver context " + f.line());
    if (p.a_size != p.b_size) out.push_back("driver context length: " + std::to_string(p.a_size) + " -> " + std::to_string(p.b_size) + " bytes");
  } else if (const auto& at = std::get<std::optional<std::size_t>>(p.diff)) {
    out.push_back("differs from byte " + std::to_string(*at) + " (line " + std::to_string(p.first_line) + "); " +
                  std::to_string(p.a_size) + " -> " + std::to_string(p.b_size) + " bytes");
  }
  return out;
}

std::string_view kind_name(Kind k) { return k == Kind::Config ? "config" : k == Kind::Context ? "driver_context" : "bytes"; }

nlohmann::json differences_json(const Pair& p) {
  nlohmann::json d = nlohmann::json::array();
  if (const auto* fields = std::get_if<std::vector<FieldDiff>>(&p.diff)) {
    for (const FieldDiff& f : *fields) {
      const Field& field = *f.leaf->field;
      d.push_back({{"offset", f.leaf->offset},
                   {"field", leaf_path(*f.leaf)},
                   {"step", f.leaf->step == 0xFF ? nlohmann::json(nullptr) : nlohmann::json(f.leaf->step)},
                   {"index", f.leaf->index},
                   {"a", f.a},
                   {"b", f.b},
                   {"a_text", field_text(field, f.a)},
                   {"b_text", field_text(field, f.b)},
                   {"tag", tag_name(field.tag)},
                   {"reserved", f.reserved()}});
    }
  } else if (const auto* ctx = std::get_if<std::vector<ContextDiff>>(&p.diff)) {
    const auto value = [](const std::optional<std::uint64_t>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    for (const ContextDiff& c : *ctx) {
      d.push_back({{"offset", c.offset},
                   {"length", c.length},
                   {"field", c.field ? nlohmann::json(std::string(c.field->name)) : nlohmann::json(nullptr)},
                   {"a", value(c.a)},
                   {"b", value(c.b)},
                   {"tag", c.field ? nlohmann::json(std::string(tag_name(c.field->tag))) : nlohmann::json(nullptr)}});
    }
  } else if (const auto& at = std::get<std::optional<std::size_t>>(p.diff)) {
    d.push_back({{"offset", *at}, {"line", p.first_line}});
  }
  return d;
}

nlohmann::json diff_json(const std::vector<Pair>& pairs, const std::vector<std::string>& only_a, const std::vector<std::string>& only_b,
                         bool equal) {
  nlohmann::json j;
  j["pairs"] = nlohmann::json::array();
  for (const Pair& p : pairs) {
    j["pairs"].push_back({{"a", p.a},
                          {"b", p.b},
                          {"kind", kind_name(p.kind)},
                          {"a_size", p.a_size},
                          {"b_size", p.b_size},
                          {"differences", differences_json(p)}});
  }
  j["only_in_a"] = only_a;
  j["only_in_b"] = only_b;
  j["equal"] = equal;
  return j;
}

// The pairs of two sets by name; what only one side has.
FileResult<std::vector<Pair>> compare_sets(const FileSet& sa, const FileSet& sb, std::vector<std::string>& only_a,
                                           std::vector<std::string>& only_b) {
  std::vector<Pair> pairs;
  for (const auto& [name, kind] : sa.files) {
    const auto other = sb.files.find(name);
    if (other == sb.files.end()) {
      only_a.push_back(name);
      continue;
    }
    FileResult<Pair> p = compare(name, (sa.dir / name).string(), (sb.dir / name).string(), kind != Kind::Auto ? kind : other->second);
    if (auto* e = std::get_if<FileError>(&p)) return std::move(*e);
    pairs.push_back(std::move(std::get<Pair>(p)));
  }
  for (const auto& [name, kind] : sb.files) {
    if (!sa.files.contains(name)) only_b.push_back(name);
  }
  return pairs;
}

}  // namespace

void add_diff(CLI::App& app, Run& run) {
  auto* cmd = app.add_subcommand(
      "diff", "Compare two config images field by field, two driver contexts (their known fields, then byte runs), or two "
              "directories or compose manifests file by file, paired by name (everything compose writes: images, contexts, "
              "logs, the manifest); exit 5 when they differ");
  auto opts = std::make_shared<std::tuple<std::string, std::string, bool>>();
  cmd->add_option("A", std::get<0>(*opts),
                  "Config image (0x128 bytes), driver context, a directory of them or compose's manifest.json, - for stdin")
      ->required();
  cmd->add_option("B", std::get<1>(*opts), "Config image, driver context, directory or manifest to compare with A")->required();
  cmd->add_flag("--json", std::get<2>(*opts),
                "One JSON object: pairs (a, b, kind, a_size, b_size, differences), only_in_a, only_in_b, equal");
  cmd->callback([opts, &run] {
    const auto& [a, b, json] = *opts;
    if (a.empty() || b.empty()) {
      return void(run.exit_code = fail_usage(Error{Errc::InvalidArgument, a.empty() ? "A" : "B", "a file or directory", "an empty path ''"}));
    }
    if (a == "-" && b == "-") {
      return void(run.exit_code = fail_usage(Error{Errc::InvalidArgument, "B", "another input than A (stdin is read once)", "- twice"}));
    }
    const auto set_a = file_set(a);
    if (!set_a) return void(run.exit_code = fail_input(set_a.error(), a));
    const auto set_b = file_set(b);
    if (!set_b) return void(run.exit_code = fail_input(set_b.error(), b));
    for (const std::string& p : {a, b}) {  // a path that is not there is named as such, not as a kind that differs
      std::error_code ec;
      if (p != "-" && !fs::exists(fs::symlink_status(p, ec))) {
        return void(run.exit_code = fail_input(Error{Errc::Io, "", "a file or directory", "nothing there"}, p));
      }
    }
    if (set_a->has_value() != set_b->has_value()) {
      const std::string& dir = *set_a ? a : b;
      return void(run.exit_code = fail_input(Error{Errc::InvalidArgument, dir, "a file beside a file, or a directory (or manifest) beside another",
                                                   "a set of files beside one file"}, dir));
    }
    std::vector<std::string> only_a, only_b;
    FileResult<std::vector<Pair>> got = std::vector<Pair>{};
    if (*set_a) {
      got = compare_sets(**set_a, **set_b, only_a, only_b);
    } else if (FileResult<Pair> p = compare("", a, b, Kind::Auto); auto* pair = std::get_if<Pair>(&p)) {
      std::get<std::vector<Pair>>(got).push_back(std::move(*pair));
    } else {
      got = std::get<FileError>(std::move(p));
    }
    if (const auto* e = std::get_if<FileError>(&got)) return void(run.exit_code = fail_input(e->error, e->file));
    const std::vector<Pair>* pairs = &std::get<std::vector<Pair>>(got);
    const bool equal = only_a.empty() && only_b.empty() && std::all_of(pairs->begin(), pairs->end(), [](const Pair& p) { return p.equal(); });
    if (json) {
      // Names come from the user's file system: their bytes need not be UTF-8.
      std::cout << diff_json(*pairs, only_a, only_b, equal).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
      for (const std::string& n : only_a) std::cout << "only in " << escape(a) << ": " << escape(n) << '\n';
      for (const std::string& n : only_b) std::cout << "only in " << escape(b) << ": " << escape(n) << '\n';
      for (const Pair& p : *pairs) {
        for (const std::string& l : lines(p)) std::cout << (p.name.empty() ? "" : escape(p.name) + ": ") << l << '\n';
      }
    }
    run.exit_code = code(equal ? Exit::Ok : Exit::Differ);
  });
}

}  // namespace neffbar::cli
