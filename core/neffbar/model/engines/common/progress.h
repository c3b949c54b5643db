// An engine's progress, about once a second of its clock, as a value: the work it
// counts, in its own unit (the explicit search stores states; the persistent engine and
// random schedules execute instructions), and its seconds.  progress_text() is its one
// rendering, the CLI's stderr line.
#pragma once

#include <cstdint>
#include <string>

namespace neffbar::model {

enum class WorkUnit : std::uint8_t { States, Instructions };

struct Progress {
  std::uint64_t work = 0;
  WorkUnit unit = WorkUnit::States;
  double seconds = 0;
};

// "  ... 1200 states, 3 s"
inline std::string progress_text(const Progress& p) {
  return "  ... " + std::to_string(p.work) + (p.unit == WorkUnit::States ? " states, " : " instructions, ") +
         std::to_string(static_cast<std::uint64_t>(p.seconds)) + " s";
}

}  // namespace neffbar::model
