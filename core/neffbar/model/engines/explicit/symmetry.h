// Symmetry reduction for composed systems (core/neffbar/model/README.md): leaders with identical programs
// up to renaming.  The candidate group is
//   - any permutation of leader indices, applied to every chip at once (leader l of
//     every chip talks to leader l of its tier partners, so renaming l everywhere
//     preserves the wiring), and
//   - chip translations c -> c xor t (the tier partner of c on lane i is c xor 2^i),
//     for the t that map 0..C-1 onto itself;
// and it is used only after each generator has been verified to be an automorphism:
// under the induced semaphore renaming (SymmetryHints say which SP block and id each
// semaphore has) every process's atomic blocks equal its image's, initial values agree
// and guarantees map onto guarantees.  Canonical form: for each translation, sort the leader columns
// (each column = the pcs of leader l and its proxy on every chip) and keep the least.
//
// Without hints (configs given as files) the symmetry is found from the system itself:
// the automorphisms of its graph (system_graph.h) from a finder made for it (nauty),
// each generator checked by is_automorphism() on the whole program.  The generators that
// swap two processes and fix every other one generate H, a product of symmetric groups,
// one on each class of interchangeable processes; the classes are closed under the other
// generators (a swap conjugated by an automorphism is one), so those permute the classes
// and normalise H.  The group used is H times K, K the closure of the other generators,
// kept as one image per coset of H (at most kMaxImages of them, else K is left out:
// sound, canonical for H alone).  Canonical form: the least, over the images k, of the
// state moved by k with each class's pcs sorted.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "neffbar/model/engines/common/atomic_blocks.h"
#include "neffbar/model/engines/common/budget.h"
#include "neffbar/model/engines/explicit/automorphisms.h"
#include "neffbar/model/system/symmetry_hints.h"
#include "neffbar/model/system/system.h"

namespace neffbar::model {

class Symmetry {
 public:
  // nullopt when the hints lay out nothing or a generator is not an automorphism.
  // `blocks` are the atomic blocks the search executes ([p].end(pc)): processes
  // outside the layout (the host) are compared block by block as multisets, since
  // the order inside an atomic block of commuting actions does not matter.
  // With a deadline, the verification polls it (it is linear in the programs per
  // generator, and a 64-chip system has 67 generators); once it has expired detect
  // returns nullopt and the caller reports the budget.
  static std::optional<Symmetry> detect(const System& sys, const SymmetryHints& hints,
                                       const std::vector<detail::AtomicBlocks>& blocks,
                                       Deadline* deadline = nullptr);

  // From the automorphisms of system_graph(sys, blocks); nullopt when the finder fails,
  // a generator does not check out on the whole program, or the group used is trivial.
  // found_order: the order of the group the finder found (whatever was used).
  static std::optional<Symmetry> automatic(const System& sys, const std::vector<detail::AtomicBlocks>& blocks,
                                           const AutomorphismFinder& finder, double* found_order = nullptr,
                                           Deadline* deadline = nullptr);

  // out = canonical pcs; perm[i] = the slot process i lands in.
  void canonicalize(std::span<const std::uint16_t> in, std::span<std::uint16_t> out,
                    std::span<std::uint32_t> perm) const;
  [[nodiscard]] std::uint64_t group_size() const;
  // The work of one canonicalize() in the units of Deadline::poll (pcs moved and
  // compared): hints, translations x (processes + leader columns), at 64x4 host-CC about
  // 64 x 770, so the search polls after every few calls; automatic(), images x processes.
  [[nodiscard]] std::uint64_t work() const {
    return automatic_ ? images_.size() * std::uint64_t{procs_}
                      : translations_.size() * (procs_ + std::uint64_t{2} * chips_ * leaders_);
  }
  // The tests read classes_ and images_ (core/testing/symmetry_inspector.h); nothing
  // else needs them.
  friend struct SymmetryInspector;
  // More cosets than this cost more per state than they save (work() is polled per state).
  static constexpr std::size_t kMaxImages = 4096;

 private:
  std::uint32_t procs_ = 0, chips_ = 0, leaders_ = 0;
  std::vector<std::int32_t> leader_proc_, proxy_proc_;
  std::vector<std::uint32_t> translations_;
  bool automatic_ = false;
  // automatic(): the classes of interchangeable processes (empty for the hints' group),
  // and one process permutation per coset of the classes' group (images_[0] is the
  // identity; k[p] = where process p goes).
  std::vector<std::vector<std::uint32_t>> classes_, images_;
  void sort_classes(std::span<std::uint16_t> pcs, std::span<std::uint32_t> sigma) const;
  // Scratch buffers (canonicalize runs millions of times; one checker per thread).
  mutable std::vector<std::uint16_t> best_, cand_, cols_;
  mutable std::vector<std::uint32_t> best_perm_, cand_perm_, order_;
};

// True when `perm` (process i -> perm[i]), with the semaphore renaming induced by
// `slot_map` (leader slot k -> slot_map[k]), maps the system onto itself block by block.
bool is_automorphism(const System& sys, const SymmetryHints& hints, std::span<const std::uint32_t> perm,
                     const std::vector<std::uint32_t>& slot_map,
                     const std::vector<detail::AtomicBlocks>& blocks, Deadline* deadline = nullptr);
// The same with the semaphore renaming given (rho[s] = the image of semaphore s).
bool is_automorphism(const System& sys, std::span<const std::uint32_t> perm, std::span<const std::int64_t> rho,
                     const std::vector<detail::AtomicBlocks>& blocks, Deadline* deadline = nullptr);

}  // namespace neffbar::model
