// The persistent engine's compiled form of a System (persistent.h): one op per
// instruction (what it waits for, what it adds), the round layout (where each round
// starts, each process's ARRIVE and DEPART points) and the guarantees as a matrix.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "neffbar/model/system/system.h"

namespace neffbar::model::persistent {

inline bool is_wait(Prim k) { return k == Prim::WaitGe || k == Prim::WaitGeAndDec; }
inline bool is_eq_wait(Prim k) { return k == Prim::WaitEqAndInc || k == Prim::WaitEqAndClear; }

enum class OpKind : std::uint8_t { Marker, Free, Wait };

struct Op {
  std::int64_t thr = 0;  // Wait: releases at value >= thr (a GT compare is >= thr + 1)
  std::int64_t add = 0;  // the effect once executed
  std::uint32_t sema = kNone;
  OpKind kind = OpKind::Marker;
};

inline bool same_but_round(const Instr& a, const Instr& b) {
  return a.marker == b.marker && a.op == b.op && a.step == b.step && a.lane == b.lane;
}

struct DepartPoint {
  std::uint32_t p, pc;
};

// The system compiled for greedy runs.  A periodic system (every program is `rounds`
// copies of one round's block) stores one block per process.
struct Net {
  const System& sys;
  std::uint32_t P, S, R;
  bool periodic = true, structured = true;
  std::vector<Op> ops;
  std::vector<std::size_t> off;
  std::vector<std::uint32_t> len, period;  // period: one round's length (periodic) or len
  std::vector<std::uint32_t> waiter;       // [s] -> the one process that waits on s
  std::vector<std::int64_t> init;
  std::vector<std::uint32_t> comp;         // [p] -> connected component (shared semaphores)
  std::vector<std::vector<std::uint32_t>> members;
  std::vector<std::uint32_t> starts;       // not periodic: [p*(R+2)+j] first pc of round >= j
  Arrivals arrivals;  // the ARRIVE that counts per process and round (system.h: the last of the round)
  std::vector<std::vector<DepartPoint>> departs;  // [r]; [R]: rounds >= R, which nobody arrives
  std::vector<std::uint8_t> in_g;          // [p*P+q]: q != p is in p's guarantee
  std::vector<std::vector<std::uint32_t>> others;  // p's guarantee without p
  std::vector<std::uint8_t> participant;
  std::vector<std::uint32_t> relevant;     // processes whose arrival some DEPART checks

  explicit Net(const System& s)
      : sys(s), P(static_cast<std::uint32_t>(s.procs.size())), S(static_cast<std::uint32_t>(s.semas.size())), R(s.rounds), arrivals(s) {
    for (const Process& pr : s.procs) {
      const auto n = static_cast<std::uint32_t>(pr.program.size());
      len.push_back(n);
      if (R > 0 && pr.program.repeat() == R && pr.program.body_rounds() == 1 &&
          std::all_of(pr.program.body().begin(), pr.program.body().end(), [](const Instr& in) { return in.round == 0; })) {
        continue;  // a round body run R times: periodic and structured as held
      }
      std::uint32_t prev = 0;
      for (const Instr& in : pr.program) {
        structured = structured && in.round >= prev && in.round < R;
        prev = in.round;
      }
      if (R == 0 || n % R != 0) {
        periodic = false;
        continue;
      }
      const std::uint32_t b = n / R;
      for (std::uint32_t i = 0; i < n && periodic; ++i) {
        periodic = pr.program[i].round == i / b && same_but_round(pr.program[i], pr.program[i % b]);
      }
    }
    waiter.assign(S, kNone);
    for (const Semaphore& m : s.semas) init.push_back(m.initial);
    for (std::uint32_t p = 0; p < P; ++p) {
      const auto& prog = s.procs[p].program;
      period.push_back(periodic ? len[p] / R : len[p]);
      off.push_back(ops.size());
      for (std::uint32_t i = 0; i < period[p]; ++i) {
        const Instr& in = prog[i];
        Op o;
        if (in.marker == Marker::None) {
          o.sema = in.op.sema;
          o.add = effect(in.op);
          o.kind = is_wait(in.op.prim) ? OpKind::Wait : OpKind::Free;
          o.thr = s.compare == Compare::Ge ? in.op.value : in.op.value + 1;
          if (o.kind == OpKind::Wait || o.add < 0) waiter[o.sema] = p;
        }
        ops.push_back(o);
      }
    }
    components();
    layout_rounds();
    for (std::uint32_t p = 0; p < P; ++p) participant.push_back(s.procs[p].participant ? 1 : 0);
    in_g.assign(std::size_t{P} * P, 0);
    others.resize(P);
    std::vector<std::uint8_t> checked(P, 0);
    for (std::uint32_t p = 0; p < P; ++p) {
      for (std::uint32_t q : s.procs[p].guarantee) {
        if (q == p || q >= P || in_g[std::size_t{p} * P + q]) continue;
        in_g[std::size_t{p} * P + q] = 1;
        others[p].push_back(q);
        checked[q] = 1;
      }
    }
    for (std::uint32_t q = 0; q < P; ++q) {
      if (checked[q] || participant[q]) relevant.push_back(q);
    }
  }

  [[nodiscard]] std::uint32_t start(std::uint32_t p, std::uint32_t j) const {
    if (periodic) return std::min(j, R) * period[p];
    return starts[std::size_t{p} * (R + 2) + j];
  }
  [[nodiscard]] std::uint32_t arrive_pc(std::uint32_t q, std::uint32_t r) const {
    return arrivals.last(q, r);  // kNone (== Arrivals::kNever) past the rounds
  }
  [[nodiscard]] Instr instr(std::uint32_t p, std::uint32_t pc) const { return sys.procs[p].program[pc]; }

 private:
  void components() {
    std::vector<std::uint32_t> up(P + S);
    std::iota(up.begin(), up.end(), 0u);
    auto find = [&](std::uint32_t x) {
      while (up[x] != x) x = up[x] = up[up[x]];
      return x;
    };
    for (std::uint32_t p = 0; p < P; ++p) {
      for (std::uint32_t i = 0; i < period[p]; ++i) {
        const Op& o = ops[off[p] + i];
        if (o.sema != kNone) up[find(p)] = find(P + o.sema);
      }
    }
    std::vector<std::uint32_t> id(P + S, kNone);
    for (std::uint32_t p = 0; p < P; ++p) {
      std::uint32_t& c = id[find(p)];
      if (c == kNone) {
        c = static_cast<std::uint32_t>(members.size());
        members.emplace_back();
      }
      comp.push_back(c);
      members[c].push_back(p);
    }
  }

  void layout_rounds() {
    departs.resize(R + 1);
    if (!periodic) starts.assign(std::size_t{P} * (R + 2), 0);
    for (std::uint32_t p = 0; p < P; ++p) {
      const auto& prog = sys.procs[p].program;
      if (periodic) {  // round r's DEPARTs are round 0's, r periods on
        for (std::uint32_t pc = 0; pc < period[p]; ++pc) {
          if (prog[pc].marker != Marker::Depart) continue;
          for (std::uint32_t r = 0; r < R; ++r) departs[r].push_back({p, pc + r * period[p]});
        }
        continue;
      }
      for (std::uint32_t pc = 0; pc < len[p]; ++pc) {
        const Instr in = prog[pc];
        if (in.marker == Marker::Depart) departs[std::min<std::uint32_t>(in.round, R)].push_back({p, pc});
      }
      // start(p, j) = the first pc whose round is >= j: a suffix minimum over rounds.
      std::vector<std::uint32_t> first(R + 2, len[p]);
      for (std::uint32_t pc = len[p]; pc-- > 0;) first[std::min<std::uint32_t>(prog[pc].round, R)] = pc;
      for (std::uint32_t j = R; j-- > 0;) first[j] = std::min(first[j], first[j + 1]);
      first[R + 1] = len[p];
      std::copy(first.begin(), first.end(), starts.begin() + static_cast<std::ptrdiff_t>(std::size_t{p} * (R + 2)));
    }
  }
};

}  // namespace neffbar::model::persistent
