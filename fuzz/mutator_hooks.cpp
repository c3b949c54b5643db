// libFuzzer's custom-mutator hooks for the config targets: the config image starts at
// byte 0 (decode) or byte 1 (barrier, after the mode byte).
#include <cstddef>
#include <cstdint>

#include "config_mutator.h"

#ifndef NEFFBAR_CONFIG_OFFSET
#define NEFFBAR_CONFIG_OFFSET 0
#endif

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return neffbar::fuzz::mutate_config(data, size, max_size, NEFFBAR_CONFIG_OFFSET, seed);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* a, std::size_t a_size, const std::uint8_t* b,
                                                 std::size_t b_size, std::uint8_t* out, std::size_t max_out,
                                                 unsigned int seed) {
  return neffbar::fuzz::cross_configs(a, a_size, b, b_size, out, max_out, NEFFBAR_CONFIG_OFFSET, seed);
}
