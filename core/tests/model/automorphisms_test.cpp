// The explicit search's symmetry found from the system itself (Symmetry::automatic: the
// automorphisms of system_graph() from nauty, each generator checked on the whole
// program): sound on arbitrary systems against the reference checker with the hints
// dropped, exact on copies of one config (the states of a multiset, not of a product),
// a lying finder's generator refused, and the lowering's hints a subgroup of what nauty
// finds on the composed systems.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "hand_made.h"
#include "neffbar/json_log.h"
#include "neffbar/model/engines/common/compiled.h"
#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/engines/explicit/symmetry.h"
#include "neffbar/model/engines/explicit/system_graph.h"
#include "neffbar/model/scenarios/scenario.h"
#include "testing/arbitrary_system.h"
#include "testing/reference_checker.h"
#include "testing/reference_report.h"
#include "testing/program_ops.h"
#include "testing/symmetry_inspector.h"

namespace neffbar::model {
namespace {

using hand_made::blocks_of;

const AutomorphismFinder& nauty() {
  const AutomorphismFinder* f = nauty_automorphisms();
  EXPECT_NE(f, nullptr) << "core_tests is linked with nauty";
  return *f;
}

ConfigBytes shipped_example() {
  std::ifstream in(std::string(NEFFBAR_CORPUS_DIR) + "/examples/two_leaders_gate.json");
  std::stringstream text;
  text << in.rdbuf();
  const Result<ConfigBytes> b = read_log(text.str());
  EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message());
  return b.ok() ? *b : ConfigBytes{};
}

// What check-configs decides on N copies of one image (declared guarantees, the
// explicit search), with or without a finder.
CheckResult copies(std::uint32_t n, const AutomorphismFinder* finder, bool symmetry = true) {
  Scenario s;
  s.configs.assign(n, shipped_example());
  s.run.engine = Engine::Explicit;
  s.run.check.guarantee = GuaranteeMode::Declared;
  s.run.check.symmetry = symmetry;
  s.run.check.automorphisms = finder;
  s.run.check.max_states = 2'000'000;
  const Result<ScenarioResult> r = run_scenario(s);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? r->result : CheckResult{};
}

std::uint64_t factorial(std::uint64_t n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// Processes that each raise one shared semaphore by 1, then wait for it to reach need[k].
System raise_then_wait(const std::vector<std::int64_t>& need) {
  System sys;
  sys.semas = {Semaphore{"s", 0, 0}};
  for (std::size_t k = 0; k < need.size(); ++k) {
    Process p;
    p.name = "p" + std::to_string(k);
    p.participant = true;
    p.program.push_back(Instr{Marker::None, SemaOp{Prim::Inc, 0, 1, 0}, 0});
    p.program.push_back(Instr{Marker::None, SemaOp{Prim::WaitGe, 0, need[k], 0}, 0});
    sys.procs.push_back(p);
  }
  return sys;
}

// The canonical form is a function of the orbit, and perm says where each process went:
// for random states x, every image k and a random shuffle inside each class, the moved
// state has x's representative, and out[perm[p]] == in[p] for both.
void expect_canonical_on_orbits(const Symmetry& s, std::uint32_t procs, std::uint16_t pcs) {
  std::mt19937_64 rng(procs);
  const auto canon = [&](const std::vector<std::uint16_t>& in) {
    std::vector<std::uint16_t> out(procs);
    std::vector<std::uint32_t> perm(procs);
    s.canonicalize(in, out, perm);
    for (std::uint32_t p = 0; p < procs; ++p) EXPECT_EQ(out[perm[p]], in[p]) << "process " << p;
    return out;
  };
  for (int i = 0; i < 100; ++i) {
    std::vector<std::uint16_t> x(procs);
    for (auto& v : x) v = static_cast<std::uint16_t>(rng() % pcs);
    const std::vector<std::uint16_t> want = canon(x);
    for (const std::vector<std::uint32_t>& k : SymmetryInspector::images(s)) {
      std::vector<std::uint16_t> y(procs);
      for (std::uint32_t p = 0; p < procs; ++p) y[k[p]] = x[p];
      for (const std::vector<std::uint32_t>& c : SymmetryInspector::classes(s)) {
        std::vector<std::uint16_t> vals;
        for (std::uint32_t q : c) vals.push_back(y[q]);
        std::shuffle(vals.begin(), vals.end(), rng);
        for (std::size_t j = 0; j < c.size(); ++j) y[c[j]] = vals[j];
      }
      ASSERT_EQ(canon(y), want) << "two states of one orbit, two representatives";
    }
  }
}

// Each copy has three pcs that matter (before, between and after its wait), so the
// unreduced search sees 3^N states and the reduced one the multisets of N pcs over
// three: C(N + 2, 2).  Same verdict, kinds and global line either way.
TEST(AutomaticSymmetry, CopiesOfOneConfigCostTheirMultisets) {
  for (std::uint32_t n = 2; n <= 9; ++n) {
    const CheckResult plain = copies(n, nullptr), found = copies(n, &nauty());
    ASSERT_EQ(plain.verdict, found.verdict) << n;
    EXPECT_EQ(plain.found_mask, found.found_mask) << n;
    EXPECT_EQ(plain.global, found.global) << n;
    EXPECT_TRUE(found.exact()) << n;
    EXPECT_FALSE(plain.search().symmetry_used) << n;
    EXPECT_TRUE(found.search().symmetry_used) << n;
    EXPECT_EQ(found.search().symmetry_source, nauty().name()) << n;
    EXPECT_EQ(found.search().symmetry_group, factorial(n)) << n;
    EXPECT_DOUBLE_EQ(found.search().automorphism_order, static_cast<double>(factorial(n))) << n;
    std::uint64_t three_n = 1;
    for (std::uint32_t i = 0; i < n; ++i) three_n *= 3;
    EXPECT_EQ(plain.search().states, three_n) << n;
    EXPECT_EQ(found.search().states, std::uint64_t{n + 2} * (n + 1) / 2) << n;
  }
  // At the deployed count, where the unreduced search runs out of memory.
  const CheckResult big = copies(64, &nauty());
  EXPECT_TRUE(big.exact());
  EXPECT_EQ(big.search().states, 66u * 65 / 2);
  EXPECT_EQ(big.search().symmetry_group, UINT64_MAX);  // 64! saturates
  EXPECT_GT(big.search().automorphism_order, 1e89);    // 64! = 1.27e89
  EXPECT_EQ(big.verdict, copies(2, nullptr).verdict);
  // --no-symmetry turns it off too.
  EXPECT_FALSE(copies(3, &nauty(), /*symmetry=*/false).search().symmetry_used);
}

// Sound where it is used: on arbitrary systems with the hints dropped (the symmetric
// cases of arbitrary_case, flawed or not, and arbitrary ones), every reduction with the
// found symmetry gives the reference checker's report; and the generator reaches
// systems where it is used.
TEST(AutomaticSymmetry, AgreesWithTheReferenceWithoutHints) {
  std::mt19937_64 rng(33);
  const auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
  int used = 0, compared = 0, moved_more = 0, replayed_beyond = 0;
  const int systems = hand_made::kSanitized ? 300 : 1500;
  for (int i = 0; i < systems; ++i) {
    ArbitraryShape shape;
    shape.persistent_only = i % 2 == 0;
    const ArbitraryCase ac = arbitrary_case(pick, shape);
    const testing::ReferenceResult ref = testing::reference_check(ac.sys, 20'000);
    if (!ref.complete) continue;
    for (bool por : {false, true}) {
      CheckOptions o;
      o.collect_all = true;
      o.por = por;
      o.automorphisms = &nauty();
      o.max_states = 200'000;
      const CheckResult r = check_explicit(ac.sys, o);
      const std::string why =
          testing::report_disagreement(ac.sys, r, ref, testing::ReportContext{.broke_in_round = 0});
      ASSERT_TRUE(why.empty()) << "system " << i << (por ? " with POR" : "") << ": " << why << '\n' << listing(ac.sys);
      ++compared;
      used += r.search().symmetry_used ? 1 : 0;
    }
    const std::optional<Symmetry> s = Symmetry::automatic(ac.sys, blocks_of(ac.sys), nauty());
    moved_more += s && SymmetryInspector::images(*s).size() > 1 ? 1 : 0;
    replayed_beyond += s && SymmetryInspector::images(*s).size() > 1 && ref.found_mask != 0 ? 1 : 0;
  }
  std::cout << "compared " << compared << ", symmetry found in " << used << ", beyond swaps in " << moved_more
            << " (" << replayed_beyond << " with a counterexample replayed)\n";
  EXPECT_GT(compared, systems);
  EXPECT_GT(used, compared / 20) << "the arbitrary cases reach systems with interchangeable processes";
  EXPECT_GT(moved_more, 0) << "and systems whose automorphisms are more than swaps of two processes";
  EXPECT_GT(replayed_beyond, 0) << "some of them failing, so a counterexample through those images is replayed";
}

// A finder that reports the given permutations of the processes (the identity elsewhere).
class Given final : public AutomorphismFinder {
 public:
  explicit Given(std::vector<std::vector<std::uint32_t>> gens) : gens_(std::move(gens)) {}
  [[nodiscard]] std::string_view name() const override { return "given"; }
  [[nodiscard]] std::optional<Automorphisms> find(const ColouredGraph& g, Deadline* /*deadline*/) const override {
    Automorphisms a{{}, 1};
    for (const auto& procs : gens_) {
      std::vector<std::uint32_t> perm(g.size());
      std::iota(perm.begin(), perm.end(), 0u);
      std::copy(procs.begin(), procs.end(), perm.begin());
      a.generators.push_back(perm);
    }
    return a;
  }

 private:
  std::vector<std::vector<std::uint32_t>> gens_;
};

// Two processes that differ (one waits for 1, the other for 2): the graph says so, and
// a finder that claims them interchangeable anyway is refused by the check on the
// program, so the search runs unreduced and finds what the reference finds.
TEST(AutomaticSymmetry, AGeneratorThatIsNoAutomorphismIsRefused) {
  System sys;
  sys.semas = {Semaphore{"a", 0, 0}, Semaphore{"b", 0, 0}};
  for (std::int64_t need : {1, 2}) {
    Process p;
    p.name = "p" + std::to_string(need);
    p.participant = true;
    p.program.push_back(Instr{Marker::None, SemaOp{Prim::Inc, 0, 1, 0}, 0});
    p.program.push_back(Instr{Marker::None, SemaOp{Prim::WaitGe, 0, need, 0}, 0});
    sys.procs.push_back(p);
  }
  const std::vector<detail::AtomicBlocks> blocks = blocks_of(sys);
  const ColouredGraph g = system_graph(sys, blocks);
  const Given lying({{1, 0}});  // claims the two processes interchangeable
  EXPECT_FALSE(preserves(g, lying.find(g, nullptr)->generators[0]));
  EXPECT_FALSE(Symmetry::automatic(sys, blocks, lying).has_value());
  const std::optional<Automorphisms> real = nauty().find(g);
  ASSERT_TRUE(real.has_value());
  EXPECT_TRUE(real->generators.empty());
  EXPECT_DOUBLE_EQ(real->order, 1);
  CheckOptions o;
  o.collect_all = true;
  o.automorphisms = &lying;
  const CheckResult r = check_explicit(sys, o);
  EXPECT_FALSE(r.search().symmetry_used);
  EXPECT_EQ(r.found_mask, testing::reference_check(sys).found_mask);
}

// Every generator nauty reports preserves the graph; on two interchangeable processes
// it reports their swap, and Symmetry::automatic makes them one class.
TEST(AutomaticSymmetry, TwoCopiesAreOneClass) {
  const System sys = raise_then_wait({2, 3, 2});
  const std::vector<detail::AtomicBlocks> blocks = blocks_of(sys);
  const ColouredGraph g = system_graph(sys, blocks);
  const std::optional<Automorphisms> a = nauty().find(g);
  ASSERT_TRUE(a.has_value());
  EXPECT_DOUBLE_EQ(a->order, 2);
  for (const auto& gen : a->generators) EXPECT_TRUE(preserves(g, gen));
  const std::optional<Symmetry> s = Symmetry::automatic(sys, blocks, nauty());
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(SymmetryInspector::classes(*s), (std::vector<std::vector<std::uint32_t>>{{0, 2}}));
  EXPECT_EQ(s->group_size(), 2u);
  // Canonical form: the class's pcs sorted, the others where they are.
  const std::vector<std::uint16_t> in{2, 1, 0};
  std::vector<std::uint16_t> out(3);
  std::vector<std::uint32_t> perm(3);
  s->canonicalize(in, out, perm);
  EXPECT_EQ(out, (std::vector<std::uint16_t>{0, 1, 2}));
  EXPECT_EQ(perm, (std::vector<std::uint32_t>{2, 1, 0}));
}

// Two pairs (a signaller and its waiter each) are interchangeable only as pairs: the
// group nauty finds is {id, (0 1)(2 3)} and no generator swaps two processes alone, so
// no class is formed (sorting the pcs of 0 and 1 without 2 and 3 would merge states
// that are not images of each other); the pair swap is a coset of its own, and the
// canonical form is the lesser of the state and its image.
TEST(AutomaticSymmetry, ASwapOfPairsIsAnImageNotAClass) {
  System sys;
  sys.semas = {Semaphore{"a", 0, 0}, Semaphore{"b", 0, 0}, Semaphore{"c", 0, 0}, Semaphore{"d", 0, 0}};
  const auto proc = [](std::string name, SemaOp first, SemaOp second) {
    Process p;
    p.name = std::move(name);
    p.participant = true;
    p.program.push_back(Instr{Marker::None, first, 0});
    p.program.push_back(Instr{Marker::None, second, 0});
    return p;
  };
  sys.procs = {proc("signal0", {Prim::Inc, 0, 1, 0}, {Prim::WaitGe, 1, 1, 0}),
               proc("signal1", {Prim::Inc, 2, 1, 0}, {Prim::WaitGe, 3, 1, 0}),
               proc("wait0", {Prim::WaitGe, 0, 1, 0}, {Prim::Inc, 1, 1, 0}),
               proc("wait1", {Prim::WaitGe, 2, 1, 0}, {Prim::Inc, 3, 1, 0})};
  const std::vector<detail::AtomicBlocks> blocks = blocks_of(sys);
  const std::optional<Automorphisms> a = nauty().find(system_graph(sys, blocks));
  ASSERT_TRUE(a.has_value());
  EXPECT_DOUBLE_EQ(a->order, 2);
  ASSERT_EQ(a->generators.size(), 1u);
  EXPECT_EQ(std::vector<std::uint32_t>(a->generators[0].begin(), a->generators[0].begin() + 4),
            (std::vector<std::uint32_t>{1, 0, 3, 2}));
  const std::optional<Symmetry> s = Symmetry::automatic(sys, blocks, nauty());
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(SymmetryInspector::classes(*s).empty());
  EXPECT_EQ(SymmetryInspector::images(*s), (std::vector<std::vector<std::uint32_t>>{{0, 1, 2, 3}, {1, 0, 3, 2}}));
  EXPECT_EQ(s->group_size(), 2u);
  std::vector<std::uint16_t> out(4);
  std::vector<std::uint32_t> perm(4);
  s->canonicalize(std::vector<std::uint16_t>{1, 0, 0, 1}, out, perm);
  EXPECT_EQ(out, (std::vector<std::uint16_t>{0, 1, 1, 0}));
  EXPECT_EQ(perm, (std::vector<std::uint32_t>{1, 0, 3, 2}));
  s->canonicalize(std::vector<std::uint16_t>{0, 1, 1, 0}, out, perm);
  EXPECT_EQ(out, (std::vector<std::uint16_t>{0, 1, 1, 0}));
  EXPECT_EQ(perm, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  expect_canonical_on_orbits(*s, 4, 3);
}

// N processes in a ring, each signalling its successor and waiting for its predecessor:
// the automorphisms are the N rotations (an N-cycle generates them), no swap of two.  The
// search keeps one state per orbit: by Burnside, with N prime and F the states every
// rotation fixes (the constant ones, at most one per pc), N x orbits = S + (N - 1) F for
// the S states of the unreduced search.  Same verdict and kinds either way.
TEST(AutomaticSymmetry, ARingIsReducedByItsRotations) {
  constexpr std::uint32_t N = 7;
  System sys;
  for (std::uint32_t i = 0; i < N; ++i) sys.semas.push_back(Semaphore{"s" + std::to_string(i), 0, 0});
  for (std::uint32_t i = 0; i < N; ++i) {
    Process p;
    p.name = "p" + std::to_string(i);
    p.participant = true;
    p.program.push_back(Instr{Marker::None, SemaOp{Prim::Inc, i, 1, 0}, 0});
    p.program.push_back(Instr{Marker::None, SemaOp{Prim::WaitGe, (i + N - 1) % N, 1, 0}, 0});
    p.program.push_back(Instr{Marker::None, SemaOp{Prim::Inc, i, 1, 0}, 0});
    sys.procs.push_back(p);
  }
  const std::vector<detail::AtomicBlocks> blocks = blocks_of(sys);
  const std::optional<Symmetry> s = Symmetry::automatic(sys, blocks, nauty());
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(SymmetryInspector::classes(*s).empty());
  EXPECT_EQ(SymmetryInspector::images(*s).size(), N);
  EXPECT_EQ(s->group_size(), N);
  expect_canonical_on_orbits(*s, N, 4);
  CheckOptions o;
  o.collect_all = true;
  o.por = false;  // (partial-order reduction takes the ring to a handful of states)
  o.automorphisms = &nauty();
  const CheckResult reduced = check_explicit(sys, o);
  std::cout << "ring of " << N << ": " << reduced.search().states << " states, ";
  o.symmetry = false;
  const CheckResult whole = check_explicit(sys, o);
  std::cout << whole.search().states << " without the rotations\n";
  EXPECT_TRUE(reduced.search().symmetry_used);
  EXPECT_EQ(reduced.verdict, whole.verdict);
  EXPECT_EQ(reduced.found_mask, whole.found_mask);
  ASSERT_GT(whole.search().states, 3u * N);
  EXPECT_GE(reduced.search().states * N, whole.search().states);
  EXPECT_LE(reduced.search().states * N, whole.search().states + (N - 1) * 4) << "one state per orbit of the rotations";
  // The unreduced search is the plain reference the reductions are checked against: it
  // takes no symmetry even where, as here, every instruction is its own image.
  o.symmetry = true;
  o.reduce = false;
  const CheckResult plain = check_explicit(sys, o);
  EXPECT_FALSE(plain.search().symmetry_used);
  EXPECT_EQ(plain.verdict, whole.verdict);
}

// Two signallers, each with two interchangeable waiters, the groups interchangeable as
// wholes: S2 wr S2, of order 8.  The waiters make two classes; the generator that swaps the
// groups is an image of its own; the canonical form is one per orbit, and perm composes
// the image with the sort inside the classes.
TEST(AutomaticSymmetry, ClassesAndImagesTogether) {
  System sys;
  sys.semas = {Semaphore{"a", 0, 0}, Semaphore{"b", 0, 0}};
  for (std::uint32_t g = 0; g < 2; ++g) {
    for (int k = 0; k < 3; ++k) {
      Process p;
      p.name = (k == 0 ? "s" : "w") + std::to_string(g) + std::to_string(k);
      p.participant = true;
      p.program.push_back(Instr{Marker::None, k == 0 ? SemaOp{Prim::Inc, g, 2, 0} : SemaOp{Prim::WaitGe, g, 1, 0}, 0});
      p.program.push_back(Instr{Marker::None, SemaOp{Prim::Inc, g, 1, 0}, 0});
      sys.procs.push_back(p);
    }
  }
  const std::vector<detail::AtomicBlocks> blocks = blocks_of(sys);
  const std::optional<Symmetry> s = Symmetry::automatic(sys, blocks, nauty());
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(SymmetryInspector::classes(*s), (std::vector<std::vector<std::uint32_t>>{{1, 2}, {4, 5}}));
  ASSERT_EQ(SymmetryInspector::images(*s).size(), 2u);
  EXPECT_EQ(s->group_size(), 8u);
  const std::vector<std::uint32_t>& k = SymmetryInspector::images(*s)[1];
  EXPECT_EQ(k[0], 3u);
  EXPECT_EQ(k[3], 0u);
  expect_canonical_on_orbits(*s, 6, 3);
  // {1,1,0, 0,0,0}: the least image moves group 0 to group 1's place and sorts its waiters.
  std::vector<std::uint16_t> out(6);
  std::vector<std::uint32_t> perm(6);
  s->canonicalize(std::vector<std::uint16_t>{1, 1, 0, 0, 0, 0}, out, perm);
  EXPECT_EQ(out, (std::vector<std::uint16_t>{0, 0, 0, 1, 0, 1}));
  EXPECT_EQ(perm[0], 3u);
  EXPECT_EQ(perm[1], 5u) << "the waiter at pc 1 lands last in its class, after the sort";
}

// The swap's class {0, 1} is closed under the 3-cycle (which conjugates (0 1) to (1 2)):
// one class of three, no image beyond it, since the cycle is inside the class's group.
// Without the closure the class would stay {0, 1}, and its group would not be normal.
TEST(AutomaticSymmetry, TheClassesAreClosedUnderTheOtherGenerators) {
  const System sys = raise_then_wait({3, 3, 3});
  const Given finder({{1, 0, 2}, {1, 2, 0}});  // (0 1) and the 3-cycle (0 1 2)
  const std::optional<Symmetry> s = Symmetry::automatic(sys, blocks_of(sys), finder);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(SymmetryInspector::classes(*s), (std::vector<std::vector<std::uint32_t>>{{0, 1, 2}}));
  EXPECT_EQ(SymmetryInspector::images(*s).size(), 1u);
  EXPECT_EQ(s->group_size(), 6u);
  expect_canonical_on_orbits(*s, 3, 3);
}

// The order of the group these permutations of n points generate, by listing it.
std::uint64_t order_by_listing(const std::vector<std::vector<std::uint32_t>>& gens, std::uint32_t n) {
  std::vector<std::uint32_t> id(n);
  std::iota(id.begin(), id.end(), 0u);
  std::set<std::vector<std::uint32_t>> seen{id};
  std::vector<std::vector<std::uint32_t>> todo{id};
  while (!todo.empty()) {
    const std::vector<std::uint32_t> x = todo.back();
    todo.pop_back();
    for (const auto& k : gens) {
      std::vector<std::uint32_t> y(n);
      for (std::uint32_t p = 0; p < n; ++p) y[p] = k[x[p]];
      if (seen.insert(y).second) todo.push_back(y);
    }
  }
  return seen.size();
}

// Random generators (swaps and permutations moving more) on interchangeable processes:
// the group Symmetry::automatic keeps is the whole group they make (the classes' group
// times one image per coset, counted against the group listed element by element), every
// generator sends each class into one class, and the canonical form is one per orbit.
TEST(AutomaticSymmetry, TheGroupIsTheOneTheGeneratorsMake) {
  std::mt19937_64 rng(35);
  int with_classes_and_images = 0;
  const int trials = hand_made::kSanitized ? 60 : 200;
  for (int trial = 0; trial < trials; ++trial) {
    const std::uint32_t n = 3 + static_cast<std::uint32_t>(rng() % 4);
    std::vector<std::vector<std::uint32_t>> gens(1 + rng() % 3);
    for (auto& k : gens) {
      k.resize(n);
      std::iota(k.begin(), k.end(), 0u);
      std::vector<std::uint32_t> points(n);
      std::iota(points.begin(), points.end(), 0u);
      std::shuffle(points.begin(), points.end(), rng);
      switch (rng() % 3) {
        case 0:  // a swap of two
          std::swap(k[points[0]], k[points[1]]);
          break;
        case 1:  // two swaps at once (the pairs' swap of ASwapOfPairsIsAnImageNotAClass)
          std::swap(k[points[0]], k[points[1]]);
          if (n >= 4) std::swap(k[points[2]], k[points[3]]);
          break;
        default:
          std::shuffle(k.begin(), k.end(), rng);
      }
    }
    const System sys = raise_then_wait(std::vector<std::int64_t>(n, 2));
    const std::optional<Symmetry> s = Symmetry::automatic(sys, blocks_of(sys), Given(gens));
    const std::uint64_t order = order_by_listing(gens, n);
    if (!s) {
      EXPECT_EQ(order, 1u) << "trial " << trial << ": no symmetry from a group of " << order;
      continue;
    }
    EXPECT_EQ(s->group_size(), order) << "trial " << trial;
    std::vector<std::uint32_t> class_of(n, n);
    for (std::uint32_t c = 0; c < SymmetryInspector::classes(*s).size(); ++c) {
      for (std::uint32_t p : SymmetryInspector::classes(*s)[c]) class_of[p] = c;
    }
    for (const auto& k : gens) {
      for (const auto& c : SymmetryInspector::classes(*s)) {
        for (std::uint32_t p : c) {
          EXPECT_EQ(class_of[k[p]], class_of[k[c[0]]]) << "trial " << trial << ": a class split by a generator";
        }
      }
    }
    with_classes_and_images += !SymmetryInspector::classes(*s).empty() && SymmetryInspector::images(*s).size() > 1 ? 1 : 0;
    expect_canonical_on_orbits(*s, n, 3);
  }
  std::cout << with_classes_and_images << " of " << trials << " groups with both classes and images\n";
  EXPECT_GT(with_classes_and_images, trials / 20) << "the trials reach groups with both classes and images";
}

// Double swaps of disjoint pairs: (Z2)^m, no swap of two processes, so no class and 2^m
// cosets.  At 2^12 = kMaxImages every coset is an image; at 2^13 there are too many to
// try per state, and with no class there is no symmetry left to use.  The enumeration
// polls the deadline once an image and generator, so a large group is cut by the budget.
TEST(AutomaticSymmetry, AtMostKMaxImagesCosets) {
  const auto double_swaps = [](std::uint32_t m) {
    std::vector<std::vector<std::uint32_t>> gens(m);
    for (std::uint32_t i = 0; i < m; ++i) {
      gens[i].resize(4 * m);
      std::iota(gens[i].begin(), gens[i].end(), 0u);
      std::swap(gens[i][4 * i], gens[i][4 * i + 1]);
      std::swap(gens[i][4 * i + 2], gens[i][4 * i + 3]);
    }
    return gens;
  };
  static_assert(Symmetry::kMaxImages == 4096);
  const System sys12 = raise_then_wait(std::vector<std::int64_t>(48, 2));
  Deadline counting(1e9, [] { return 0.0; }, {}, /*cadence=*/1);
  const std::optional<Symmetry> s = Symmetry::automatic(sys12, blocks_of(sys12), Given(double_swaps(12)), nullptr, &counting);
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(SymmetryInspector::classes(*s).empty());
  EXPECT_EQ(SymmetryInspector::images(*s).size(), 4096u);
  EXPECT_EQ(s->group_size(), 4096u);
  EXPECT_GE(counting.reads(), 4096u * 12) << "a poll an image and generator";
  // Cut half-way (most reads are the enumeration's): no symmetry, and no read past the cut.
  const std::uint64_t half = counting.reads() / 2;
  std::uint64_t reads = 0;
  Deadline cut(1, [&] { return reads++ < half ? 0.0 : 2.0; }, {}, /*cadence=*/1);
  EXPECT_FALSE(Symmetry::automatic(sys12, blocks_of(sys12), Given(double_swaps(12)), nullptr, &cut).has_value());
  EXPECT_EQ(reads, half + 1) << "it stops at the first read past the cut";
  const System sys13 = raise_then_wait(std::vector<std::int64_t>(52, 2));
  EXPECT_FALSE(Symmetry::automatic(sys13, blocks_of(sys13), Given(double_swaps(13))).has_value());
  // A swap among them keeps its class, and the cosets are dropped: the class's group alone.
  std::vector<std::vector<std::uint32_t>> gens = double_swaps(13);
  gens.push_back(gens[0]);
  std::iota(gens.back().begin(), gens.back().end(), 0u);
  std::swap(gens.back()[0], gens.back()[1]);
  const std::optional<Symmetry> h = Symmetry::automatic(sys13, blocks_of(sys13), Given(gens));
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(SymmetryInspector::classes(*h), (std::vector<std::vector<std::uint32_t>>{{0, 1}}));
  EXPECT_EQ(SymmetryInspector::images(*h).size(), 1u);
  EXPECT_EQ(h->group_size(), 2u);
}

// nauty polls the deadline once a node of its search tree and stops when it expires:
// the finder then answers nothing, and the search says BUDGET.
TEST(AutomaticSymmetry, NautyStopsAtTheDeadline) {
  Scenario s;
  s.configs.assign(12, shipped_example());
  const Result<Lowered> l = build_system(s, 1);
  ASSERT_TRUE(l.ok());
  const ColouredGraph g = system_graph(l->system, blocks_of(l->system));
  Deadline counting(1e9, [] { return 0.0; }, {}, /*cadence=*/1);
  const std::optional<Automorphisms> whole = nauty().find(g, &counting);
  ASSERT_TRUE(whole.has_value());
  EXPECT_DOUBLE_EQ(whole->order, static_cast<double>(factorial(12)));
  const std::uint64_t nodes = counting.reads();
  EXPECT_GT(nodes, 10u) << "a read a node";
  for (std::uint64_t cut : {std::uint64_t{0}, nodes / 4, nodes / 2}) {  // (at the last node it has finished)
    std::uint64_t reads = 0;
    Deadline d(1, [&] { return reads++ < cut ? 0.0 : 2.0; }, {}, 1);
    EXPECT_FALSE(nauty().find(g, &d).has_value()) << "cut at node " << cut;
    EXPECT_LE(reads, cut + 2) << "nauty stops at the first node past the cut";
  }
  // A node is one unit of the deadline's work: at a cadence of 2, a read every other node.
  Deadline every_other(1e9, [] { return 0.0; }, {}, /*cadence=*/2);
  ASSERT_TRUE(nauty().find(g, &every_other).has_value());
  EXPECT_EQ(every_other.reads(), (nodes + 1) / 2);
  // Once stopped, the next call runs whole (the stop request is cleared).
  EXPECT_TRUE(nauty().find(g).has_value());
  CheckOptions o;
  o.automorphisms = &nauty();
  o.poll_cadence = 1;
  std::uint64_t reads = 0;
  o.clock = [&] { return reads++ < 3 ? 0.0 : 1e9; };
  const CheckResult cut = check_explicit(l->system, o);
  EXPECT_EQ(cut.verdict, Verdict::Budget);
  EXPECT_EQ(note_text(cut), "time budget exhausted while verifying the symmetry");
  // Symmetry::automatic polls beyond nauty's nodes: the graph once, and each generator's
  // check on the whole program (a read a process at cadence 1).
  Deadline whole_check(1e9, [] { return 0.0; }, {}, /*cadence=*/1);
  ASSERT_TRUE(Symmetry::automatic(l->system, blocks_of(l->system), nauty(), nullptr, &whole_check).has_value());
  EXPECT_GE(whole_check.reads(), nodes + 1 + whole->generators.size() * l->system.procs.size());
}

// The smallest graphs: none and one vertex have the trivial group and no generator;
// two uncoloured vertices alike swap, two of different colours do not.
TEST(AutomaticSymmetry, NautyOnTheSmallestGraphs) {
  for (const ColouredGraph& g : {ColouredGraph{}, ColouredGraph{{0}, {{}}, {}}, ColouredGraph{{0, 1}, {{}, {}}, {}}}) {
    const std::optional<Automorphisms> a = nauty().find(g);
    ASSERT_TRUE(a.has_value()) << g.size() << " vertices";
    EXPECT_TRUE(a->generators.empty()) << g.size() << " vertices";
    EXPECT_DOUBLE_EQ(a->order, 1) << g.size() << " vertices";
  }
  const std::optional<Automorphisms> pair = nauty().find(ColouredGraph{{0, 0}, {{}, {}}, {}});
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->generators, (std::vector<std::vector<std::uint32_t>>{{1, 0}}));
  EXPECT_DOUBLE_EQ(pair->order, 2);
}

// On composed systems the lowering's hints are a fast path of what the system has: the
// group the hints verify is a subgroup of the one nauty finds (its order divides it).
TEST(AutomaticSymmetry, TheHintsAreASubgroupOfTheSystemsAutomorphisms) {
  int checked = 0;
  for (const auto& [chips, leaders] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{1, 2}, {2, 2}, {4, 2}, {2, 4}, {8, 4}}) {
    for (Lowering low : {Lowering::Table, Lowering::Hierarchical}) {
      Scenario s;
      s.topo = Topology{chips, leaders, Fabric::Default, true, 2, Wiring::PerPeer, low};
      const Result<Lowered> l = build_system(s, s.topo.rounds);
      ASSERT_TRUE(l.ok());
      const std::vector<detail::AtomicBlocks> blocks = blocks_of(l->system);
      const std::optional<Symmetry> hinted = Symmetry::detect(l->system, l->hints, blocks);
      if (!hinted) continue;
      const std::optional<Automorphisms> a = nauty().find(system_graph(l->system, blocks));
      ASSERT_TRUE(a.has_value());
      EXPECT_LE(static_cast<double>(hinted->group_size()), a->order) << chips << "x" << leaders;
      EXPECT_EQ(std::fmod(a->order, static_cast<double>(hinted->group_size())), 0.0) << chips << "x" << leaders;
      ++checked;
    }
  }
  EXPECT_GT(checked, 4);
}

}  // namespace
}  // namespace neffbar::model
