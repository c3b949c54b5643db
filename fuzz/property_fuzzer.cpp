#include "property_fuzzer.h"

#include "registry.h"

namespace neffbar::fuzz {

int run_property(std::string_view name, const std::uint8_t* data, std::size_t size) {
  bool found = false;
  props::for_each_property([&](const auto& p) {
    if (p.name != name) return;
    found = true;
    run_from_bytes(p.name, p.draw, p.law, std::span<const std::uint8_t>(data, size));
  });
  if (!found) {
    std::fprintf(stderr, "neffbar: no property named %.*s (props/registry.h)\n", static_cast<int>(name.size()), name.data());
    std::abort();
  }
  return 0;
}

}  // namespace neffbar::fuzz
