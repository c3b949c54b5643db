// The time budget every engine keeps, polled from inside its long loops
// (core/neffbar/model/README.md, "Budgets").  Reading the clock costs tens of
// nanoseconds, a unit of work (one instruction executed, one pc compared) about one, so
// the loops count their work and read the clock only every kCadence units: a fraction
// of a millisecond between two reads on any system, and no measurable cost on small ones.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

namespace neffbar::model {

using Clock = std::chrono::steady_clock;
inline double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Seconds since the work the budget bounds started: the command, a scenario, or a
// lone engine call.  Every phase and engine of one command reads the same clock against
// the same max_seconds, so the budget is the command's, not a fresh one per phase.  The
// default reads the steady clock from the Deadline's construction.  Tests inject a
// clock to cut a run at a chosen read, without timing anything.
using SecondsClock = std::function<double()>;

class Deadline {
 public:
  static constexpr std::int64_t kCadence = std::int64_t{1} << 16;

  // `cadence`: work units between two reads of the clock (tests: 1, every poll reads).
  Deadline(double max_seconds, SecondsClock clock = {}, std::function<void(double seconds)> every_second = {},
           std::int64_t cadence = kCadence)
      : max_seconds_(max_seconds),
        clock_(std::move(clock)),
        every_second_(std::move(every_second)),
        cadence_(cadence < 1 ? 1 : cadence) {}

  // Counts `work` units; every `cadence` of them reads the clock.  True once the budget
  // is spent (and from then on).
  bool poll(std::uint64_t work = 1) {
    left_ -= static_cast<std::int64_t>(work);
    if (left_ > 0) return expired_;
    left_ = cadence_;
    return check();
  }
  // Reads the clock now; calls every_second at most once a second.
  bool check() {
    ++reads_;
    const double t = seconds();
    if (t > max_seconds_) expired_ = true;
    if (every_second_ && t - last_report_ >= 1.0) {
      last_report_ = t;
      every_second_(t);
    }
    return expired_;
  }
  [[nodiscard]] bool expired() const { return expired_; }
  [[nodiscard]] double seconds() const {
    return clock_ ? clock_() : std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  [[nodiscard]] double max_seconds() const { return max_seconds_; }
  [[nodiscard]] std::uint64_t reads() const { return reads_; }  // how often the clock was read (tests)

 private:
  double max_seconds_;
  SecondsClock clock_;
  std::function<void(double)> every_second_;
  std::int64_t cadence_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::int64_t left_ = 0;  // the first poll reads the clock
  double last_report_ = 0;
  bool expired_ = false;
  std::uint64_t reads_ = 0;
};

// A clock counting from now: what a scenario hands its phases when no clock was given.
inline SecondsClock clock_from_now() {
  return [t0 = Clock::now()] { return since(t0); };
}

// The memory budget's default: 4 GiB, far below this machine class's 24 GiB and
// enough for tens of millions of states of a small system, ~8 M of 64x4 host-CC (257
// processes, 2 bytes each a state) and ~4 M of 64x4 with its proxies (513).  The CLI lowers it to what the process may actually allocate
// (a quarter of physical memory, three quarters of `ulimit -v`).
inline constexpr std::uint64_t kDefaultMaxMemory = std::uint64_t{4} << 30;

}  // namespace neffbar::model
