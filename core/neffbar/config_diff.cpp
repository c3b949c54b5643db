#include "neffbar/config_diff.h"

#include "neffbar/hex.h"

namespace neffbar {

bool FieldDiff::reserved() const { return leaf->field->name.starts_with("__"); }

std::string field_text(const Field& f, std::uint64_t v) {
  if (f.kind == Kind::Addr) {
    std::string s = "0x";
    for (int i = 15; i >= 0; --i) s += kHexDigits[(v >> (4 * i)) & 0xF];
    return s;
  }
  return std::to_string(v);
}

std::string FieldDiff::line() const {
  const Field& f = *leaf->field;
  return hex(leaf->offset) + " " + leaf_path(*leaf) + ": " + field_text(f, a) + " -> " + field_text(f, b) + " (" +
         (reserved() ? "reserved, " : "") + std::string(tag_name(f.tag)) + ")";
}

std::vector<FieldDiff> diff_configs(const ConfigBytes& a, const ConfigBytes& b) {
  std::vector<FieldDiff> out;
  for (const Leaf& l : config_leaves()) {
    const std::uint64_t x = field_value(a.data() + l.offset, *l.field);
    const std::uint64_t y = field_value(b.data() + l.offset, *l.field);
    if (x != y) out.push_back(FieldDiff{&l, x, y});
  }
  return out;
}

}  // namespace neffbar
