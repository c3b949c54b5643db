#include "property_fuzzer.h"

#include "fuzz_check.h"
#include "registry.h"

namespace neffbar::fuzz {

int run_property(std::string_view name, const std::uint8_t* data, std::size_t size) {
  static SlowOracleSample sample;  // a target runs one property: one sample a process
  static DecidedTopologies topologies;
  const std::span<const std::uint8_t> bytes(data, size);
  bool found = false;
  props::for_each_property([&](const auto& p) {
    if (p.name != name) return;
    found = true;
    run_from_bytes(p.name, p.draw, p.law, bytes, sample(bytes), topologies);
  });
  if (!found) {
    std::fprintf(stderr, "neffbar: no property named %.*s (props/registry.h)\n", static_cast<int>(name.size()), name.data());
    std::abort();
  }
  return 0;
}

}  // namespace neffbar::fuzz
