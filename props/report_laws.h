// What a user reads of a checked system, a law the engine properties and the fuzz
// targets share: every counterexample replays and formats as its verdict plus one
// numbered line per step; the Promela export has one proctype and one run per process,
// one statement per instruction (of the round body, when every process loops over its
// body) and balanced braces.
#pragma once

#include <string>
#include <string_view>

#include "judge.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/exports/promela.h"

namespace neffbar::props {

inline std::size_t occurrences(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

inline void counterexample_reads(const model::System& sys, const model::CheckResult& r, Judge& j) {
  if (!r.cex) return;
  j.require(model::replay(sys, *r.cex), "every counterexample replays");
  const std::string text = model::format_counterexample(sys, *r.cex);
  j.require(text.starts_with(std::string(model::verdict_name(r.cex->kind)) + ": "), "a counterexample names its verdict");
  j.require(occurrences(text, "\n") == r.cex->trace.size() + 1, "one numbered line per step");
}

inline void promela_reads(const model::System& sys, Judge& j) {
  const std::string pml = model::to_promela(sys, true);
  std::size_t statements = 3;  // the declarations of sem, arrived, finished
  const std::uint32_t runs = model::promela_loop_runs(sys);
  for (const model::Process& p : sys.procs) {
    // a loop writes the body once, with its counter's declaration and its `od`; + its `run` in init
    statements += (runs > 1 ? p.program.body().size() + 2 : p.program.size()) + 1;
  }
  for (const model::Semaphore& s : sys.semas) statements += s.initial != 0;  // set in init
  j.require(occurrences(pml, "proctype p") == sys.procs.size() && occurrences(pml, "\n    run p") == sys.procs.size(),
            "Promela: one proctype and one run per process");
  j.require(occurrences(pml, ";\n") == statements, "Promela: one statement per instruction (of a body, in a loop)");
  j.require(occurrences(pml, " rnd = 0;\n") == (runs > 1 ? sys.procs.size() : 0), "Promela: a loop per process, or none");
  j.require(occurrences(pml, "{") == occurrences(pml, "}"), "Promela: balanced braces");
}

}  // namespace neffbar::props
