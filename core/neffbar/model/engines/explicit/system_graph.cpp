#include "neffbar/model/engines/explicit/system_graph.h"

#include "neffbar/model/engines/explicit/bijection.h"

#include <algorithm>
#include <map>
#include <limits>
#include <vector>

namespace neffbar::model {
namespace {

// The kind, then the kind's fields: 0 = process, 1 = instruction, 2 = semaphore, 3 = a
// guarantee set, 4 = a member of one.
using Colour = std::vector<std::int64_t>;

// The graph as it is built: each vertex's colour and its edges one way.
struct Builder {
  std::vector<Colour> colours;
  std::vector<std::vector<std::uint32_t>> out;
  std::vector<std::int64_t> sema_vertex;

  std::uint32_t vertex(Colour c) {
    colours.push_back(std::move(c));
    out.emplace_back();
    return static_cast<std::uint32_t>(out.size() - 1);
  }

  std::uint32_t sema(const System& sys, std::uint32_t s) {
    auto& sv = sema_vertex.at(s);
    if (sv < 0) sv = vertex({2, sys.semas[s].initial});
    return static_cast<std::uint32_t>(sv);
  }

  // The body's atomic blocks from pc 0 (one cut at the body's end): inside a block the
  // order is not observable (is_automorphism compares each block as a multiset) unless
  // a semaphore repeats in it, so its instructions share the block's position.
  void body(const System& sys, std::uint32_t p, const detail::AtomicBlocks& blocks) {
    const std::vector<Instr>& body = sys.procs[p].program.body();
    const auto n = static_cast<std::uint32_t>(body.size());
    for (std::uint32_t start = 0; start < n;) {
      std::uint32_t end = blocks.end(start);
      end = std::clamp(end == kNone ? n : end, start + 1, n);
      std::vector<std::uint32_t> semas;
      for (std::uint32_t i = start; i < end; ++i) {
        if (body[i].marker == Marker::None) semas.push_back(body[i].op.sema);
      }
      std::sort(semas.begin(), semas.end());
      const bool ordered = std::adjacent_find(semas.begin(), semas.end()) != semas.end();
      for (std::uint32_t pc = start; pc < end; ++pc) {
        const Instr& in = body[pc];
        const bool op = in.marker == Marker::None;
        const std::uint32_t v = vertex({1, start, end, ordered ? pc : -1, static_cast<int>(in.marker),
                                        op ? static_cast<int>(in.op.prim) : -1, op ? in.op.value : 0,
                                        op ? in.op.dec : 0, in.round});
        out[p].push_back(v);
        if (!op) continue;
        const std::uint32_t sv = sema(sys, in.op.sema);  // may add a vertex: before out[v] is taken
        out[v].push_back(sv);
      }
      start = end;
    }
  }

  // A guarantee is a set: processes declaring the same set share its vertex S (p - S),
  // whose members hang off it through a vertex of their own (S - m - q), so membership
  // keeps its direction in an undirected graph and all-to-all guarantees cost P
  // vertices, not P^2.
  void guarantees(const System& sys) {
    const auto P = static_cast<std::uint32_t>(sys.procs.size());
    std::map<std::vector<std::uint32_t>, std::uint32_t> set_vertex;
    for (std::uint32_t p = 0; p < P; ++p) {
      std::vector<std::uint32_t> members;
      for (std::uint32_t q : sys.procs[p].guarantee) {
        if (q < P) members.push_back(q);
      }
      std::sort(members.begin(), members.end());
      members.erase(std::unique(members.begin(), members.end()), members.end());
      if (members.empty()) continue;
      auto [it, fresh] = set_vertex.try_emplace(members, 0);
      if (fresh) {
        it->second = vertex({3});
        for (std::uint32_t q : members) {
          const std::uint32_t m = vertex({4});
          out[it->second].push_back(m);
          out[m].push_back(q);
        }
      }
      out[p].push_back(it->second);
    }
  }

  // Colours as ranks among the distinct ones, and every edge both ways, sorted.
  ColouredGraph finish() && {
    ColouredGraph g;
    std::vector<Colour> sorted = colours;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    g.colour.reserve(colours.size());
    for (const Colour& c : colours) {
      g.colour.push_back(static_cast<std::uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), c) - sorted.begin()));
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> back;
    for (std::uint32_t v = 0; v < out.size(); ++v) {
      for (std::uint32_t w : out[v]) back.emplace_back(w, v);
    }
    for (const auto& [w, v] : back) out[w].push_back(v);
    for (auto& heads : out) {
      std::sort(heads.begin(), heads.end());
      heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
    }
    g.out = std::move(out);
    g.sema_vertex = std::move(sema_vertex);
    return g;
  }
};

}  // namespace

ColouredGraph system_graph(const System& sys, const std::vector<detail::AtomicBlocks>& blocks) {
  Builder b;
  b.sema_vertex.assign(sys.semas.size(), -1);
  for (const Process& p : sys.procs) {
    b.vertex({0, p.participant, static_cast<std::int64_t>(p.program.size()), p.program.repeat(),
              p.program.body_rounds()});
  }
  for (std::uint32_t p = 0; p < sys.procs.size(); ++p) b.body(sys, p, blocks.at(p));
  b.guarantees(sys);
  return std::move(b).finish();
}

bool preserves(const ColouredGraph& g, std::span<const std::uint32_t> perm) {
  const std::uint32_t n = g.size();
  if (!is_bijection(perm, n)) return false;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (g.colour[perm[v]] != g.colour[v]) return false;
  }
  std::vector<std::uint32_t> image;
  for (std::uint32_t v = 0; v < n; ++v) {
    image.clear();
    for (std::uint32_t w : g.out[v]) image.push_back(perm[w]);
    std::sort(image.begin(), image.end());
    if (image != g.out[perm[v]]) return false;
  }
  return true;
}

}  // namespace neffbar::model
