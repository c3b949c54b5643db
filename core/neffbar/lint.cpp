#include "neffbar/lint.h"

#include <string>

#include "neffbar/hex.h"

namespace neffbar {
namespace {

// Absolute offset and path of a field by name inside the leaves (schema-driven).
const Leaf& leaf_named(std::string_view name, std::uint8_t step = 0xFF, std::uint8_t index = 0) {
  for (const Leaf& l : config_leaves()) {
    if (l.field->name == name && l.step == step && l.index == index) return l;
  }
  return config_leaves().front();  // unreachable for names of the schema
}

void warn(std::vector<LintWarning>& out, const Leaf& l, std::string msg) {
  out.push_back(LintWarning{l.offset, leaf_path(l), std::move(msg)});
}

}  // namespace

std::string LintWarning::line() const { return hex(offset) + " " + field + ": " + message; }

std::vector<LintWarning> lint(const ConfigBytes& bytes) {
  std::vector<LintWarning> out;
  const BarrierConfigs c = *decode(bytes);
  const DeviceBarrierConfig& d = c.device_barrier;

  // C1: with the gate set the host view is step-0 data, not host addresses.
  bool overlay_nonzero = false;
  for (std::size_t i = 0; i < kHostSchema.size; ++i) overlay_nonzero = overlay_nonzero || bytes[i] != 0;
  if (c.execute_device_barrier != 0 && overlay_nonzero) {
    warn(out, leaf_named("execute_device_barrier"),
         "gate set while host_barrier (bytes 0x0..0xF) aliases barrier_step_config[0] "
         "(m2s_val, s2m_val, barrier_sema[0..1]): the host leg cannot take its addresses from this config (C1)");
  }
  if (c.reserved0 != 0) warn(out, leaf_named("__reserved0"), "reserved bits 1..7 of the gate byte are " + hex(c.reserved0));
  for (std::uint8_t i = 0; i < 3; ++i) {
    if (c.reserved[i] != 0) warn(out, leaf_named("__reserved", 0xFF, i), "reserved byte is " + hex(c.reserved[i]));
  }
  if (d.pad != 0) warn(out, leaf_named("__pad"), "pad byte is " + hex(d.pad));
  if (d.desc_count > d.total_desc_n) {
    warn(out, leaf_named("desc_count"), "desc_count " + std::to_string(d.desc_count) + " > total_desc_n " +
                                            std::to_string(d.total_desc_n));
  }
  if (d.dma_engines_bitmap == 0 && d.desc_count != 0) {
    warn(out, leaf_named("dma_engines_bitmap"),
         "no DMA engine selected but desc_count is " + std::to_string(d.desc_count));
  }
  // Lane checks only where the device view is live (gate set); with the gate clear
  // bytes 0x0..0xF are the host view and the steps are not run (the gate, libncfw @0x1121a; core/neffbar/README.md).
  for (std::uint8_t s = 0; s < 4 && c.execute_device_barrier != 0; ++s) {
    const StepConfig& st = d.barrier_step_config[s];
    for (std::uint8_t i = 0; i < 4; ++i) {
      const std::uint64_t a = st.barrier_sema[i];
      const std::uint32_t t = st.target_sema_val[i];
      if (a == 0 && t != 0) {
        warn(out, leaf_named("target_sema_val", s, i),
             "target " + std::to_string(t) + " on an unused lane (barrier_sema[" + std::to_string(i) + "] is 0)");
      }
      if (a != 0 && t == 0) {
        warn(out, leaf_named("barrier_sema", s, i),
             "semaphore " + hex(a) + " with target 0 (a wait on it releases at once)");
      }
      for (std::uint8_t k = 0; k < i; ++k) {
        if (a != 0 && st.barrier_sema[k] == a) {
          warn(out, leaf_named("barrier_sema", s, i),
               "same semaphore " + hex(a) + " as barrier_sema[" + std::to_string(k) + "] in this step");
        }
      }
    }
  }
  return out;
}

}  // namespace neffbar
