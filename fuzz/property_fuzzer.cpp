#include "property_fuzzer.h"

#include <cstdlib>
#include <map>
#include <tuple>
#include <type_traits>

#include "fuzz_check.h"
#include "registry.h"

namespace neffbar::fuzz {
namespace {

// A topology input (p4_fabrics, p5_deadlock: draw_topology(s, 4, 2)) is one of 256
// topologies, each drawn by thousands of byte strings, and its law is a function of the
// topology alone: while fuzzing, each is decided once a process, and once more when the
// sample first picks it for the thorough checks.  The ctest replay (NEFFBAR_FUZZ_EVERY=1)
// decides every input, and props' TopologyPropertiesHoldOnEveryTopologyTheyDraw every
// topology.
class DecidedTopologies {
 public:
  template <class In>
  bool decided(const In& in, bool thorough) {
    if constexpr (!std::is_same_v<In, props::TopologyInput>) {
      return false;
    } else {
      if (every_) return false;
      const model::Topology& t = in.topo;
      const auto [it, fresh] =
          seen_.try_emplace(std::tuple{t.chips, t.leaders, t.fabric, t.host_cc, t.rounds, t.wiring, t.lowering}, thorough);
      if (fresh || (thorough && !it->second)) {
        it->second = it->second || thorough;
        return false;
      }
      return true;
    }
  }

 private:
  bool every_ = std::getenv("NEFFBAR_FUZZ_EVERY") != nullptr;
  std::map<std::tuple<std::uint32_t, std::uint32_t, Fabric, bool, std::uint32_t, model::Wiring, model::Lowering>, bool> seen_;
};

}  // namespace

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
