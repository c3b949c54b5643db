// The automorphism group of a coloured graph (system_graph.h), from a tool made for it.
// neffbar_core depends on nothing but the standard library and header-only libraries,
// so the tool is a separate library: nauty's (nauty/nauty_automorphisms.h, linked into
// the neffbar executable and the tests) registers itself with
// set_default_automorphisms() at start-up.  Without one (the fuzz targets, which link
// neffbar_core alone), the explicit search takes its symmetry from the hints only.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "neffbar/model/engines/common/budget.h"
#include "neffbar/model/engines/explicit/system_graph.h"

namespace neffbar::model {

struct Automorphisms {
  std::vector<std::vector<std::uint32_t>> generators;  // each a vertex permutation
  double order = 1;                                    // the group's order (a double: 64! does not fit 64 bits)
};

class AutomorphismFinder {
 public:
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Generators of the group of colour-preserving automorphisms of g; nullopt when the
  // tool fails (its message is its own) or the deadline expires (polled once a node of
  // the tool's search tree).
  [[nodiscard]] virtual std::optional<Automorphisms> find(const ColouredGraph& g, Deadline* deadline = nullptr) const = 0;

 protected:
  // Not destroyed through this type (CheckOptions holds a finder it does not own), so
  // not virtual.
  ~AutomorphismFinder() = default;
};

// The finder CheckOptions starts from (nullptr until a main() sets one).
const AutomorphismFinder* default_automorphisms();
void set_default_automorphisms(const AutomorphismFinder* finder);

}  // namespace neffbar::model
