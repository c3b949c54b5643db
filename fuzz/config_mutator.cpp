#include "config_mutator.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>

#include "neffbar/bytes.h"
#include "neffbar/codec.h"
#include "neffbar/driver_context.h"
#include "neffbar/sema_address.h"
#include "neffbar/sema_ids.h"

// libFuzzer's byte-level mutator; weak so the replay build links without libFuzzer.
extern "C" __attribute__((weak)) std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max);

namespace neffbar::fuzz {
namespace {

using Rng = std::minstd_rand;

std::uint64_t pick_value(const Field& f, std::uint64_t current, Rng& rng) {
  const std::uint64_t max = f.max_value();
  if (f.kind == Kind::Bits) return current ^ 1u;  // the gate / a reserved bit flips
  if (f.kind == Kind::Addr) {
    const SemaMapping m;
    switch (rng() % 5) {
      case 0: return 0;
      case 1: return ~std::uint64_t{0};
      case 2: return current + m.bytes_per_sema * (rng() % 2 ? 1 : -1);  // the neighbour semaphore
      default: {
        const Window w = static_cast<Window>(rng() % 4);
        return m.sp_base(kSpOrigin, static_cast<std::uint32_t>(rng() % 8)) +
               m.sema_offset(static_cast<std::uint32_t>(rng() % 20), w);
      }
    }
  }
  switch (rng() % 6) {
    case 0: return 0;
    case 1: return (current + 1) & max;  // thresholds +-1
    case 2: return (current - 1) & max;
    case 3: return max;
    case 4: return 1 + rng() % 4;
    default: return rng() & max;
  }
}

// Swap or copy a whole lane (barrier_sema + target_sema_val) inside / across steps.
void move_lane(std::uint8_t* img, Rng& rng, bool swap) {
  const std::size_t s1 = rng() % 4, s2 = rng() % 4, i = rng() % 4, j = rng() % 4;
  std::uint8_t* a = img + s1 * kStepSize;
  std::uint8_t* b = img + s2 * kStepSize;
  std::uint8_t sa[8], ta[4];
  std::memcpy(sa, a + 4 + 8 * i, 8);
  std::memcpy(ta, a + 0x24 + 4 * i, 4);
  if (swap) {
    std::memcpy(a + 4 + 8 * i, b + 4 + 8 * j, 8);
    std::memcpy(a + 0x24 + 4 * i, b + 0x24 + 4 * j, 4);
  }
  std::memcpy(b + 4 + 8 * j, sa, 8);
  std::memcpy(b + 0x24 + 4 * j, ta, 4);
}

}  // namespace

bool plain_mutator_requested() {
  static const bool plain = std::getenv("NEFFBAR_PLAIN_MUTATOR") != nullptr;
  return plain;
}

std::size_t mutate_config(std::uint8_t* data, std::size_t size, std::size_t max_size, std::size_t offset,
                          unsigned seed) {
  Rng rng(seed);
  const bool bytes_only = plain_mutator_requested() || rng() % 8 == 0;
  if (bytes_only && LLVMFuzzerMutate) return LLVMFuzzerMutate(data, size, max_size);
  const std::size_t need = offset + kConfigSize;
  if (need > max_size) return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
  if (size < need) std::memset(data + size, 0, need - size);
  size = need;
  std::uint8_t* img = data + offset;
  const auto leaves = config_leaves();
  std::uint8_t before[kConfigSize];
  std::memcpy(before, img, kConfigSize);
  // 1..3 field mutations, and more until the image really changed (an unchanged input
  // would only re-run what libFuzzer already ran).
  for (int n = 1 + static_cast<int>(rng() % 3); n > 0 || std::memcmp(before, img, kConfigSize) == 0; --n) {
    switch (rng() % 8) {
      case 0: img[kGateOffset] ^= 1; break;
      case 1: move_lane(img, rng, true); break;
      case 2: move_lane(img, rng, false); break;
      default: {
        const Leaf& l = leaves[rng() % leaves.size()];
        set_leaf_value(img, l, pick_value(*l.field, leaf_value(img, l), rng));
      }
    }
  }
  return size;
}

std::size_t cross_configs(const std::uint8_t* a, std::size_t a_size, const std::uint8_t* b, std::size_t b_size,
                          std::uint8_t* out, std::size_t max_out, std::size_t offset, unsigned seed) {
  const std::size_t need = offset + kConfigSize;
  if (a_size < need || b_size < need || max_out < need) return 0;
  Rng rng(seed);
  std::memcpy(out, a, need);
  std::uint32_t coin = 0;  // one random bit a leaf, 30 bits a draw
  int left = 0;
  for (const Leaf& l : config_leaves()) {
    if (left-- == 0) {
      coin = static_cast<std::uint32_t>(rng());
      left = 29;
    }
    if (coin & 1) set_leaf_value(out + offset, l, leaf_value(b + offset, l));
    coin >>= 1;
  }
  // A child equal to its first parent would only re-run it: no crossover then.
  return std::memcmp(out, a, need) == 0 ? 0 : need;
}

}  // namespace neffbar::fuzz
