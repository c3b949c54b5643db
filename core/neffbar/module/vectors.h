// Test vectors, Wycheproof-style: one JSON file per operation of the module ABI
// (corpus/vectors/<operation>.json, schema corpus/vectors/vectors.schema.json).  Each
// test has an id, a comment, flags naming the facts it pins (facts.h: each flag's tag
// and source are in the file's "notes"), its input and the expected result, all
// written from the reference.  A port in any language can run them without neffbar;
// neffbar runs them against a module (conform) and checks the committed files are what
// make_vectors writes now (ctest fuzz_generated_files).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "neffbar/module/differential.h"
#include "neffbar/module/neffbar_module.h"

namespace neffbar {

// The ABI's operations, in the header's order: the vector files' names.
inline constexpr std::string_view kOperations[] = {"decode_log", "encode_log", "search", "table_bytes", "sema_apply"};

// The vector file of `operation` (one of kOperations), from the reference.
nlohmann::ordered_json make_vectors(std::string_view operation);

struct VectorOutcome {
  int id = 0;
  std::string comment;
  std::vector<std::string> flags;
  std::optional<Disagreement> disagreement;  // nullopt: passed (or the module skips the operation)
};

// Runs every test of a vector file against `module`: the module's answer compared with
// the file's expected one.  A file that is not a vector file: std::invalid_argument
// naming the test and key.
// `site`, when given, hears of each test before the module is called on it.
std::vector<VectorOutcome> run_vectors(const neffbar_module& module, const nlohmann::ordered_json& file,
                                       CallSite* site = nullptr);

// True when `module` implements `operation`.
bool implements(const neffbar_module& module, std::string_view operation);

}  // namespace neffbar
