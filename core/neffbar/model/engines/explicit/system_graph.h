// The system as a vertex-coloured digraph, for a tool made to find a graph's
// automorphisms (automorphisms.h): the explicit search's symmetry found from the
// system itself rather than from the lowering's hints.
//
// Vertices: each process (coloured by participant flag and program shape), each
// instruction of its body (coloured by its atomic block's start and end, which
// is_automorphism() requires an image to share; its own pc too where a semaphore repeats
// in the block, as only then is the order inside the block compared; and its
// primitive, value, dec and round), each semaphore some instruction names (coloured by
// its initial value), each distinct guarantee set and a vertex for each of its members.  Undirected edges: process - its instructions, instruction - its
// semaphore, p - S where p's guarantee is the set S, and S - m - q for each member q of
// S (S and m coloured apart, so the path keeps the direction).  Step and lane labels
// are not semantics and are left out.  An automorphism of this graph is a candidate: the
// search uses it only after is_automorphism() has checked it on the whole program
// (every pc of every round, not only the body's).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "neffbar/model/engines/common/atomic_blocks.h"
#include "neffbar/model/system/system.h"

namespace neffbar::model {

struct ColouredGraph {
  // colour[v]: dense ids from 0, ordered (processes' colours first, so the P processes
  // keep vertices 0..P-1 and an automorphism maps them among themselves).
  std::vector<std::uint32_t> colour;
  std::vector<std::vector<std::uint32_t>> out;  // out[v]: v's neighbours, sorted (undirected: w in out[v] iff v in out[w])
  std::vector<std::int64_t> sema_vertex;  // [semaphore] -> its vertex, -1: named by no instruction
  [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(colour.size()); }
};

ColouredGraph system_graph(const System& sys, const std::vector<detail::AtomicBlocks>& blocks);

// True when `perm` (vertex v -> perm[v]) is a bijection that keeps every colour and
// maps the edge set onto itself.
bool preserves(const ColouredGraph& g, std::span<const std::uint32_t> perm);

}  // namespace neffbar::model
