// The libFuzzer driver of the properties (props/registry.h): the target prop_<name>
// decodes its input bytes into the property's typed input with the same generator
// rapidcheck uses (props/draw.h over a ByteSource) and runs the law.  A failed check
// prints the property, the check and the input's size, then aborts (libFuzzer keeps the
// input as a crash); an input outside the property (a discard) returns.  The laws'
// expensive cross-checks (Judge::thorough) run for a hash-sampled one distinct input in
// 1024 while fuzzing and for every input in the ctest replay (SlowOracleSample,
// fuzz_check.h, NEFFBAR_FUZZ_EVERY=1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <span>
#include <string_view>
#include <type_traits>

#include "fuzz_judge.h"
#include "properties.h"
#include "source.h"

namespace neffbar::fuzz {

// A topology input (p4_fabrics, p5_deadlock: draw_topology(s, 4, 2)) is one of 256
// topologies, each drawn by thousands of byte strings, and its law is a function of the
// topology alone: while fuzzing, each is decided once a process, and once more when the
// sample first picks it for the thorough checks.  The ctest replay (NEFFBAR_FUZZ_EVERY=1)
// decides every input, and props' TopologyProperties.HoldOnEveryTopologyTheyDraw every
// topology (with the persistent engine).
class DecidedTopologies {
 public:
  explicit DecidedTopologies(bool every = std::getenv("NEFFBAR_FUZZ_EVERY") != nullptr) : every_(every) {}
  // True when this process already decided `in` at least as thoroughly (so it is skipped).
  template <class In>
  bool decided(const In& in, bool thorough) {
    if constexpr (!std::is_same_v<In, props::TopologyInput>) {
      return false;
    } else {
      if (every_) return false;
      const auto [it, fresh] = seen_.try_emplace(props::topology_key(in.topo), thorough);
      if (fresh || (thorough && !it->second)) {
        it->second = it->second || thorough;
        return false;
      }
      return true;
    }
  }

 private:
  bool every_;
  std::map<decltype(props::topology_key(model::Topology{})), bool> seen_;  // topology -> decided thoroughly
};

// Never skips: the default of run_from_bytes.
struct DecideEveryInput {
  template <class In>
  bool decided(const In&, bool) {
    return false;
  }
};

// One property from bytes: draw its input from `data`, run the law (with its expensive
// checks when `thorough`) unless `memo` says this process already decided that input.
template <class In, class Law, class Memo = DecideEveryInput>
void run_from_bytes(std::string_view name, In (*draw)(props::Source&), const Law& law, std::span<const std::uint8_t> data,
                    bool thorough = true, Memo&& memo = {}) {
  props::ByteSource source(data);
  FuzzJudge judge(name, data.size(), thorough);
  try {
    const In in = draw(source);
    if (memo.decided(in, thorough)) return;
    law(in, judge);
  } catch (const FuzzJudge::Discarded&) {
  }
}

// Runs property `name` of the registry on `data`, thorough for the inputs the sample
// draws (every input under NEFFBAR_FUZZ_EVERY=1); aborts on an unknown name, so a
// target list that drifts from the registry fails its first replay.
int run_property(std::string_view name, const std::uint8_t* data, std::size_t size);

}  // namespace neffbar::fuzz
