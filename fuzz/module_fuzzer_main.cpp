// The entry of every module's differential target (neffbar_add_module): the module's
// own neffbar_module_v1, linked in from its objects.
#include "module_fuzzer.h"

extern "C" const neffbar_module* neffbar_module_v1(void);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const neffbar_module& module = neffbar::fuzz::checked_module(neffbar_module_v1());
  return neffbar::fuzz::run_module(module, data, size);
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return neffbar::fuzz::mutate_module_input(data, size, max_size, 0, seed);
}
