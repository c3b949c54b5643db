#include "neffbar/schema.h"

#include "neffbar/bytes.h"

#include <vector>

namespace neffbar {
namespace {

void collect(const StructSchema& s, std::uint32_t base, std::uint8_t step, std::vector<Leaf>& out) {
  const bool is_steps = &s == &kDeviceSchema;
  for (const Field& f : s.fields) {
    for (std::uint32_t k = 0; k < f.count; ++k) {
      const std::uint32_t off = base + f.offset + k * f.elem_size();
      if (f.kind == Kind::Struct) {
        const bool step_array = is_steps && f.sub == &kStepSchema;
        collect(*f.sub, off, step_array ? static_cast<std::uint8_t>(k) : step, out);
      } else {
        out.push_back(Leaf{&f, off, step, static_cast<std::uint8_t>(k)});
      }
    }
  }
}

// Path segments for a leaf: walk the schema again, choosing the field that covers it.
void path_of(const StructSchema& s, std::uint32_t base, const Leaf& leaf, std::string& out) {
  for (const Field& f : s.fields) {
    const std::uint32_t start = base + f.offset;
    if (leaf.offset < start || leaf.offset >= start + f.size) continue;
    if (f.kind == Kind::Bits && &f != leaf.field) continue;
    if (!out.empty()) out += '.';
    out += f.name;
    const std::uint32_t k = (leaf.offset - start) / f.elem_size();
    if (f.is_array()) out += "[" + std::to_string(k) + "]";
    if (f.kind == Kind::Struct) path_of(*f.sub, start + k * f.elem_size(), leaf, out);
    return;
  }
}

}  // namespace

std::span<const Leaf> config_leaves() {
  static const std::vector<Leaf> leaves = [] {
    std::vector<Leaf> v;
    collect(kConfigSchema, 0, 0xFF, v);
    return v;
  }();
  return leaves;
}

std::string leaf_path(const Leaf& leaf) {
  std::string out;
  path_of(kConfigSchema, 0, leaf, out);
  return out;
}

void set_leaf_value(std::uint8_t* img, const Leaf& l, std::uint64_t v) {
  const Field& f = *l.field;
  if (f.kind == Kind::Bits) {
    const auto mask = static_cast<std::uint8_t>(f.max_value() << f.bit_shift);
    img[l.offset] = static_cast<std::uint8_t>((img[l.offset] & ~mask) | ((v << f.bit_shift) & mask));
  } else {
    store_le(img + l.offset, f.elem_size(), v);
  }
}

const Leaf* leaf_at(std::uint32_t offset) {
  for (const Leaf& l : config_leaves()) {
    if (offset >= l.offset && offset < l.offset + l.field->elem_size()) return &l;
  }
  return nullptr;
}

}  // namespace neffbar
