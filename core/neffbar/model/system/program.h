// A process's program: a body run `repeat` times back to back.  The barrier runs round
// after round on the same semaphores (lowering.cpp), so a lowered program is one round's
// body and the round count: 1000 rounds cost what one does.  With repeat 1 the body is
// any straight-line program (the arbitrary systems of the tests, a round field per
// instruction).
//
// Instruction pc is body[pc % body.size()], its round moved on by (pc / body.size()) *
// body_rounds: the body spans rounds 0..body_rounds-1 and iteration i runs them as
// rounds i*body_rounds... .  Nothing is written out; written_out() gives the plain
// vector for the tests that compare the two.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <span>
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
  Program(std::initializer_list<Instr> body) : body_(body) {}

  // The body, run `repeat` times, each run `body_rounds` rounds later than the one before.
  [[nodiscard]] static Program repeated(std::vector<Instr> body, std::uint32_t repeat, std::uint16_t body_rounds = 1) {
    Program p(std::move(body));
    p.repeat_ = repeat;
    p.body_rounds_ = body_rounds;
    return p;
  }

  [[nodiscard]] std::size_t size() const { return body_.size() * repeat_; }
  [[nodiscard]] bool empty() const { return size() == 0; }
  [[nodiscard]] Instr operator[](std::size_t pc) const {
    if (repeat_ == 1) return body_[pc];
    const std::size_t n = body_.size();
    Instr in = body_[pc % n];
    in.round = static_cast<std::uint16_t>(in.round + pc / n * body_rounds_);
    return in;
  }
  [[nodiscard]] Instr back() const { return (*this)[size() - 1]; }

  [[nodiscard]] const std::vector<Instr>& body() const { return body_; }
  [[nodiscard]] std::uint32_t repeat() const { return repeat_; }
  [[nodiscard]] std::uint16_t body_rounds() const { return body_rounds_; }

  // Appends to a program run once (building one; a repeated body is built first, then
  // repeated()).
  void push_back(const Instr& in) {
    assert(repeat_ == 1);
    body_.push_back(in);
  }
  void append(std::span<const Instr> ins) {
    assert(repeat_ == 1);
    body_.insert(body_.end(), ins.begin(), ins.end());
  }
  // The first n instructions (n <= size()): whole runs of the body stay a body.
  void truncate(std::size_t n) {
    if (!body_.empty() && n % body_.size() == 0) {
      repeat_ = static_cast<std::uint32_t>(n / body_.size());
      if (repeat_ == 0) body_.clear(), repeat_ = 1;
      return;
    }
    std::vector<Instr> w = written_out();
    w.resize(n);
    *this = Program(std::move(w));
  }

  [[nodiscard]] std::vector<Instr> written_out() const {
    std::vector<Instr> w;
    w.reserve(size());
    for (std::size_t pc = 0; pc < size(); ++pc) w.push_back((*this)[pc]);
    return w;
  }

  // The same instructions, however they are held.
  friend bool same_instructions(const Program& a, const Program& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t pc = 0; pc < a.size(); ++pc) {
      if (!(a[pc] == b[pc])) return false;
    }
    return true;
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
