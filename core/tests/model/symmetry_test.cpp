// symmetry.h's is_automorphism: a permutation of the processes with a renaming of the
// semaphores is accepted only when both are bijections of the right size and map the
// programs onto themselves block by block; with the hints, only when they induce a
// renaming; and never once the deadline has expired.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "hand_made.h"
#include "neffbar/model/engines/common/compiled.h"
#include "neffbar/model/engines/explicit/symmetry.h"
#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/frontend/lowering.h"

namespace neffbar::model {
namespace {

using namespace hand_made;

// Two processes with the same program on semaphore s2, and two semaphores no one names:
// every permutation of the processes is an automorphism with the identity renaming, and
// s0, s1 may be swapped.
System twins() {
  const std::vector<Instr> prog = {arrive(), inc(2), wait(2, 2), depart()};
  return make(3, {prog, prog});
}

TEST(Symmetry, IsAutomorphismAcceptsTheSystemsOwnSymmetries) {
  const System sys = twins();
  const auto blocks = blocks_of(sys);
  EXPECT_TRUE(is_automorphism(sys, std::vector<std::uint32_t>{0, 1}, std::vector<std::int64_t>{0, 1, 2}, blocks));
  EXPECT_TRUE(is_automorphism(sys, std::vector<std::uint32_t>{1, 0}, std::vector<std::int64_t>{1, 0, 2}, blocks));
  EXPECT_FALSE(is_automorphism(sys, std::vector<std::uint32_t>{1, 0}, std::vector<std::int64_t>{0, 2, 1}, blocks))
      << "s2 renamed to s1: the programs name s1 then";
}

TEST(Symmetry, IsAutomorphismRefusesWhatIsNoBijectionOfTheRightSize) {
  const System sys = twins();
  const auto blocks = blocks_of(sys);
  const std::vector<std::int64_t> id = {0, 1, 2};
  for (const std::vector<std::uint32_t>& perm : std::vector<std::vector<std::uint32_t>>{{0}, {0, 1, 2}, {0, 0}, {1, 1}, {0, 2}, {2, 0}}) {
    EXPECT_FALSE(is_automorphism(sys, perm, id, blocks)) << perm.size() << " " << perm[0];
  }
  const std::vector<std::uint32_t> swap = {1, 0};
  for (const std::vector<std::int64_t>& rho : std::vector<std::vector<std::int64_t>>{{0, 1}, {0, 1, 2, 3}, {0, 0, 2}, {1, 1, 2}, {0, 3, 2}, {-1, 1, 2}}) {
    EXPECT_FALSE(is_automorphism(sys, swap, rho, blocks)) << rho.size() << " " << rho[0] << " " << rho[1];
  }
}

TEST(Symmetry, IsAutomorphismStopsAtAnExpiredDeadline) {
  const System sys = twins();
  const auto blocks = blocks_of(sys);
  Deadline expired(1, [] { return 2.0; }, {}, /*cadence=*/1);
  EXPECT_FALSE(is_automorphism(sys, std::vector<std::uint32_t>{1, 0}, std::vector<std::int64_t>{0, 1, 2}, blocks, &expired));
}

// The hints' form: the sizes of the permutation and of the hints' semaphore table are
// checked, a slot map that induces no renaming is refused (not dereferenced), and the
// deadline holds there too.
TEST(Symmetry, IsAutomorphismWithHintsRefusesWhatTheyCannotRename) {
  const System sys = twins();
  const auto blocks = blocks_of(sys);
  SymmetryHints hints;
  hints.chips = 2;
  hints.leaders = 1;
  hints.leader_proc = {0, 1};
  hints.proxy_proc = {-1, -1};
  hints.sema_slot = {0, 1, -1};
  hints.sema_local = {0, 0, 0};
  const std::vector<std::uint32_t> swap = {1, 0};
  EXPECT_TRUE(is_automorphism(sys, hints, swap, {1, 0}, blocks));
  EXPECT_FALSE(is_automorphism(sys, hints, std::vector<std::uint32_t>{1, 0, 2}, {1, 0}, blocks));
  SymmetryHints short_table = hints;
  short_table.sema_slot.pop_back();
  short_table.sema_local.pop_back();
  EXPECT_FALSE(is_automorphism(sys, short_table, swap, {1, 0}, blocks));
  EXPECT_FALSE(is_automorphism(sys, hints, swap, {0, 0}, blocks)) << "two slots onto one: no renaming";
  Deadline expired(1, [] { return 2.0; }, {}, /*cadence=*/1);
  EXPECT_FALSE(is_automorphism(sys, hints, swap, {1, 0}, blocks, &expired));
  std::uint64_t reads = 0;  // expiring after the first read: inside the programs' check
  Deadline later(1, [&] { return reads++ < 1 ? 0.0 : 2.0; }, {}, /*cadence=*/1);
  EXPECT_FALSE(is_automorphism(sys, hints, swap, {1, 0}, blocks, &later));
  EXPECT_GE(reads, 2u);
}

// The lowering's hints, where chips and leaders differ in number too: a leader-indexed
// semaphore (per-peer wiring) names a leader of its own chip, renamed within the chip's
// `leaders` slots, so detect() verifies the symmetry as on a square layout.
TEST(Symmetry, DetectVerifiesTheHintsWhereChipsAndLeadersDiffer) {
  for (const auto& [chips, leaders] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{2, 2}, {2, 4}, {4, 2}, {1, 3}}) {
    for (const bool host_cc : {false, true}) {
      const Topology t{chips, leaders, Fabric::Default, host_cc, 1, Wiring::PerPeer, Lowering::Table};
      const Result<Composition> comp = compose(t);
      ASSERT_TRUE(comp.ok()) << chips << "x" << leaders;
      const Lowered low = *lower_with_hints(*comp, {});
      ASSERT_FALSE(low.hints.leader_indexed.empty());
      const std::optional<Symmetry> sym = Symmetry::detect(low.system, low.hints, blocks_of(low.system));
      ASSERT_TRUE(sym.has_value()) << chips << "x" << leaders << " host_cc " << host_cc;
      EXPECT_GT(sym->group_size(), 1u) << chips << "x" << leaders;
    }
  }
}

}  // namespace
}  // namespace neffbar::model
