// The barrier model's system (core/neffbar/model/README.md): processes running straight-line programs of
// the six semaphore primitives over a shared semaphore space, plus ARRIVE/DEPART
// markers, and for each process the set of processes whose arrival its departure
// must follow (its declared guarantee).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "neffbar/model/system/program.h"
#include "neffbar/sema_address.h"
#include "neffbar/sema_ids.h"
#include "neffbar/semaphore.h"

namespace neffbar::model {

// "No process", "no pc", "no round": the engines' sentinel index.
inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

struct Process {
  std::string name;                   // "c0.l1", "host", "proxy.c0.l1"
  Program program;  // a round body and its count (program.h)
  std::vector<std::uint32_t> guarantee;  // process indices whose arrival precedes our departure
  bool participant = false;           // a barrier leader (counts for the global property)
};

struct Semaphore {
  std::string name;        // "c0.l1#8" (SP of chip 0 leader 1, id 8) or the raw address
  std::uint64_t addr = 0;  // a representative soc_addr
  std::int32_t initial = 0;
};

struct System {
  std::vector<Process> procs;
  std::vector<Semaphore> semas;
  Compare compare = Compare::Ge;
  std::uint32_t rounds = 1;
};

// Interns semaphores by identity (address with the window stripped, core/neffbar/README.md "Semaphores").
class SemaSpace {
 public:
  explicit SemaSpace(SemaMapping m) : mapping_(m) {}
  // Index of the semaphore at `addr`; unmapped addresses become semaphores of their own
  // (a write nobody reads, a wait nobody signals).
  std::uint32_t intern(std::uint64_t addr, System& sys);
  void name_block(std::uint64_t block_base, std::string prefix) { names_[block_base] = std::move(prefix); }
  [[nodiscard]] const SemaMapping& mapping() const { return mapping_; }

 private:
  SemaMapping mapping_;
  std::unordered_map<std::uint64_t, std::uint32_t> mapped_, unmapped_;
  std::unordered_map<std::uint64_t, std::string> names_;
};

// Additive effect of an executed primitive (every primitive's effect is fixed once it
// has released: WaitEqAndClear only releases at value == v, so it removes v).
constexpr std::int64_t effect(const SemaOp& op) {
  switch (op.prim) {
    case Prim::Inc: return 1;
    case Prim::IncVal: return op.value;
    case Prim::WaitGeAndDec: return -op.dec;
    case Prim::WaitGe: return 0;
    case Prim::WaitEqAndInc: return 1;
    case Prim::WaitEqAndClear: return -op.value;
  }
  return 0;
}

// "c0.l1: wait_ge_and_dec(c0.l1#12 >= 1, -1)  [step 2 lane 0, round 0]"
// When a process has arrived: q has arrived in round r once its pc is past its last
// ARRIVE of round r; rounds >= sys.rounds, and rounds without an ARRIVE, are never
// arrived.  One table for the explicit search, replay and the Promela export (the
// persistent engine keeps its own, laid out for its periodic rounds).
class Arrivals {
 public:
  static constexpr std::uint32_t kNever = kNone;
  explicit Arrivals(const System& sys);
  // The pc of q's last ARRIVE of round r, or kNever.  A repeated body keeps one table
  // of its own rounds: round r is the body's round r % body_rounds, body.size() * (r /
  // body_rounds) instructions on.
  [[nodiscard]] std::uint32_t last(std::uint32_t q, std::uint32_t r) const {
    if (r >= rounds_) return kNever;
    const Period& per = period_[q];
    const std::uint32_t a = last_[per.first + r % per.rounds];
    return a == kNever ? kNever : a + r / per.rounds * per.length;
  }
  [[nodiscard]] bool arrived(std::uint32_t q, std::uint32_t r, std::uint32_t pc) const {
    const std::uint32_t a = last(q, r);
    return a != kNever && pc > a;
  }

 private:
  struct Period {
    std::size_t first = 0;      // q's entries in last_
    std::uint32_t rounds = 1;   // rounds the table covers (the body's, or all)
    std::uint32_t length = 0;   // the body's length (0: not repeated)
  };
  std::uint32_t rounds_;
  std::vector<Period> period_;       // [q]
  std::vector<std::uint32_t> last_;  // [period_[q].first + r]
};

std::string describe(const System& sys, std::uint32_t proc, std::uint32_t pc);
// The whole system as text, for failure messages (tests, rapidcheck's counterexamples):
// rounds, comparison and initial values, then each process with its guarantee and its
// program, one describe()d instruction a line.
std::string listing(const System& sys);
// Total instruction count (for budgets and progress output).
std::size_t instruction_count(const System& sys);

// The range each semaphore's value can reach over all executions: its initial value plus
// the sum of all positive (negative) effects on it.  Where that range leaves int32 an
// instruction can fail with OVERFLOW (the explicit search then treats it as no mover; the
// persistent engine refuses the system).
struct ValueBounds {
  std::vector<std::int64_t> lo, hi;  // [semaphore]
  [[nodiscard]] bool may_leave_int32(std::size_t s) const {
    return hi[s] > std::numeric_limits<std::int32_t>::max() || lo[s] < std::numeric_limits<std::int32_t>::min();
  }
};
ValueBounds value_bounds(const System& sys);

}  // namespace neffbar::model
