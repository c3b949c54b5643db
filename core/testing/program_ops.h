// What the tests do to a Program (neffbar/model/system/program.h) that the library never
// does: append a block, cut it, write it out, compare two however they are held.
#pragma once

#include "testing/testing_only.h"

#include <cassert>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "neffbar/model/system/program.h"

namespace neffbar::model {

// Every instruction, as a plain vector.
inline std::vector<Instr> written_out(const Program& p) {
  std::vector<Instr> w;
  w.reserve(p.size());
  for (std::size_t pc = 0; pc < p.size(); ++pc) w.push_back(p[pc]);
  return w;
}

// The same instructions, however they are held.
inline bool same_instructions(const Program& a, const Program& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t pc = 0; pc < a.size(); ++pc) {
    if (!(a[pc] == b[pc])) return false;
  }
  return true;
}

// The first n instructions (n <= size()): whole runs of the body stay a body.
inline Program truncated(const Program& p, std::size_t n) {
  const std::size_t body = p.body().size();
  if (body != 0 && n % body == 0) {
    if (n == 0) return Program{};
    return Program::repeated(p.body(), static_cast<std::uint32_t>(n / body), p.body_rounds());
  }
  std::vector<Instr> w = written_out(p);
  w.resize(n);
  return Program(std::move(w));
}

// Appends to a program run once (a repeated body is built first, then repeated()).
inline void append(Program& p, std::span<const Instr> ins) {
  assert(p.repeat() == 1);
  std::vector<Instr> b = p.body();
  b.insert(b.end(), ins.begin(), ins.end());
  p = Program(std::move(b));
}

}  // namespace neffbar::model
