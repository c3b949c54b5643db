// Arbitrary small systems for differential testing, drawn from any source of choices:
// std::mt19937 in the unit tests, rapidcheck in the properties, the input bytes in the
// barrier fuzz target.  Header only; not part of what the CLI runs.
//
// What the draws reach: 1-4 processes over 1-4 semaphores, 1-3 rounds, programs that
// repeat round after round or not (dropped instructions, stray round numbers, DEPARTs
// of rounds nobody arrives in), inc / inc_val / wait_ge / wait_ge_and_dec with
// thresholds and decrements 0..2 around the number of increments (equality of the
// wait), initial values 0..2 or next to the int32 limits, GE or GT, arbitrary
// guarantees and participants.  With `persistent_only` every semaphore has one
// consumer (its owner waits on it or decrements it, the others only increment); without
// it, equality waits, negative inc_val and several consumers appear too.
//
// Three classes a plain draw reaches too rarely for a one-line slip there to fail a
// test are planted on purpose (`motifs`, and arbitrary_case for (b));
// Reference.TheGeneratorReachesEveryPlantedClass (core/tests/model/reference_checker_test.cpp)
// tells them apart and counts them over a fixed seed set:
//  (a) a process decrements a semaphore with a negative inc_val while another process
//      waits (wait_ge) on it: neither is a Lipton mover there;
//  (b) symmetric systems (chips x leaders slots, xor-relative wiring) with exact
//      symmetry hints, then one flaw the hints do not know of: one slot's semaphore
//      starts at another value, or one slot's guarantee differs (arbitrary_case);
//  (c) a non-participant (a proxy-like process, often without an ARRIVE) named in some
//      participant's guarantee: UNSAFE through a process that is not a barrier member.
#pragma once

#include "testing/testing_only.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "testing/program_ops.h"
#include "neffbar/model/system/symmetry_hints.h"
#include "neffbar/model/system/system.h"

namespace neffbar::model {

struct ArbitraryShape {
  std::uint32_t max_procs = 4, max_semas = 4, max_rounds = 3, max_block = 6;
  bool persistent_only = true;
  bool motifs = true;  // plant the classes (a) and (c) above
};

namespace gen {  // the parts of the generators below

inline Instr op(Prim k, std::uint32_t sema, std::int64_t v, std::int64_t dec) {
  return Instr{Marker::None, SemaOp{k, sema, v, dec}, 0};
}

// One process's block of up to max_block instructions on S semaphores (`own`: the ones
// it consumes, when the system must stay persistent).
template <class Pick>
std::vector<Instr> random_block(Pick&& pick, const ArbitraryShape& shape, std::uint32_t S,
                                const std::vector<std::uint32_t>& own) {
  std::vector<Instr> block;
  const std::uint32_t n = 1 + pick(shape.max_block);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t sem = pick(S);
    const std::int64_t v = pick(3), dec = pick(3);
    switch (pick(7)) {
      case 0: block.push_back(Instr{Marker::Arrive, {}, 0}); break;
      case 1: block.push_back(Instr{Marker::Depart, {}, 0}); break;
      case 2: block.push_back(op(Prim::Inc, sem, 1, 1)); break;
      case 3:
        if (pick(4) != 3) {
          block.push_back(op(Prim::IncVal, sem, v, 1));
        } else if (!shape.persistent_only) {  // a decrement by anybody
          block.push_back(op(Prim::IncVal, sem, -1 - static_cast<std::int64_t>(pick(2)), 1));
        } else if (!own.empty()) {  // a decrement by the one consumer
          // Two picks, in their own statements: as arguments of one call their order
          // would be the compiler's (g++ and clang++ differ), and so would the system a
          // committed seed draws.  This is the order g++ took.
          const std::int64_t by = 1 + static_cast<std::int64_t>(pick(2));
          const std::uint32_t consumer = own[pick(static_cast<std::uint32_t>(own.size()))];
          block.push_back(op(Prim::IncVal, consumer, -by, 1));
        }
        break;
      case 4:
        if (!shape.persistent_only) {
          block.push_back(op(pick(2) ? Prim::WaitEqAndInc : Prim::WaitEqAndClear, sem, v, 1));
          break;
        }
        [[fallthrough]];
      default: {
        const Prim k = pick(3) == 0 ? Prim::WaitGe : Prim::WaitGeAndDec;
        if (!shape.persistent_only) {
          block.push_back(op(k, sem, v, dec));
        } else if (own.empty()) {
          block.push_back(op(Prim::Inc, sem, 1, 1));
        } else {
          block.push_back(op(k, own[pick(static_cast<std::uint32_t>(own.size()))], v, dec));
        }
      }
    }
  }
  return block;
}

// The planted classes (a) and (c) of the README, each one time in three.
template <class Pick>
void plant_motifs(Pick&& pick, const ArbitraryShape& shape, System& s, std::vector<std::vector<Instr>>& blocks) {
  const auto P = static_cast<std::uint32_t>(blocks.size()), S = static_cast<std::uint32_t>(s.semas.size());
  const auto insert_at_random = [&](std::vector<Instr>& b, Instr in) {
    b.insert(b.begin() + pick(static_cast<std::uint32_t>(b.size()) + 1), in);
  };
  // (a) p decrements s with a negative inc_val while q != p waits on s (and somebody
  // raises it, so that the wait can go either way).
  if (shape.motifs && !shape.persistent_only && P >= 2 && pick(3) == 2) {
    const std::uint32_t sem = pick(S), p = pick(P), q = (p + 1 + pick(P - 1)) % P;
    insert_at_random(blocks[p], op(Prim::IncVal, sem, -1 - static_cast<std::int64_t>(pick(2)), 1));
    insert_at_random(blocks[q], op(Prim::WaitGe, sem, pick(3), 1));
    insert_at_random(blocks[pick(P)], op(Prim::Inc, sem, 1, 1));
  }
  // (c) q becomes a non-participant (half the time one that never arrives, as a proxy
  // or the host) named in the guarantee of p != q, which departs.
  if (shape.motifs && P >= 2 && pick(3) == 2) {
    const std::uint32_t q = pick(P), p = (q + 1 + pick(P - 1)) % P;
    s.procs[q].participant = false;
    if (pick(2)) std::erase_if(blocks[q], [](const Instr& in) { return in.marker == Marker::Arrive; });
    s.procs[p].participant = true;
    auto& g = s.procs[p].guarantee;
    if (std::find(g.begin(), g.end(), q) == g.end()) g.push_back(q);
    if (std::none_of(blocks[p].begin(), blocks[p].end(), [](const Instr& in) { return in.marker == Marker::Depart; })) {
      blocks[p].push_back(Instr{Marker::Depart, {}, 0});
    }
  }
}

}  // namespace gen

// pick(n) returns a choice in [0, n) (n >= 1).  The order of the picks is what the
// committed corpora's bytes and the tests' seeds mean: keep it when changing this.
template <class Pick>
System arbitrary_system(Pick&& pick, const ArbitraryShape& shape = {}) {
  const std::uint32_t P = 1 + pick(shape.max_procs), S = 1 + pick(shape.max_semas), R = 1 + pick(shape.max_rounds);
  System s;
  s.rounds = R;
  s.compare = pick(4) == 0 ? Compare::Gt : Compare::Ge;
  std::vector<std::uint32_t> owner(S);
  for (std::uint32_t i = 0; i < S; ++i) {
    owner[i] = pick(P);
    std::int32_t init = static_cast<std::int32_t>(pick(3));
    if (pick(16) == 0) init = std::numeric_limits<std::int32_t>::max() - static_cast<std::int32_t>(pick(3));
    if (pick(16) == 0) init = std::numeric_limits<std::int32_t>::min() + static_cast<std::int32_t>(pick(3));
    s.semas.push_back(Semaphore{"s" + std::to_string(i), 0, init});
  }
  for (std::uint32_t p = 0; p < P; ++p) {
    Process pr;
    pr.name = "p" + std::to_string(p);
    pr.participant = pick(4) != 0;
    for (std::uint32_t q = 0; q < P; ++q) {
      if (pick(2)) pr.guarantee.push_back(q);
    }
    s.procs.push_back(pr);
  }
  const bool periodic = pick(2);
  std::vector<std::vector<Instr>> blocks(P);
  for (std::uint32_t p = 0; p < P; ++p) {
    std::vector<std::uint32_t> own;
    for (std::uint32_t k = 0; k < S; ++k) {
      if (owner[k] == p) own.push_back(k);
    }
    blocks[p] = gen::random_block(pick, shape, S, own);
  }
  gen::plant_motifs(pick, shape, s, blocks);
  // Round after round: a periodic system repeats its block; else a round may drop one
  // instruction and an instruction may carry another round's number.
  for (std::uint32_t p = 0; p < P; ++p) {
    for (std::uint32_t r = 0; r < R; ++r) {
      std::vector<Instr> b = blocks[p];
      if (!periodic && pick(2) && !b.empty()) b.erase(b.begin() + pick(static_cast<std::uint32_t>(b.size())));
      for (Instr& in : b) in.round = static_cast<std::uint16_t>(periodic || pick(5) != 0 ? r : pick(R + 1));
      append(s.procs[p].program, b);
    }
  }
  return s;
}

// Symmetry hints laying the processes out as chips x leaders at random, with random
// semaphore ownership: most claim a symmetry the system does not have, which the
// symmetry reduction must detect and refuse.
template <class Pick>
SymmetryHints arbitrary_hints(const System& s, Pick&& pick) {
  SymmetryHints h;
  const auto P = static_cast<std::uint32_t>(s.procs.size());
  if (P == 0) return h;
  h.leaders = 1 + pick(2);
  h.chips = std::max(1u, P / h.leaders / (1 + pick(2)));
  if (h.chips * h.leaders > P) return {};
  std::vector<std::int32_t> procs(P);
  for (std::uint32_t i = 0; i < P; ++i) procs[i] = static_cast<std::int32_t>(i);
  for (std::uint32_t i = P; i-- > 1;) std::swap(procs[i], procs[pick(i + 1)]);
  h.leader_proc.assign(procs.begin(), procs.begin() + h.chips * h.leaders);
  for (std::size_t k = 0; k < s.semas.size(); ++k) {
    h.sema_slot.push_back(static_cast<std::int32_t>(pick(h.chips * h.leaders + 1)) - 1);
    h.sema_local.push_back(pick(3));
  }
  if (pick(2)) h.leader_indexed = {{0, 2}};
  return h;
}

}  // namespace neffbar::model

namespace neffbar::model {

// (b): a system that is symmetric under its hints, then (two times in three) one flaw
// the hints do not know of.  C x L slots (C, L in 1..2, at least two slots), one leader
// process per slot at a random process index, K semaphores per slot; every leader runs
// the same block, written relative to its slot: semaphore x of slot (c ^ a, l ^ b).
// The leader renaming (l -> l ^ 1 on every chip) and the chip translation (c -> c ^ 1)
// map such a reference of one slot onto the same reference of the image slot, so the
// hints are exact.  Half the time a non-participant "host" waits for every leader on
// a semaphore of no slot, and is in the template guarantee half of those times.
enum class Flaw : std::uint8_t { None, InitialValue, Guarantee };

struct ArbitraryCase {
  System sys;
  SymmetryHints hints;
  Flaw flaw = Flaw::None;    // (b): what the hints do not know of
  std::optional<System> unflawed;  // (b) with a flaw: the system before it
};

namespace gen {  // the parts of the generators below

// A template instruction of symmetric_case: (a, b, x) names semaphore x of slot
// (c ^ a, l ^ b) of the leader (c, l) that runs it.
struct Ref {
  Marker marker;
  Prim prim;
  std::uint32_t a, b, x;
  std::int64_t v, dec;
  bool to_host = false;  // the host's semaphore, not a slot's
};

template <class Pick>
std::vector<Ref> template_block(Pick&& pick, const ArbitraryShape& shape, std::uint32_t C, std::uint32_t L,
                                std::uint32_t K, bool host) {
  std::vector<Ref> tmpl;
  const std::uint32_t n = 1 + pick(shape.max_block);
  for (std::uint32_t i = 0; i < n; ++i) {
    Ref r{Marker::None, Prim::Inc, pick(C), pick(L), pick(K), pick(3), pick(3)};
    switch (pick(6)) {
      case 0: r.marker = Marker::Arrive; break;
      case 1: r.marker = Marker::Depart; break;
      case 2: break;
      case 3:
        r.prim = Prim::IncVal;
        if (pick(4) == 3) {  // a decrement: of its own slot's semaphore when only one may consume it
          r.v = -1 - static_cast<std::int64_t>(pick(2));
          if (shape.persistent_only) r.a = r.b = 0;
        }
        break;
      default:
        r.prim = pick(3) == 0 ? Prim::WaitGe : Prim::WaitGeAndDec;
        if (shape.persistent_only) r.a = r.b = 0;  // one consumer: its own slot
    }
    tmpl.push_back(r);
  }
  if (host) tmpl.insert(tmpl.begin() + pick(n + 1), Ref{Marker::None, Prim::Inc, 0, 0, 0, 1, 1, true});
  return tmpl;
}

// Two times in three, one flaw the hints do not know of: one slot semaphore's initial
// value, or one leader's guarantee.  `where`: the process of each slot (then the host's).
template <class Pick>
void plant_flaw(Pick&& pick, ArbitraryCase& out, const std::vector<std::uint32_t>& where, std::uint32_t slot_semas) {
  System& s = out.sys;
  const auto P = static_cast<std::uint32_t>(where.size());
  const auto N = static_cast<std::uint32_t>(out.hints.leader_proc.size());
  const std::uint32_t flaw = pick(3);
  if (flaw == 0) return;
  out.unflawed = s;
  if (flaw == 1) {
    out.flaw = Flaw::InitialValue;
    s.semas[pick(slot_semas)].initial += pick(2) ? 1 : -1;
  } else {
    // One member more or less, or (keeping its size) one member swapped for another.
    out.flaw = Flaw::Guarantee;
    const std::uint32_t p = where[pick(N)], q = (p + 1 + pick(P - 1)) % P;
    auto& g = s.procs[p].guarantee;
    const auto it = std::find(g.begin(), g.end(), q);
    const bool swap = pick(2) == 1;
    if (it == g.end()) {
      if (swap && !g.empty()) g.erase(g.begin() + pick(static_cast<std::uint32_t>(g.size())));
      g.push_back(q);
    } else {
      g.erase(it);
      for (std::uint32_t other = 0; swap && other < P; ++other) {
        if (other != p && other != q && std::find(g.begin(), g.end(), other) == g.end()) {
          g.push_back(other);
          break;
        }
      }
    }
  }
}

// The slots' semaphores (x of slot k is k*K + x, each slot's x with the same initial
// value) and the host's (N*K), with their hints.
template <class Pick>
void slot_semaphores(Pick&& pick, ArbitraryCase& out, std::uint32_t N, std::uint32_t K, bool host) {
  std::vector<std::int32_t> init(K);
  for (auto& v : init) v = static_cast<std::int32_t>(pick(3));
  SymmetryHints& h = out.hints;
  for (std::uint32_t slot = 0; slot < N; ++slot) {
    for (std::uint32_t x = 0; x < K; ++x) {
      out.sys.semas.push_back(Semaphore{"s" + std::to_string(slot) + "." + std::to_string(x), 0, init[x]});
      h.sema_slot.push_back(static_cast<std::int32_t>(slot));
      h.sema_local.push_back(x);
    }
  }
  if (host) {
    out.sys.semas.push_back(Semaphore{"h", 0, 0});
    h.sema_slot.push_back(-1);
    h.sema_local.push_back(0);
  }
}

// Leader (c, l)'s program: the template, once a round, each Ref resolved from (c, l).
inline void leader_program(Process& pr, const std::vector<Ref>& tmpl, std::uint32_t c, std::uint32_t l,
                           std::uint32_t L, std::uint32_t K, std::uint32_t N, std::uint32_t R) {
  for (std::uint32_t r = 0; r < R; ++r) {
    for (const Ref& t : tmpl) {
      Instr in{t.marker, {}, static_cast<std::uint16_t>(r)};
      if (t.marker == Marker::None) {
        const std::uint32_t target = t.to_host ? N * K : ((c ^ t.a) * L + (l ^ t.b)) * K + t.x;
        in.op = SemaOp{t.prim, target, t.v, t.dec};
      }
      pr.program.push_back(in);
    }
  }
}

}  // namespace gen

template <class Pick>
ArbitraryCase symmetric_case(Pick&& pick, const ArbitraryShape& shape = {}) {
  const std::uint32_t C = 1 + pick(2), L = C == 1 ? 2 : 1 + pick(2), N = C * L;
  const std::uint32_t K = 1 + pick(2), R = 1 + pick(shape.max_rounds);
  const bool host = pick(2) == 1;
  ArbitraryCase out;
  System& s = out.sys;
  SymmetryHints& h = out.hints;
  s.rounds = R;
  s.compare = pick(4) == 0 ? Compare::Gt : Compare::Ge;
  h.chips = C;
  h.leaders = L;
  // Process indices: the leaders at random places, the host among them.
  const std::uint32_t P = N + (host ? 1 : 0);
  std::vector<std::uint32_t> where(P);
  for (std::uint32_t i = 0; i < P; ++i) where[i] = i;
  for (std::uint32_t i = P; i-- > 1;) std::swap(where[i], where[pick(i + 1)]);
  for (std::uint32_t slot = 0; slot < N; ++slot) h.leader_proc.push_back(static_cast<std::int32_t>(where[slot]));
  const std::uint32_t host_proc = host ? where[N] : 0;
  gen::slot_semaphores(pick, out, N, K, host);
  const std::vector<gen::Ref> tmpl = gen::template_block(pick, shape, C, L, K, host);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> g_rel;
  for (std::uint32_t a = 0; a < C; ++a) {
    for (std::uint32_t b = 0; b < L; ++b) {
      if (pick(2)) g_rel.emplace_back(a, b);
    }
  }
  const bool g_host = host && pick(2);
  s.procs.resize(P);
  for (std::uint32_t slot = 0; slot < N; ++slot) {
    const std::uint32_t c = slot / L, l = slot % L;
    Process& pr = s.procs[where[slot]];
    pr.name = "c" + std::to_string(c) + ".l" + std::to_string(l);
    pr.participant = true;
    for (const auto& [a, b] : g_rel) pr.guarantee.push_back(where[(c ^ a) * L + (l ^ b)]);
    if (g_host) pr.guarantee.push_back(host_proc);
    gen::leader_program(pr, tmpl, c, l, L, K, N, R);
  }
  if (host) {
    Process& pr = s.procs[host_proc];
    pr.name = "host";
    for (std::uint32_t r = 0; r < R; ++r) {
      pr.program.push_back(Instr{Marker::None, SemaOp{Prim::WaitGeAndDec, N * K, N, N}, static_cast<std::uint16_t>(r)});
    }
  }
  gen::plant_flaw(pick, out, where, N * K);
  return out;
}

// The draw every differential test takes: a symmetric system with a flaw (b) one time
// in three (with `motifs`), else an arbitrary system with arbitrary hints.
template <class Pick>
ArbitraryCase arbitrary_case(Pick&& pick, const ArbitraryShape& shape = {}) {
  if (shape.motifs && pick(3) == 2) return symmetric_case(pick, shape);
  ArbitraryCase out;
  out.sys = arbitrary_system(pick, shape);
  out.hints = arbitrary_hints(out.sys, pick);
  return out;
}

}  // namespace neffbar::model
