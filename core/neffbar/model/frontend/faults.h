// Deliberate faults injected into composed configs (through the codec), to show the
// checker is not vacuous (P5, props/README.md) and to give the fuzzers and SPIN cross-checks
// failing systems.
#pragma once

#include <cstdint>
#include <string_view>

#include "neffbar/model/frontend/composer.h"

namespace neffbar::model {

enum class Fault : std::uint8_t {
  None,
  RaiseThreshold,  // target_sema_val + 1 on the first used EXIT lane of step 3
  ZeroLane,        // barrier_sema = 0 on the last used ENTRY lane of step 0 (a missing signal)
  DoubleSignal,    // the first used ENTRY lane of step 0 repeated in a free lane
};
std::string_view name(Fault f);

// Applies `f` to leader `leader` (index c*L+l) of the composition; false when the
// config has no lane the fault can use (e.g. DoubleSignal with 4 leaders: no free lane).
bool inject(Composition& comp, Fault f, std::uint32_t leader = 0);

}  // namespace neffbar::model
