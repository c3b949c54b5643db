// Whether the persistent engine may answer for a system (persistent.h), and why not.
#include <limits>
#include <string>
#include <vector>

#include "neffbar/model/engines/persistent/net.h"
#include "neffbar/model/engines/persistent/persistent.h"

namespace neffbar::model {
namespace {

using persistent::is_eq_wait;
using persistent::is_wait;

std::string names(const System& sys, const std::vector<std::uint32_t>& procs) {
  std::string s;
  for (std::size_t i = 0; i < procs.size() && i < 4; ++i) {
    s += (i == 0 ? "" : i + 1 == procs.size() ? " and " : ", ") + sys.procs[procs[i]].name;
  }
  if (procs.size() > 4) s += " and " + std::to_string(procs.size() - 4) + " more";
  return s;
}

}  // namespace

Qualification qualify(const System& sys) {
  const std::size_t S = sys.semas.size();
  std::vector<std::vector<std::uint32_t>> consumers(S);  // processes that wait on or decrease s
  for (std::uint32_t p = 0; p < sys.procs.size(); ++p) {
    // A repeated body names the same semaphores and primitives in every round.
    const std::vector<Instr>& body = sys.procs[p].program.body();
    for (std::uint32_t pc = 0; pc < body.size(); ++pc) {
      const Instr& in = body[pc];
      if (in.marker != Marker::None) continue;
      if (in.op.sema >= S) return {false, describe(sys, p, pc) + " names a semaphore the system does not have"};
      if (is_eq_wait(in.op.prim)) {
        return {false, sys.procs[p].name + " waits for equality on " + sys.semas[in.op.sema].name + " (" +
                           std::string(prim_name(in.op.prim)) + "): a release can be undone by another's increment"};
      }
      const std::int64_t e = effect(in.op);
      auto& c = consumers[in.op.sema];
      if ((e < 0 || is_wait(in.op.prim)) && (c.empty() || c.back() != p)) c.push_back(p);
    }
  }
  for (std::size_t s = 0; s < S; ++s) {
    if (consumers[s].size() > 1) {
      return {false, "semaphore " + sys.semas[s].name + " is waited on or decreased by " + names(sys, consumers[s]) +
                         ": one can take what another waits for"};
    }
  }
  const ValueBounds bounds = value_bounds(sys);
  for (std::size_t s = 0; s < S; ++s) {
    if (bounds.may_leave_int32(s)) {
      return {false, "semaphore " + sys.semas[s].name + " could leave int32 (its changes add up to " +
                         (bounds.hi[s] > std::numeric_limits<std::int32_t>::max() ? std::to_string(bounds.hi[s])
                                                                                  : std::to_string(bounds.lo[s])) +
                         "): an overflow would stop a run"};
    }
  }
  return {true, {}};
}

}  // namespace neffbar::model
