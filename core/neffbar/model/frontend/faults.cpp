#include "neffbar/model/frontend/faults.h"

namespace neffbar::model {

std::string_view name(Fault f) {
  switch (f) {
    case Fault::None: return "none";
    case Fault::RaiseThreshold: return "raise_threshold";
    case Fault::ZeroLane: return "zero_lane";
    case Fault::DoubleSignal: return "double_signal";
  }
  return "?";
}

bool inject(Composition& comp, Fault f, std::uint32_t leader) {
  if (leader >= comp.configs.size()) return false;
  BarrierConfigs cfg = *decode(comp.configs[leader]);
  auto& steps = cfg.device_barrier.barrier_step_config;
  bool done = false;
  switch (f) {
    case Fault::None: return true;
    case Fault::RaiseThreshold:
      for (std::size_t i = 0; i < 4 && !done; ++i) {
        if (steps[3].barrier_sema[i] != 0) {
          ++steps[3].target_sema_val[i];
          done = true;
        }
      }
      break;
    case Fault::ZeroLane:
      for (std::size_t i = 4; i-- > 0 && !done;) {
        if (steps[0].barrier_sema[i] != 0) {
          steps[0].barrier_sema[i] = 0;
          steps[0].target_sema_val[i] = 0;
          done = true;
        }
      }
      break;
    case Fault::DoubleSignal:
      for (std::size_t i = 0; i < 4 && !done; ++i) {
        if (steps[0].barrier_sema[i] != 0) continue;
        steps[0].barrier_sema[i] = steps[0].barrier_sema[0];
        steps[0].target_sema_val[i] = 1;
        done = steps[0].barrier_sema[0] != 0;
      }
      break;
  }
  if (done) comp.configs[leader] = encode(cfg);
  return done;
}

}  // namespace neffbar::model
