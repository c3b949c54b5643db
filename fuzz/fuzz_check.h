// What every fuzz target uses: an oracle failure is a crash libFuzzer can minimise.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace neffbar::fuzz {

// Prints what broke and aborts (libFuzzer records the input as a crash).
inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "neffbar fuzz oracle failed: %s\n", what);
  std::abort();
}

}  // namespace neffbar::fuzz
