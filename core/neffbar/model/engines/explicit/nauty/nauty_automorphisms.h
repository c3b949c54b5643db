// nauty (libnauty2-dev, Brendan McKay's "nauty and Traces") as the explicit search's
// automorphism finder.  A library of its own, outside neffbar_core: nauty is a
// compiled C library and the core links nothing but the standard library.
#pragma once

#include "neffbar/model/engines/explicit/automorphisms.h"

namespace neffbar::model {

// nullptr in a build without nauty (the fuzz-only build: without_nauty.cpp).
const AutomorphismFinder* nauty_automorphisms();

// set_default_automorphisms(nauty_automorphisms()): what a main() calls first.
void use_nauty_automorphisms();

}  // namespace neffbar::model
