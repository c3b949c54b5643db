// The laws of config_diff: the diff names exactly the changed fields: each a typed
// input, its generator and its law (properties.h says how they are written and plugged
// in).
#pragma once

#include "law_prelude.h"

namespace neffbar::props {

// ------------------------------------------------------------------- config diff -----
// diff(a, a) is empty; a with some leaves set to new values differs from a in exactly
// those leaves, each with both values, in offset order, and the other way round mirrored.
struct LeafChange {
  std::uint32_t leaf = 0;  // index into config_leaves()
  std::uint64_t value = 0;
};
inline std::ostream& operator<<(std::ostream& os, const LeafChange& c) {
  return os << leaf_path(config_leaves()[c.leaf]) << " := " << c.value;
}
struct DiffInput {
  static constexpr bool kPropertyInput = true;
  ConfigBytes a;
  std::vector<LeafChange> changes;
};
inline DiffInput draw_diff(Source& s) {
  DiffInput in{draw_config_bytes(s), {}};
  const std::span<const Leaf> leaves = config_leaves();
  // The few leaves a diff is most likely to miss, one change in three: the gate byte's
  // bit-fields and the reserved bytes.
  static const std::vector<std::uint32_t> rare = [leaves] {
    std::vector<std::uint32_t> v;
    for (std::uint32_t i = 0; i < leaves.size(); ++i) {
      if (leaves[i].field->kind == Kind::Bits || leaves[i].field->name.starts_with("__")) v.push_back(i);
    }
    return v;
  }();
  in.changes.resize(s.below(6));
  for (LeafChange& c : in.changes) {
    c.leaf = s.weighted({2, 1}) == 1 ? rare[s.below(rare.size())] : static_cast<std::uint32_t>(s.below(leaves.size()));
    c.value = s.weighted({2, 1, 1}) == 0 ? s.any64() : s.below(4);  // anything, or small values that collide
  }
  return in;
}

using DiffFn = std::function<std::vector<FieldDiff>(const ConfigBytes&, const ConfigBytes&)>;

inline void config_diff_names_the_changed_fields(const DiffInput& in, const DiffFn& diff, Judge& j) {
  j.require(diff(in.a, in.a).empty(), "diff(a, a) is empty");
  ConfigBytes b = in.a;
  const std::span<const Leaf> leaves = config_leaves();
  for (const LeafChange& c : in.changes) set_leaf_value(b.data(), leaves[c.leaf], c.value);
  std::vector<const Leaf*> changed;  // the changed leaves whose value differs now, in offset order
  for (const Leaf& l : leaves) {
    if (leaf_value(b.data(), l) != leaf_value(in.a.data(), l)) changed.push_back(&l);
  }
  const std::vector<FieldDiff> d = diff(in.a, b), back = diff(b, in.a);
  j.require(d.size() == changed.size(), "diff(a, b) names exactly the changed fields");
  j.require(back.size() == d.size(), "diff(b, a) names as many fields");
  for (std::size_t i = 0; i < d.size(); ++i) {
    j.require(d[i].leaf == changed[i], "diff(a, b) names exactly the changed fields");
    j.require(d[i].a == leaf_value(in.a.data(), *changed[i]) && d[i].b == leaf_value(b.data(), *changed[i]),
              "each difference holds both values");
    j.require(back[i].leaf == d[i].leaf && back[i].a == d[i].b && back[i].b == d[i].a, "diff(b, a) mirrors diff(a, b)");
  }
  bool reserved = false, bits = false;
  for (const FieldDiff& f : d) {
    reserved = reserved || f.reserved();
    bits = bits || f.leaf->field->kind == Kind::Bits;
  }
  j.classify(reserved, "a reserved field changed");
  j.classify(bits, "a bit-field changed");
  j.classify(changed.size() < in.changes.size(), "a change that changed nothing (or the same leaf twice)");
}

}  // namespace neffbar::props
