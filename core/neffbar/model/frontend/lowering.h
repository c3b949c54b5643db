// Lowering real config bytes (through the codec) to a System (core/neffbar/model/README.md):
//  - table (INFERRED reference): steps 0,1,2,3 in table order: signal intra, signal
//    tiers, wait tiers, wait intra;
//  - arrive_wait (the companion notes' reconstruction): each level arrives on all its
//    lanes, then waits on all of them: steps 0,3 then 1,2;
//  - hierarchical (NCCL / Open MPI HAN order): as arrive_wait, then a closing intra-chip
//    round on the semaphores 8 ids above the step-0/3 ones (allocated by the composer).
// Each step's operation comes from the fabric's table through search_barr_type_in_step:
// ENTRY lanes inc(barrier_sema), EXIT lanes wait_ge_and_dec(barrier_sema, target).
#pragma once

#include <span>

#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/frontend/hypothesis_params.h"
#include "neffbar/model/system/symmetry_hints.h"
#include "neffbar/model/system/system.h"

namespace neffbar::model {

// Leaders (processes 0..N-1, index c*L+l), then the host, then the proxies.
Result<System> lower(const Composition& comp, const Hypotheses& h);

// The same system, and beside it what the lowering knows of its candidate symmetry
// (for the explicit search's symmetry reduction, which verifies it before use).
struct Lowered {
  System system;
  SymmetryHints hints;
};
Result<Lowered> lower_with_hints(const Composition& comp, const Hypotheses& h);

// Device barrier only (no host leg), one process per config file, every leader in
// every other leader's guarantee (the global property).  For `neffbar check-configs`.
Result<System> lower_configs(std::span<const ConfigBytes> configs, Fabric fabric, Lowering lowering,
                             std::uint32_t rounds, const Hypotheses& h, const SemaMapping& mapping = {});

}  // namespace neffbar::model
