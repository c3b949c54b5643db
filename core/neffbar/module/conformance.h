// A module judged on every operation it implements: the test vectors, then a bounded
// differential fuzz against the reference (what `neffbar conform` prints).  The result
// is data first (Conformance, its JSON), its table and page drawn from it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "neffbar/module/differential.h"
#include "neffbar/module/neffbar_module.h"
#include "neffbar/module/vectors.h"

namespace neffbar {

struct OpReport {
  std::string op;
  bool implemented = false;
  int vectors = 0, passed = 0;
  // The most specific failing vector: of those whose disagreement names one of the
  // vector's own flags (the evidence agrees with what the test pins), else of all, the
  // one with the fewest flags, the first of those.
  std::optional<VectorOutcome> first_failure;
  std::vector<std::pair<std::string, int>> failed_flags;  // each flag of a failing vector, how many failed
  std::uint64_t fuzz_runs = 0;                  // differential executions
  std::optional<Disagreement> fuzz_disagreement;
  std::string fuzz_input;                        // the input of fuzz_disagreement, as a reproducible text
};

struct Conformance {
  std::string module;          // the module's name
  std::uint64_t seed = 0;      // of the differential fuzz
  std::vector<OpReport> ops;   // kOperations' order
  std::string fault;           // the module crashed or hung: where (empty: it did not)

  // No failed vector, no disagreement, no fault.
  [[nodiscard]] bool agrees() const;
  [[nodiscard]] nlohmann::ordered_json to_json() const;
  // The inverse of to_json; std::invalid_argument naming the key on anything else.
  static Conformance from_json(const nlohmann::ordered_json& j);
  // One row per operation: implemented, vectors passed, the most specific failing vector
  // with its flags, the flags of the failing vectors, the fuzz executions and the first
  // disagreement; then the reproduce lines and the verdict line.
  [[nodiscard]] std::string table() const;
  // The same as one HTML page (a table a test reads back).
  [[nodiscard]] std::string html() const;
};

struct ConformOptions {
  std::uint64_t seed = 1;
  double seconds = 2.0;                     // the differential fuzz, in all (split over the operations)
  std::uint64_t max_runs = 0;               // a cap on its executions per operation (0: none)
  std::span<const nlohmann::ordered_json> vectors;  // the vector files (make_vectors' when empty)
};

// Runs the vectors and the differential fuzz of every operation `module` implements.
// A vector file that is not one: std::invalid_argument naming it.
Conformance conform(const neffbar_module& module, const ConformOptions& options, CallSite* site = nullptr);

}  // namespace neffbar
