#include "neffbar/model/engines/oracle.h"

#include "neffbar/model/engines/persistent/persistent.h"

#include <limits>
#include <vector>

namespace neffbar::model {
namespace {

constexpr std::uint32_t kFree = std::numeric_limits<std::uint32_t>::max();

}  // namespace

std::vector<std::uint32_t> max_progress(const System& sys, const std::vector<std::uint32_t>& hold,
                                        std::vector<std::int32_t>& vals) {
  const std::size_t P = sys.procs.size();
  std::vector<std::uint32_t> pc(P, 0);
  vals.clear();
  for (const Semaphore& s : sys.semas) vals.push_back(s.initial);
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t p = 0; p < P; ++p) {
      const auto& prog = sys.procs[p].program;
      while (pc[p] < prog.size() && pc[p] != hold[p]) {
        const Instr& in = prog[pc[p]];
        if (in.marker == Marker::None && apply(vals, in.op, sys.compare) != Outcome::Done) break;
        ++pc[p];
        progress = true;
      }
    }
  }
  return pc;
}

namespace {

// The first marker of a kind in a round.  For ARRIVE this is the one that counts (the
// last, Arrivals in system.h) because the oracle applies only where every process has
// one ARRIVE and one DEPART per round (oracle_applies()).
std::uint32_t marker_pc(const Process& p, Marker m, std::uint16_t round) {
  for (std::uint32_t i = 0; i < p.program.size(); ++i) {
    if (p.program[i].marker == m && p.program[i].round == round) return i;
  }
  return kFree;
}

}  // namespace

namespace {

// The oracle reads one ARRIVE and one DEPART per process and round, of rounds below
// System::rounds: programs with more (the last ARRIVE is the one that counts), or with
// a DEPART of a round nobody arrives in, are not its to judge (it would miss an UNSAFE
// at such a DEPART).
bool one_marker_per_round(const System& sys) {
  for (const Process& pr : sys.procs) {
    std::vector<std::uint8_t> seen(2 * std::size_t{sys.rounds}, 0);
    for (const Instr& in : pr.program) {
      if (in.marker == Marker::None) continue;
      if (in.round >= sys.rounds) return false;
      std::uint8_t& s = seen[2 * std::size_t{in.round} + (in.marker == Marker::Depart ? 1 : 0)];
      if (s++ != 0) return false;
    }
  }
  return true;
}

}  // namespace

// The same conditions as the persistent engine's (persistent.h): one consumer per
// semaphore, no equality waits, no value leaving int32; and one marker of a kind per
// process and round.
bool oracle_applies(const System& sys) { return qualify(sys).ok && one_marker_per_round(sys); }

std::optional<std::uint32_t> static_oracle(const System& sys) {
  if (!oracle_applies(sys)) return std::nullopt;
  const std::size_t P = sys.procs.size();
  std::uint32_t found = 0;
  std::vector<std::int32_t> vals;
  const std::vector<std::uint32_t> free(P, kFree);
  const std::vector<std::uint32_t> done = max_progress(sys, free, vals);
  bool finished = true;
  for (std::size_t p = 0; p < P; ++p) finished = finished && done[p] == sys.procs[p].program.size();
  if (!finished) found |= bit(Verdict::Deadlock);
  bool initial = true;
  for (std::size_t s = 0; s < vals.size(); ++s) initial = initial && vals[s] == sys.semas[s].initial;
  if (finished && !initial) found |= bit(Verdict::NotReusable);

  for (std::size_t p = 0; p < P; ++p) {
    const Process& pr = sys.procs[p];
    for (std::uint16_t r = 0; r < sys.rounds; ++r) {
      const std::uint32_t depart = marker_pc(pr, Marker::Depart, r);
      if (depart == kFree) continue;
      std::vector<bool> in_g(P, false);
      for (std::uint32_t q : pr.guarantee) {
        if (q < P) in_g[q] = true;  // a guarantee naming no process is ignored, as by the engines
      }
      for (std::size_t q = 0; q < P; ++q) {
        if (q == p || !(in_g[q] || sys.procs[q].participant)) continue;
        const std::uint32_t arrive = marker_pc(sys.procs[q], Marker::Arrive, r);
        std::vector<std::uint32_t> hold = free;
        hold[p] = depart;
        if (arrive != kFree) hold[q] = arrive;
        const std::vector<std::uint32_t> pc = max_progress(sys, hold, vals);
        if (pc[p] != depart) continue;  // p cannot depart without q
        if (in_g[q]) {
          found |= bit(Verdict::Unsafe);
          continue;
        }
        bool all_g = true;
        for (std::uint32_t g : pr.guarantee) {
          if (g >= P) continue;
          const std::uint32_t a = marker_pc(sys.procs[g], Marker::Arrive, r);
          all_g = all_g && (g == p || (a != kFree && pc[g] > a));
        }
        if (all_g) found |= bit(Verdict::GlobalUnsafe);
      }
    }
  }
  return found;
}

}  // namespace neffbar::model
