#include "engine_cmds.h"

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "exit.h"
#include "neffbar/model/engines/engine_options.h"
#include "neffbar/overloaded.h"

namespace neffbar::cli {

using namespace neffbar::model;

namespace {

// The engines an option's row names ("every engine" for all of them).
std::vector<std::string> readers_of(const EngineOption& o) {
  std::vector<std::string> names;
  bool all = true;
  for (const auto& [e, n] : EnumNames<Engine>::table) {
    if (o.readers.has(e)) {
      names.emplace_back(n);
    } else {
      all = false;
    }
  }
  return all ? std::vector<std::string>{"every engine"} : names;
}

// What an engine's statistics count, from its type.
std::string stats_words(const EngineInfo& info) {
  return std::visit(Overloaded{[](const SearchStats&) { return std::string("states, transitions, reductions used"); },
                               [&](const RunStats&) { return "instructions, " + std::string(info.runs); }},
                    info.empty());
}

// A Markdown table cell: its pipes escaped.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// `neffbar engines`: the engine table and the engine options table (kEngines, kEngineOptions).
std::string engines_markdown() {
  std::ostringstream out;
  out << "| engine | what it does | proves | answers | counterexample | counts |\n|---|---|---|---|---|---|\n";
  for (const EngineInfo& e : engines()) {
    out << "| " << engine_name(e.engine) << " | " << cell(e.summary) << " | "
        << (e.proves ? "yes, when no budget cut it" : "no: its OK is NOT_REFUTED") << " | "
        << (e.qualified_only ? "the systems that qualify; the others are refused, naming why" : "every system") << " | "
        << cell(e.counterexample) << " | " << stats_words(e) << " |\n";
  }
  out << "\n`--engine auto` runs persistent where the system qualifies, else explicit.\n\n"
      << "| option | value | default | read by | help |\n|---|---|---|---|---|\n";
  for (const EngineOption& o : kEngineOptions) {
    out << "| `" << o.flag << "` | " << (o.type.empty() ? "" : std::string(o.type)) << " | "
        << (o.default_text ? o.default_text() : "") << " | " << join(readers_of(o)) << " | " << cell(o.help) << " |\n";
  }
  out << "\nAn option the chosen engine does not read is refused (exit 2), naming whose option it is.\n";
  return out.str();
}

std::string engines_json() {
  nlohmann::ordered_json j;
  j["engines"] = nlohmann::ordered_json::array();
  for (const EngineInfo& e : engines()) {
    j["engines"].push_back({{"name", engine_name(e.engine)}, {"summary", e.summary}, {"proves", e.proves},
                            {"qualified_only", e.qualified_only}, {"counterexample", e.counterexample},
                            {"counts", stats_words(e)}});
  }
  j["options"] = nlohmann::ordered_json::array();
  for (const EngineOption& o : kEngineOptions) {
    j["options"].push_back({{"flag", o.flag}, {"value", o.type}, {"default", o.default_text ? o.default_text() : ""},
                            {"read_by", readers_of(o)}, {"help", o.help}});
  }
  return j.dump(2) + "\n";
}

}  // namespace

void add_engines(CLI::App& app, Run& run) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("engines", "List the engines and the options each reads (Markdown tables, or --json)");
  cmd->add_flag("--json", *json, "JSON instead of Markdown");
  cmd->callback([json, &run] {
    std::cout << (*json ? engines_json() : engines_markdown());
    run.exit_code = code(Exit::Ok);
  });
}

}  // namespace neffbar::cli
