// What the tests read of a Symmetry (neffbar/model/engines/explicit/symmetry.h) and the
// search does not: the classes of interchangeable processes and the coset images
// automatic() found.
#pragma once

#include "testing/testing_only.h"

#include <cstdint>
#include <vector>

#include "neffbar/model/engines/explicit/symmetry.h"

namespace neffbar::model {

struct SymmetryInspector {
  // The classes of interchangeable processes (automatic(); empty for the hints' group).
  static const std::vector<std::vector<std::uint32_t>>& classes(const Symmetry& s) { return s.classes_; }
  // automatic(): one process permutation per coset of the classes' group (images[0] is
  // the identity); k[p] = where process p goes.
  static const std::vector<std::vector<std::uint32_t>>& images(const Symmetry& s) { return s.images_; }
};

}  // namespace neffbar::model
