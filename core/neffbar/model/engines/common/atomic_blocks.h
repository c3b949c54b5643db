// The atomic blocks of one process under the Lipton reduction, held per round body.
//
// A block starting at pc is: right movers, then at most one non-mover, then left
// movers (the reduction's R*;N?;L* shape).  Whether an instruction is a mover depends
// only on the instruction and its process, so the block from pc is the block from
// pc % n of the body run round after round, cut at the program's end.  Each body
// position keeps the distance to its block's end and to its non-mover; the whole
// program's block ends follow from them, and 1000 rounds cost what one does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "neffbar/model/system/program.h"

namespace neffbar::model::detail {

class AtomicBlocks {
 public:
  AtomicBlocks() = default;
  // is_right / is_left classify an instruction of this process.  Without `reduce`
  // every instruction is a block of its own.
  template <class Right, class Left>
  AtomicBlocks(const Program& prog, bool reduce, Right is_right, Left is_left)
      : size_(static_cast<std::uint32_t>(prog.size())), n_(static_cast<std::uint32_t>(prog.body().size())) {
    const std::vector<Instr>& body = prog.body();
    const std::uint32_t n = n_;
    end_.resize(n);
    non_mover_.resize(n);
    const std::vector<std::uint32_t> rights = runs(body, is_right), lefts = runs(body, is_left);
    for (std::uint32_t i = 0; i < n; ++i) {
      // Offsets from i over the body run cyclically; a phase that passes every body
      // position never ends (the block runs to the program's end).
      std::uint32_t e = 0;
      std::uint32_t bad = kNone;
      bool unbounded = false;
      if (reduce) {
        e = rights[i];
        unbounded = e == n;
        if (!unbounded && !is_left(body[(i + e) % n])) bad = e++;  // the one non-mover
        const std::uint32_t l = unbounded ? 0 : lefts[(i + e) % n];
        e += l;
        unbounded = unbounded || l == n;
      } else if (!is_right(body[i]) && !is_left(body[i])) {
        bad = 0;
      }
      end_[i] = unbounded ? kNone : std::max<std::uint32_t>(e, 1);
      non_mover_[i] = bad;
      if (n == size_) {  // a body run once: the answers themselves, read without arithmetic
        end_[i] = end(i);
        non_mover_[i] = movers_only(i) ? kNone : 0;
      }
    }
    once_ = n == size_;
  }

  // The end of the block that starts at pc (< the program's size).
  [[nodiscard]] std::uint32_t end(std::uint32_t pc) const {
    if (once_) return end_[pc];
    const std::uint32_t off = end_[pc % n_];
    return off >= size_ - pc ? size_ : pc + off;
  }
  // The block from pc has no non-mover: every action in it is a right or a left mover.
  [[nodiscard]] bool movers_only(std::uint32_t pc) const {
    if (once_) return non_mover_[pc] == kNone;
    const std::uint32_t off = non_mover_[pc % n_];
    return off >= size_ - pc;
  }

 private:
  // [i]: how many body positions from i on, cyclically, satisfy `is`; n when all do.
  // One backward pass from a position that does not: linear in the body's length.
  template <class Is>
  static std::vector<std::uint32_t> runs(const std::vector<Instr>& body, Is is) {
    const auto n = static_cast<std::uint32_t>(body.size());
    std::vector<std::uint32_t> run(n, n);
    std::uint32_t stop = 0;
    while (stop < n && is(body[stop])) ++stop;
    if (stop == n) return run;
    for (std::uint32_t k = 0; k < n; ++k) {  // k = 0: stop itself, which does not satisfy `is`
      const std::uint32_t i = (stop + n - k) % n;
      run[i] = is(body[i]) ? run[(i + 1) % n] + 1 : 0;
    }
    return run;
  }

  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t size_ = 0, n_ = 0;
  bool once_ = false;                     // run once: the search asks at every state
  std::vector<std::uint32_t> end_;        // [body position] distance to the block's end (run once: the end)
  std::vector<std::uint32_t> non_mover_;  // [body position] distance to its non-mover (run once: 0 or none)
};

}  // namespace neffbar::model::detail
