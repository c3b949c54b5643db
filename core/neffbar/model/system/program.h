// A process's program: a body run `repeat` times back to back.  The barrier runs round
// after round on the same semaphores (lowering.cpp), so a lowered program is one round's
// body and the round count: 1000 rounds cost what one does.  With repeat 1 the body is
// any straight-line program (the arbitrary systems of the tests, a round field per
// instruction).
//
// Instruction pc is body[pc % body.size()], its round moved on by (pc / body.size()) *
// body_rounds: the body spans rounds 0..body_rounds-1 and iteration i runs them as
// rounds i*body_rounds... .  Nothing is written out.  The library builds a body
// instruction by instruction, then repeats it; the tests' other edits (append, cut,
// write out, compare) are in core/testing/program_ops.h.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "neffbar/semaphore.h"

namespace neffbar::model {

enum class Marker : std::uint8_t { None, Arrive, Depart };

struct Instr {
  Marker marker = Marker::None;  // None: a semaphore primitive (op)
  SemaOp op{};
  std::uint16_t round = 0;       // barrier round this instruction belongs to
  std::uint8_t step = 0xFF;      // config step it was lowered from (0xFF: handshake / extra)
  std::uint8_t lane = 0xFF;      // lane within the step
  bool operator==(const Instr&) const = default;
};

class Program {
 public:
  Program() = default;
  Program(std::vector<Instr> body) : body_(std::move(body)) {}  // NOLINT: a vector is a program run once

  // The body, run `repeat` times, each run `body_rounds` rounds later than the one before.
  [[nodiscard]] static Program repeated(std::vector<Instr> body, std::uint32_t repeat, std::uint16_t body_rounds = 1) {
    Program p(std::move(body));
    p.repeat_ = repeat;
    p.body_rounds_ = body_rounds;
    return p;
  }

  [[nodiscard]] std::size_t size() const { return body_.size() * repeat_; }
  [[nodiscard]] Instr operator[](std::size_t pc) const {
    if (repeat_ == 1) return body_[pc];
    const std::size_t n = body_.size();
    Instr in = body_[pc % n];
    in.round = static_cast<std::uint16_t>(in.round + pc / n * body_rounds_);
    return in;
  }

  [[nodiscard]] const std::vector<Instr>& body() const { return body_; }
  [[nodiscard]] std::uint32_t repeat() const { return repeat_; }
  [[nodiscard]] std::uint16_t body_rounds() const { return body_rounds_; }

  // Appends to a program run once (building one; a repeated body is built first, then
  // repeated()).
  void push_back(const Instr& in) {
    assert(repeat_ == 1);
    body_.push_back(in);
  }

  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Instr;
    using difference_type = std::ptrdiff_t;
    using reference = Instr;
    using pointer = void;
    const_iterator(const Program* p, std::size_t pc) : p_(p), pc_(pc) {}
    Instr operator*() const { return (*p_)[pc_]; }
    const_iterator& operator++() {
      ++pc_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return pc_ == o.pc_; }

   private:
    const Program* p_;
    std::size_t pc_;
  };
  [[nodiscard]] const_iterator begin() const { return {this, 0}; }
  [[nodiscard]] const_iterator end() const { return {this, size()}; }

 private:
  std::vector<Instr> body_;
  std::uint32_t repeat_ = 1;
  std::uint16_t body_rounds_ = 1;
};

}  // namespace neffbar::model
