#include "conform_cmd.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "exit.h"
#include "input.h"
#include "module_host.h"
#include "output.h"
#include "neffbar/module/conformance.h"
#include "neffbar/strict_json.h"

namespace neffbar::cli {
namespace {

struct ConformArgs {
  std::string module;
  std::string vectors;  // a folder of <operation>.json files; empty: the vectors built in
  double seconds = 2.0;
  std::uint64_t seed = 1;
  double call_timeout = 10.0;
  bool json = false;
  std::string html;
};

// The vector files of `dir`: every *.json but the schema, each a vector file of a known
// operation, at most one per operation.  An error names the file.
Result<std::vector<nlohmann::ordered_json>> read_vector_files(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return Error{Errc::InvalidArgument, "--vectors", "a folder of vector files (corpus/vectors)", "'" + dir + "'"};
  std::vector<fs::path> paths;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json" && it->path().filename() != "vectors.schema.json") paths.push_back(it->path());
  if (ec) return Error{Errc::InvalidArgument, dir, "a folder that can be read", ec.message()};
  std::sort(paths.begin(), paths.end());
  std::vector<nlohmann::ordered_json> files;
  std::vector<std::string> ops;
  for (const fs::path& p : paths) {
    if (!fs::is_regular_file(p, ec))  // a FIFO or a device would be waited on, or read for ever
      return Error{Errc::InvalidArgument, p.string(), "a regular file", "another kind of file"};
    const Result<std::string> text = read_json_text(p.string(), "vector file");
    if (!text) return Error{text.error().code, p.string() + ": " + text.error().where, text.error().expected, text.error().got};
    const Result<nlohmann::json> j = parse_strict_json(*text);
    if (!j) return Error{j.error().code, p.string() + ": " + j.error().where, j.error().expected, j.error().got};
    const auto op = j->is_object() && j->contains("operation") && (*j)["operation"].is_string()
                        ? (*j)["operation"].get<std::string>()
                        : std::string();
    if (std::find(std::begin(kOperations), std::end(kOperations), op) == std::end(kOperations))
      return Error{Errc::InvalidArgument, p.string() + ": $.operation", "one of decode_log, encode_log, search, table_bytes, sema_apply",
                   op.empty() ? "none" : "'" + op + "'"};
    if (std::find(ops.begin(), ops.end(), op) != ops.end())
      return Error{Errc::InvalidArgument, p.string(), "one vector file per operation", "a second one of " + op};
    if (!(*j).contains("tests") || !(*j)["tests"].is_array())
      return Error{Errc::InvalidArgument, p.string() + ": $.tests", "an array of tests", "none"};
    ops.push_back(op);
    files.push_back(nlohmann::ordered_json::parse(j->dump()));
  }
  if (files.empty()) return Error{Errc::InvalidArgument, dir, "at least one <operation>.json vector file", "none"};
  return files;
}

}  // namespace

void add_conform_command(CLI::App& app, Run& run, std::string_view only) {
  if (!only.empty() && only != "conform") return;
  auto a = std::make_shared<ConformArgs>();
  auto* cmd = app.add_subcommand(
      "conform",
      "Judge a module (a shared object implementing neffbar_module.h) against the reference: the test vectors, then a "
      "bounded differential fuzz (exit 0 agrees, 4 disagrees or the module crashed or hung, 1 cannot be loaded)");
  cmd->add_option("MODULE", a->module, "The module's shared object (exports neffbar_module_v1)")->required();
  cmd->add_option("--vectors", a->vectors, "A folder of vector files (<operation>.json, as corpus/vectors); default: the ones built in");
  cmd->add_option("--seconds", a->seconds, "Differential fuzz budget, split over the operations the module implements")
      ->capture_default_str()->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--seed", a->seed, "Seed of the differential fuzz (the table prints it)")->capture_default_str();
  cmd->add_option("--call-timeout", a->call_timeout, "Seconds one module call may take before it counts as a hang")
      ->capture_default_str()->check(CLI::Range(0.1, 3600.0));
  cmd->add_flag("--json", a->json, "The judgement as JSON instead of the table");
  cmd->add_option("--html", a->html, "Also write the judgement as an HTML page to FILE");
  cmd->callback([a, cmd, &run] {
    for (const auto& [name, v] : {std::pair{"--seconds", a->seconds}, {"--call-timeout", a->call_timeout}})
      if (!std::isfinite(v))  // CLI11's range lets NaN through: it compares false with both ends
        return void(run.exit_code = fail_usage(Error{Errc::InvalidArgument, name, "a number of seconds", "nan"}));
    if (cmd->count("--html") && (a->html.empty() || a->html == "-" || (run.to_stdout() && names_stdout(a->html)) ||
                                 (!run.to_stdout() && same_output(a->html, run.output))))
      return void(run.exit_code = fail_usage(Error{Errc::InvalidArgument, "--html", "a file other than -o's and stdout",
                                                   "'" + a->html + "'"}));
    std::vector<nlohmann::ordered_json> files;
    if (!a->vectors.empty()) {
      auto read = read_vector_files(a->vectors);
      if (!read) return void(run.exit_code = fail_input(read.error(), a->vectors));
      files = std::move(*read);
    }
    const ConformOptions options{a->seed, a->seconds, 0, files};
    const Hosted h = conform_hosted(a->module, options, a->call_timeout);
    if (!h.result) {
      return void(run.exit_code = fail_input(Error{Errc::InvalidArgument, "module", "a neffbar module (neffbar_module.h, ABI " +
                                                   std::to_string(NEFFBAR_MODULE_ABI_VERSION) + ")", h.load_error},
                                             a->module));
    }
    std::cout << (a->json ? h.result->to_json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"
                          : h.result->table());
    if (cmd->count("--html")) run.files.emplace_back(a->html, h.result->html());
    run.exit_code = code(h.result->agrees() ? Exit::Ok : Exit::Failing);
  });
}

}  // namespace neffbar::cli
