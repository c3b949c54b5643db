// The explicit search's option sets the differential tests hold against the reference
// checker (reference_checker.h), which itself shares nothing with the engines.
#pragma once

#include "testing/testing_only.h"

#include <cstdint>

#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/system/symmetry_hints.h"

namespace neffbar::testing {

// The explicit search's reduction combinations (bit 0 Lipton, bit 1 POR, bit 2
// symmetry) with collect_all, for comparing each with the reference.
inline constexpr int kReductionVariants = 8;
inline model::CheckOptions reduction_variant(int v, const model::SymmetryHints& hints, std::uint64_t max_states) {
  model::CheckOptions o;
  o.collect_all = true;
  o.reduce = (v & 1) != 0;
  o.por = (v & 2) != 0;
  o.symmetry = (v & 4) != 0;
  o.symmetry_hints = hints;
  o.max_states = max_states;
  return o;
}

}  // namespace neffbar::testing
