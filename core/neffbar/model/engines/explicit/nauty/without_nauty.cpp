// The fuzz-only build's stand-in (core/CMakeLists.txt): no finder, symmetry from hints only.
#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"

namespace neffbar::model {

const AutomorphismFinder* nauty_automorphisms() { return nullptr; }
void use_nauty_automorphisms() {}

}  // namespace neffbar::model
