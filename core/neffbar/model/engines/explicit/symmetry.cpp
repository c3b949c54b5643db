#include "neffbar/model/engines/explicit/symmetry.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "neffbar/model/engines/explicit/bijection.h"
#include "neffbar/model/engines/explicit/system_graph.h"

namespace neffbar::model {
namespace {

// One instruction as a comparable key (step/lane labels are not semantics).
using Key = std::tuple<int, int, std::int64_t, std::int64_t, std::int64_t, int>;
Key key_of(const Instr& in, std::int64_t sema) {
  return Key{static_cast<int>(in.marker), static_cast<int>(in.op.prim), in.marker == Marker::None ? sema : -1,
             in.op.value, in.op.dec, in.round};
}

// The semaphore renaming induced by a leader-slot permutation (slot k -> slot_map[k]).
std::optional<std::vector<std::int64_t>> sema_renaming(const System& sys, const SymmetryHints& lay,
                                                       const std::vector<std::uint32_t>& slot_map) {
  const std::uint32_t L = lay.leaders;
  std::map<std::pair<std::int32_t, std::uint32_t>, std::int64_t> where;
  for (std::size_t s = 0; s < sys.semas.size(); ++s) where[{lay.sema_slot[s], lay.sema_local[s]}] = static_cast<std::int64_t>(s);
  std::vector<std::int64_t> rho(sys.semas.size(), -1);
  for (std::size_t s = 0; s < sys.semas.size(); ++s) {
    const std::int32_t slot = lay.sema_slot[s];
    if (slot < 0) {
      rho[s] = static_cast<std::int64_t>(s);
      continue;
    }
    const std::uint32_t to_slot = slot_map[static_cast<std::size_t>(slot)];
    std::uint32_t local = lay.sema_local[s];
    for (const auto& [first, count] : lay.leader_indexed) {
      if (local >= first && local < first + count) {
        const std::uint32_t j = local - first;  // names leader j of the same chip
        if (j >= L) return std::nullopt;         // no such leader: nothing to rename it to
        local = first + slot_map[(static_cast<std::uint32_t>(slot) / L) * L + j] % L;
      }
    }
    const auto it = where.find({static_cast<std::int32_t>(to_slot), local});
    if (it == where.end()) return std::nullopt;
    rho[s] = it->second;
  }
  return rho;  // a bijection or not: is_automorphism() checks
}

}  // namespace

bool is_automorphism(const System& sys, const SymmetryHints& hints, std::span<const std::uint32_t> perm,
                     const std::vector<std::uint32_t>& slot_map,
                     const std::vector<detail::AtomicBlocks>& blocks, Deadline* deadline) {
  if (hints.sema_slot.size() != sys.semas.size()) return false;
  if (deadline && deadline->poll(sys.semas.size())) return false;
  const auto rho = sema_renaming(sys, hints, slot_map);
  return rho && is_automorphism(sys, perm, *rho, blocks, deadline);
}

bool is_automorphism(const System& sys, std::span<const std::uint32_t> perm, std::span<const std::int64_t> rho,
                     const std::vector<detail::AtomicBlocks>& blocks, Deadline* deadline) {
  const std::size_t P = sys.procs.size();
  if (!is_bijection(perm, P) || !is_bijection(rho, sys.semas.size())) return false;
  for (std::size_t s = 0; s < sys.semas.size(); ++s) {
    if (sys.semas[static_cast<std::size_t>(rho[s])].initial != sys.semas[s].initial) return false;
  }
  for (std::size_t p = 0; p < P; ++p) {
    if (deadline && deadline->poll(sys.procs[p].program.size() + 1)) return false;
    const Process& a = sys.procs[p];
    const Process& b = sys.procs[perm[p]];
    if (a.program.size() != b.program.size() || a.participant != b.participant) return false;
    // Block by block: the same boundaries, and the same multiset of instructions once
    // renamed (the order inside an atomic block of movers is not observable) -- unless
    // a semaphore repeats inside the block, where the order is compared too.
    for (std::size_t pc = 0; pc < a.program.size();) {
      const std::uint32_t end = blocks.at(p).end(static_cast<std::uint32_t>(pc));
      if (blocks.at(perm[p]).end(static_cast<std::uint32_t>(pc)) != end) return false;
      std::vector<Key> mine, image;
      std::vector<std::int64_t> semas;
      for (std::size_t i = pc; i < end; ++i) {
        const Instr& x = a.program[i];
        const std::int64_t mapped = x.marker == Marker::None ? rho[x.op.sema] : -1;
        mine.push_back(key_of(x, mapped));
        image.push_back(key_of(b.program[i], b.program[i].marker == Marker::None ? b.program[i].op.sema : -1));
        if (x.marker == Marker::None) semas.push_back(x.op.sema);
      }
      std::sort(semas.begin(), semas.end());
      if (std::adjacent_find(semas.begin(), semas.end()) == semas.end()) {
        std::sort(mine.begin(), mine.end());
        std::sort(image.begin(), image.end());
      }
      if (mine != image) return false;
      pc = end;
    }
    std::vector<std::uint32_t> g;
    for (std::uint32_t q : a.guarantee) g.push_back(q < perm.size() ? perm[q] : q);
    std::vector<std::uint32_t> h = b.guarantee;
    std::sort(g.begin(), g.end());
    std::sort(h.begin(), h.end());
    if (g != h) return false;
  }
  return true;
}

std::optional<Symmetry> Symmetry::detect(const System& sys, const SymmetryHints& lay,
                                         const std::vector<detail::AtomicBlocks>& blocks, Deadline* deadline) {
  const std::uint32_t C = lay.chips, L = lay.leaders;
  if (C == 0 || L == 0 || lay.leader_proc.size() != std::size_t{C} * L) return std::nullopt;
  if (!lay.proxy_proc.empty() && lay.proxy_proc.size() != std::size_t{C} * L) return std::nullopt;
  // Hints are claims: malformed ones (indices out of range, a process in two columns,
  // semaphores of unknown slots) mean no symmetry, never a read out of bounds.
  const auto P = static_cast<std::int64_t>(sys.procs.size());
  std::vector<bool> used(sys.procs.size(), false);
  for (const auto* v : {&lay.leader_proc, &lay.proxy_proc}) {
    for (std::int32_t p : *v) {
      if (p < 0 && v == &lay.proxy_proc) continue;
      if (p < 0 || p >= P || used[static_cast<std::size_t>(p)]) return std::nullopt;
      used[static_cast<std::size_t>(p)] = true;
    }
  }
  if (lay.sema_slot.size() != sys.semas.size() || lay.sema_local.size() != sys.semas.size()) return std::nullopt;
  for (std::int32_t slot : lay.sema_slot) {
    if (slot >= static_cast<std::int32_t>(C * L)) return std::nullopt;
  }
  Symmetry s;
  s.procs_ = static_cast<std::uint32_t>(sys.procs.size());
  s.chips_ = C;
  s.leaders_ = L;
  s.leader_proc_ = lay.leader_proc;
  s.proxy_proc_ = lay.proxy_proc.empty() ? std::vector<std::int32_t>(std::size_t{C} * L, -1) : lay.proxy_proc;

  std::vector<std::uint32_t> slot_map(std::size_t{C} * L);
  auto perm_of = [&](auto&& slot_of) {  // slot_of(c, l) -> (c', l')
    std::vector<std::uint32_t> perm(s.procs_);
    std::iota(perm.begin(), perm.end(), 0u);
    for (std::uint32_t c = 0; c < C; ++c) {
      for (std::uint32_t l = 0; l < L; ++l) {
        const auto [c2, l2] = slot_of(c, l);
        slot_map[c * L + l] = c2 * L + l2;
        perm[static_cast<std::size_t>(s.leader_proc_[c * L + l])] = static_cast<std::uint32_t>(s.leader_proc_[c2 * L + l2]);
        const std::int32_t px = s.proxy_proc_[c * L + l];
        const std::int32_t py = s.proxy_proc_[c2 * L + l2];
        if ((px < 0) != (py < 0)) return std::vector<std::uint32_t>{};
        if (px >= 0) perm[static_cast<std::size_t>(px)] = static_cast<std::uint32_t>(py);
      }
    }
    return perm;
  };
  // Leader renamings: the adjacent transpositions generate every permutation.
  for (std::uint32_t l = 0; l + 1 < L; ++l) {
    const auto perm = perm_of([l](std::uint32_t c, std::uint32_t j) {
      return std::pair{c, j == l ? l + 1 : j == l + 1 ? l : j};
    });
    if (perm.empty() || !is_automorphism(sys, lay, perm, slot_map, blocks, deadline)) return std::nullopt;
  }
  // Chip translations, each verified (there are at most C of them).
  for (std::uint32_t t = 0; t < C; ++t) {
    bool closed = true;
    for (std::uint32_t c = 0; c < C; ++c) closed = closed && (c ^ t) < C;
    if (!closed) continue;
    const auto perm = perm_of([t](std::uint32_t c, std::uint32_t j) { return std::pair{c ^ t, j}; });
    if (deadline && deadline->expired()) return std::nullopt;
    if (t == 0 || (!perm.empty() && is_automorphism(sys, lay, perm, slot_map, blocks, deadline))) s.translations_.push_back(t);
  }
  if (L == 1 && s.translations_.size() == 1) return std::nullopt;  // trivial group
  return s;
}

std::optional<Symmetry> Symmetry::automatic(const System& sys, const std::vector<detail::AtomicBlocks>& blocks,
                                            const AutomorphismFinder& finder, double* found_order, Deadline* deadline) {
  const ColouredGraph g = system_graph(sys, blocks);
  if (deadline && deadline->poll(g.size())) return std::nullopt;
  const std::optional<Automorphisms> aut = finder.find(g, deadline);
  if (!aut) return std::nullopt;
  if (found_order) *found_order = aut->order;
  const auto P = static_cast<std::uint32_t>(sys.procs.size());
  std::vector<std::int64_t> sema_at(g.size(), -1);  // vertex -> its semaphore
  for (std::size_t s = 0; s < g.sema_vertex.size(); ++s) {
    if (g.sema_vertex[s] >= 0) sema_at[static_cast<std::size_t>(g.sema_vertex[s])] = static_cast<std::int64_t>(s);
  }
  // Interchangeable processes: a union-find over the generators that swap two of them.
  std::vector<std::uint32_t> root(P);
  std::iota(root.begin(), root.end(), 0u);
  const auto find = [&](std::uint32_t x) {
    while (root[x] != x) x = root[x] = root[root[x]];
    return x;
  };
  std::vector<std::vector<std::uint32_t>> others;  // the generators that move more than two
  for (const std::vector<std::uint32_t>& gen : aut->generators) {
    if (gen.size() != g.size()) return std::nullopt;
    const std::span<const std::uint32_t> perm(gen.data(), P);
    std::vector<std::int64_t> rho(sys.semas.size());
    for (std::size_t s = 0; s < rho.size(); ++s) {  // a semaphore no instruction names stays
      const std::int64_t v = g.sema_vertex[s];
      rho[s] = v < 0 ? static_cast<std::int64_t>(s) : sema_at[gen[static_cast<std::size_t>(v)]];
      if (rho[s] < 0) return std::nullopt;
    }
    if (!is_automorphism(sys, perm, rho, blocks, deadline)) return std::nullopt;
    std::vector<std::uint32_t> moved;
    for (std::uint32_t p = 0; p < P && moved.size() <= 2; ++p) {
      if (perm[p] != p) moved.push_back(p);
    }
    if (moved.size() == 2) {
      root[find(moved[0])] = find(moved[1]);
    } else if (moved.size() > 2) {
      others.emplace_back(perm.begin(), perm.end());
    }
  }
  // k (a b) k^-1 = (k(a) k(b)): the classes closed under the other generators.
  for (bool grew = true; grew;) {
    grew = false;
    for (const std::vector<std::uint32_t>& k : others) {
      for (std::uint32_t p = 0; p < P; ++p) {
        const std::uint32_t a = find(k[p]), b = find(k[find(p)]);
        if (a != b) {
          root[a] = b;
          grew = true;
        }
      }
    }
  }
  Symmetry s;
  s.automatic_ = true;
  s.procs_ = P;
  std::vector<std::vector<std::uint32_t>> by_root(P);
  for (std::uint32_t p = 0; p < P; ++p) by_root[find(p)].push_back(p);
  for (auto& c : by_root) {
    if (c.size() < 2) continue;
    s.classes_.push_back(std::move(c));
  }
  // The cosets of H in HK, each by one element: k and k' share a coset when they send every
  // process into the same class (k^-1 k' then keeps every class, so it is in H).
  const auto coset_key = [&](const std::vector<std::uint32_t>& k) {
    std::vector<std::uint32_t> key(P);
    for (std::uint32_t p = 0; p < P; ++p) key[p] = find(k[p]);
    return key;
  };
  std::vector<std::uint32_t> id(P);
  std::iota(id.begin(), id.end(), 0u);
  std::set<std::vector<std::uint32_t>> seen{coset_key(id)};
  s.images_.push_back(id);
  for (std::size_t i = 0; i < s.images_.size() && s.images_.size() <= kMaxImages; ++i) {
    for (const std::vector<std::uint32_t>& k : others) {
      std::vector<std::uint32_t> next(P);
      for (std::uint32_t p = 0; p < P; ++p) next[p] = k[s.images_[i][p]];
      if (deadline && deadline->poll(P)) return std::nullopt;
      if (seen.insert(coset_key(next)).second) s.images_.push_back(std::move(next));
    }
  }
  if (s.images_.size() > kMaxImages) s.images_.resize(1);  // too many to try per state: H alone
  if (s.classes_.empty() && s.images_.size() == 1) return std::nullopt;
  return s;
}

std::uint64_t Symmetry::group_size() const {
  if (automatic_) {  // |H| (the product of the classes' factorials) times the cosets, saturated
    std::uint64_t f = images_.size();
    for (const auto& c : classes_) {
      for (std::uint64_t i = 2; i <= c.size(); ++i) {
        if (__builtin_mul_overflow(f, i, &f)) return UINT64_MAX;
      }
    }
    return f;
  }
  std::uint64_t f = 1;
  for (std::uint32_t i = 2; i <= leaders_; ++i) f *= i;
  return f * translations_.size();
}

void Symmetry::canonicalize(std::span<const std::uint16_t> in, std::span<std::uint16_t> out,
                            std::span<std::uint32_t> perm) const {
  if (automatic_) {  // the least image: moved by k, then each class's pcs sorted
    auto& best = best_;
    auto& cand = cand_;
    auto& best_perm = best_perm_;
    auto& sigma = cand_perm_;
    best.resize(procs_);
    cand.resize(procs_);
    sigma.resize(procs_);
    for (std::size_t i = 0; i < images_.size(); ++i) {
      const std::vector<std::uint32_t>& k = images_[i];
      for (std::uint32_t p = 0; p < procs_; ++p) cand[k[p]] = in[p];
      sort_classes(cand, sigma);
      if (i == 0 || cand < best) {
        best.swap(cand);
        best_perm.resize(procs_);
        for (std::uint32_t p = 0; p < procs_; ++p) best_perm[p] = sigma[k[p]];
      }
    }
    std::copy(best.begin(), best.end(), out.begin());
    std::copy(best_perm.begin(), best_perm.end(), perm.begin());
    return;
  }
  const std::uint32_t C = chips_, L = leaders_;
  const std::uint32_t rows = 2 * C;  // leader pc and proxy pc per chip
  auto& best = best_;
  auto& cand = cand_;
  auto& cols = cols_;
  auto& best_perm = best_perm_;
  auto& cand_perm = cand_perm_;
  auto& order = order_;
  best.assign(in.begin(), in.end());
  cand.assign(in.begin(), in.end());
  best_perm.resize(procs_);
  cand_perm.resize(procs_);
  cols.resize(std::size_t{L} * rows);
  order.resize(L);
  bool have = false;
  for (std::uint32_t t : translations_) {
    // Column l of the translated state: for chip c, the pcs of (c ^ t, l).
    for (std::uint32_t l = 0; l < L; ++l) {
      for (std::uint32_t c = 0; c < C; ++c) {
        const std::uint32_t src = (c ^ t) * L + l;
        const std::int32_t px = proxy_proc_[src];
        cols[l * rows + 2 * c] = in[static_cast<std::size_t>(leader_proc_[src])];
        cols[l * rows + 2 * c + 1] = px >= 0 ? in[static_cast<std::size_t>(px)] : 0;
      }
    }
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return std::lexicographical_compare(cols.begin() + a * rows, cols.begin() + (a + 1) * rows,
                                          cols.begin() + b * rows, cols.begin() + (b + 1) * rows);
    });
    std::copy(in.begin(), in.end(), cand.begin());
    std::iota(cand_perm.begin(), cand_perm.end(), 0u);
    for (std::uint32_t j = 0; j < L; ++j) {
      const std::uint32_t l = order[j];  // column l lands in slot j
      for (std::uint32_t c = 0; c < C; ++c) {
        const std::uint32_t src = (c ^ t) * L + l;
        const std::uint32_t dst = c * L + j;
        const auto sp = static_cast<std::size_t>(leader_proc_[src]);
        const auto dp = static_cast<std::size_t>(leader_proc_[dst]);
        cand[dp] = in[sp];
        cand_perm[sp] = static_cast<std::uint32_t>(dp);
        if (proxy_proc_[src] >= 0) {
          const auto sx = static_cast<std::size_t>(proxy_proc_[src]);
          const auto dx = static_cast<std::size_t>(proxy_proc_[dst]);
          cand[dx] = in[sx];
          cand_perm[sx] = static_cast<std::uint32_t>(dx);
        }
      }
    }
    if (!have || cand < best) {
      best = cand;
      best_perm = cand_perm;
      have = true;
    }
  }
  std::copy(best.begin(), best.end(), out.begin());
  std::copy(best_perm.begin(), best_perm.end(), perm.begin());
}

// Each class's pcs sorted in place (members keep their order among equal pcs); sigma[q] =
// where the pc at q went.
void Symmetry::sort_classes(std::span<std::uint16_t> pcs, std::span<std::uint32_t> sigma) const {
  std::iota(sigma.begin(), sigma.end(), 0u);
  auto& order = order_;
  auto& vals = cols_;
  for (const std::vector<std::uint32_t>& c : classes_) {
    order.assign(c.begin(), c.end());
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return pcs[a] < pcs[b]; });
    vals.resize(c.size());
    for (std::size_t j = 0; j < c.size(); ++j) vals[j] = pcs[order[j]];
    for (std::size_t j = 0; j < c.size(); ++j) {
      pcs[c[j]] = vals[j];
      sigma[order[j]] = c[j];
    }
  }
}

}  // namespace neffbar::model
