// Warnings about configs that decode fine but are suspicious (issue: neffbar lint).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "neffbar/codec.h"

namespace neffbar {

struct LintWarning {
  std::uint32_t offset;  // absolute byte offset of the offending field
  std::string field;     // schema path, e.g. device_barrier.barrier_step_config[1].barrier_sema[2]
  std::string message;
  // "0x124 execute_device_barrier: ..."
  [[nodiscard]] std::string line() const;
};

std::vector<LintWarning> lint(const ConfigBytes& bytes);

}  // namespace neffbar
