// sema_address.h: an address resolved to its semaphore block, window and index.
#include <gtest/gtest.h>

#include "neffbar/sema_address.h"

namespace neffbar {
namespace {

// A mapping with no block size or no semaphore size resolves nothing (rather than
// dividing by zero); a block of one byte is a mapping like any other.
TEST(SemaAddress, DegenerateMappingsResolveNothing) {
  SemaMapping m;
  m.block_size = 0;
  EXPECT_FALSE(resolve(m, 0x1000));
  m = SemaMapping{};
  m.bytes_per_sema = 0;
  EXPECT_FALSE(resolve(m, 0x1000));
  m = SemaMapping{.block_size = 1, .read_offset = 0, .set_offset = 0, .inc_offset = 0, .dec_offset = 0,
                  .bytes_per_sema = 1, .semas_per_block = 1};
  ASSERT_TRUE(resolve(m, 7));
  EXPECT_EQ(resolve(m, 7)->block_base, 7u);
}

// Each window holds 256 semaphores and ends where the next begins: the first and the last
// of every window resolve to that window, never to the one before it.
TEST(SemaAddress, EveryWindowHoldsItsFirstAndLastSemaphore) {
  const SemaMapping m;
  for (Window w : {Window::Read, Window::Set, Window::Inc, Window::Dec}) {
    for (std::uint32_t i : {0u, 255u}) {
      const auto r = resolve(m, 0x400000 + m.window_offset(w) + m.bytes_per_sema * i);
      ASSERT_TRUE(r) << static_cast<int>(w) << " " << i;
      EXPECT_EQ(r->window, w) << i;
      EXPECT_EQ(r->index, i) << static_cast<int>(w);
    }
  }
}

TEST(SemaAddress, ResolveStripsTheWindow) {
  const SemaMapping m;
  const auto r = resolve(m, 0x400000 + 0x1800 + 4 * 9);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->index, 9u);
  EXPECT_EQ(r->window, Window::Inc);
  EXPECT_EQ(r->key(), resolve(m, 0x400000 + 0x1000 + 4 * 9)->key());
  EXPECT_FALSE(resolve(m, 0x400000 + 0x10));       // below the windows
  EXPECT_FALSE(resolve(m, 0x400000 + 0x1001));     // not 4-byte aligned
}

}  // namespace
}  // namespace neffbar
