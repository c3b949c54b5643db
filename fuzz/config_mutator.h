// The schema-driven, structure-aware mutator for inputs that hold config images.  It
// works on fields, not bytes: set a leaf (from schema.h) to an interesting value of
// its kind (zero, max, mapped semaphore addresses through every window, thresholds +-1),
// toggle the gate, swap or copy lanes of a step; now and then it defers to libFuzzer's
// byte mutations.  Deterministic for a given seed.  NEFFBAR_PLAIN_MUTATOR=1 turns it
// off (libFuzzer's own mutations only), for measuring what it brings.
#pragma once

#include <cstddef>
#include <cstdint>

namespace neffbar::fuzz {

// Mutates the config image at data[offset .. offset+0x128) in place (the buffer is
// first grown or cut to offset+0x128 when it holds fewer or more bytes).  Returns the
// new size.
std::size_t mutate_config(std::uint8_t* data, std::size_t size, std::size_t max_size, std::size_t offset,
                          unsigned seed);

// Field-granular crossover of two config images at `offset`: each leaf from one parent
// or the other.  0 (no child) when the child would equal the first parent.
std::size_t cross_configs(const std::uint8_t* a, std::size_t a_size, const std::uint8_t* b, std::size_t b_size,
                          std::uint8_t* out, std::size_t max_out, std::size_t offset, unsigned seed);

bool plain_mutator_requested();

}  // namespace neffbar::fuzz
