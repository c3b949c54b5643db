// The candidate symmetry of a composed system, as its lowering lays it out: a claim
// beside the system, never part of it, which the explicit engine verifies before it
// uses it (engines/explicit/symmetry.h).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace neffbar::model {

// What the lowering knows about a composed system's candidate symmetry (checked before
// use): processes laid out as chips x leaders "columns" (leaders and their proxies),
// chip translations by xor.  Produced beside the system (lowering.h), never part of it.
struct SymmetryHints {
  std::uint32_t chips = 0, leaders = 0;
  std::vector<std::int32_t> leader_proc;  // [c*L+l] -> process index of that leader
  std::vector<std::int32_t> proxy_proc;   // [c*L+l] -> proxy process index, or -1
  // Semaphore ownership, for renaming semaphores along a process permutation:
  // sema_slot[s] = leader c*L+l whose SP block holds s (-1: none), sema_local[s] = its
  // id in that block; ids in leader_indexed ranges [first, first+count) name a leader
  // (8+j: "arrival of leader j") and are renamed with it.
  std::vector<std::int32_t> sema_slot;
  std::vector<std::uint32_t> sema_local;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> leader_indexed;
};

}  // namespace neffbar::model
