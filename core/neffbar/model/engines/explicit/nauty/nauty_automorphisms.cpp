#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"

#include <nauty/nausparse.h>

#include <cmath>
#include <numeric>
#include <vector>

namespace neffbar::model {
namespace {

// nauty reports generators through a plain function pointer; its storage is
// thread-local in Debian's build (HAVE_TLS), and so is this collector.
thread_local std::vector<std::vector<std::uint32_t>>* collected = nullptr;
thread_local Deadline* deadline_now = nullptr;

extern "C" void collect_generator(int /*count*/, int* perm, int* /*orbits*/, int /*numorbits*/, int /*stabvertex*/,
                                  int n) {
  if (collected) collected->emplace_back(perm, perm + n);
}

// Once a node of nauty's search tree: an expired deadline asks nauty to stop
// (nauty_kill_request: it returns with errstatus NAUABORTED).
extern "C" void poll_deadline(graph* /*g*/, int* /*lab*/, int* /*ptn*/, int /*level*/, int /*numcells*/, int /*tc*/,
                              int /*code*/, int /*m*/, int /*n*/) {
  if (deadline_now && deadline_now->poll(1)) nauty_kill_request = 1;
}

class Nauty final : public AutomorphismFinder {
 public:
  [[nodiscard]] std::string_view name() const override { return "nauty " NAUTYVERSION; }
  [[nodiscard]] std::optional<Automorphisms> find(const ColouredGraph& g, Deadline* deadline) const override {
    const int n = static_cast<int>(g.size());
    if (n == 0) return Automorphisms{};
    std::vector<std::size_t> v(static_cast<std::size_t>(n));
    std::vector<int> d(static_cast<std::size_t>(n)), e;
    for (int i = 0; i < n; ++i) {
      v[static_cast<std::size_t>(i)] = e.size();
      d[static_cast<std::size_t>(i)] = static_cast<int>(g.out[static_cast<std::size_t>(i)].size());
      for (std::uint32_t w : g.out[static_cast<std::size_t>(i)]) e.push_back(static_cast<int>(w));
    }
    // nauty's sparse graph, whole in one initialiser; w (edge weights) stays NULL: nauty
    // implements none.  Without a canonical form asked for, nauty reads only nv, v, d and e.
    sparsegraph sg{.nde = e.size(), .v = v.data(), .nv = n, .d = d.data(), .e = e.data(), .w = nullptr,
                   .vlen = v.size(), .dlen = d.size(), .elen = e.size(), .wlen = 0};
    // The colouring as nauty's partition: vertices in colour order, a cell per colour.
    std::vector<int> lab(static_cast<std::size_t>(n)), ptn(static_cast<std::size_t>(n)), orbits(static_cast<std::size_t>(n));
    std::iota(lab.begin(), lab.end(), 0);
    std::stable_sort(lab.begin(), lab.end(), [&](int a, int b) {
      return g.colour[static_cast<std::size_t>(a)] < g.colour[static_cast<std::size_t>(b)];
    });
    for (int i = 0; i < n; ++i) {
      const bool last = i + 1 == n || g.colour[static_cast<std::size_t>(lab[static_cast<std::size_t>(i)])] !=
                                          g.colour[static_cast<std::size_t>(lab[static_cast<std::size_t>(i) + 1])];
      ptn[static_cast<std::size_t>(i)] = last ? 0 : 1;
    }
    DEFAULTOPTIONS_SPARSEGRAPH(options);
    options.defaultptn = FALSE;  // options.digraph stays FALSE: system_graph() is undirected, as nauty's refinement wants
    options.userautomproc = collect_generator;
    options.usernodeproc = poll_deadline;
    statsblk stats;
    Automorphisms result;
    collected = &result.generators;
    deadline_now = deadline;
    sparsenauty(&sg, lab.data(), ptn.data(), orbits.data(), &options, &stats, nullptr);
    collected = nullptr;
    deadline_now = nullptr;
    nauty_kill_request = 0;
    if (stats.errstatus != 0) return std::nullopt;
    result.order = stats.grpsize1 * std::pow(10.0, stats.grpsize2);
    return result;
  }
};

}  // namespace

const AutomorphismFinder* nauty_automorphisms() {
  static const Nauty finder;
  return &finder;
}

void use_nauty_automorphisms() { set_default_automorphisms(nauty_automorphisms()); }

}  // namespace neffbar::model
