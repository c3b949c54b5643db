// Driver contexts compared (context_diff.h).
#include "neffbar/context_diff.h"

#include <algorithm>
#include <array>

#include "neffbar/bytes.h"
#include "neffbar/driver_context.h"
#include "neffbar/hex.h"

namespace neffbar {
namespace {

using namespace ctx_layout;

// Provenance: core/neffbar/README.md "The driver context" (libnrt @0x234a90 for the
// flag, @0x240d40 for the count and the SP records).  The count's offset is OBSERVED,
// its u32 width ASSUMED: the field is only as sure as its width.
constexpr std::array<ContextField, 2 + kMaxLeaders> kFields{{
    {"leader_count", kLeaderCount, 4, Tag::Assumed},
    {"host_cc", kHostCc, 1, Tag::Observed},
    {"sp[0].sema_base", kSpSemaBase + 0 * kSpStride, 8, Tag::Observed},
    {"sp[1].sema_base", kSpSemaBase + 1 * kSpStride, 8, Tag::Observed},
    {"sp[2].sema_base", kSpSemaBase + 2 * kSpStride, 8, Tag::Observed},
    {"sp[3].sema_base", kSpSemaBase + 3 * kSpStride, 8, Tag::Observed},
}};
static_assert(kMaxLeaders == 4, "one sp[i].sema_base row per leader SP");

std::optional<std::uint64_t> value_at(std::span<const std::uint8_t> blob, const ContextField& f) {
  if (blob.size() < f.offset + f.size) return std::nullopt;
  return load_le(blob.data() + f.offset, f.size);
}

std::string value_text(const ContextField& f, const std::optional<std::uint64_t>& v) {
  if (!v) return "(absent)";
  return f.size == 8 ? hex(*v) : std::to_string(*v);
}

const ContextField* field_holding(std::size_t offset) {
  for (const ContextField& f : kFields) {
    if (offset >= f.offset && offset < f.offset + f.size) return &f;
  }
  return nullptr;
}

}  // namespace

std::span<const ContextField> context_fields() { return kFields; }

std::string ContextDiff::line() const {
  if (field != nullptr) {
    return hex(offset) + " " + std::string(field->name) + ": " + value_text(*field, a) + " -> " + value_text(*field, b) +
           " (" + std::string(tag_name(field->tag)) + ")";
  }
  return hex(offset) + ".." + hex(offset + length - 1) + ": " + std::to_string(length) + (length == 1 ? " byte differs" : " bytes differ");
}

std::vector<ContextDiff> diff_contexts(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  std::vector<ContextDiff> out;
  const std::size_t end = std::max(a.size(), b.size());
  const auto differs = [&](std::size_t i) { return i >= a.size() || i >= b.size() || a[i] != b[i]; };
  // A known field is one difference, whole, where either blob holds it whole; where
  // neither does (both cut short inside it), its bytes are a run like any other.
  const auto field_at = [&](std::size_t i) -> const ContextField* {
    const ContextField* f = field_holding(i);
    return f != nullptr && (value_at(a, *f) || value_at(b, *f)) ? f : nullptr;
  };
  for (std::size_t i = 0; i < end;) {
    if (const ContextField* f = field_at(i)) {
      const std::optional<std::uint64_t> x = value_at(a, *f), y = value_at(b, *f);
      bool any = false;
      for (std::size_t k = f->offset; k < f->offset + f->size && k < end; ++k) any = any || differs(k);
      if (any) out.push_back(ContextDiff{f->offset, f->size, f, x, y});
      i = f->offset + f->size;
      continue;
    }
    if (!differs(i)) {
      ++i;
      continue;
    }
    const std::size_t from = i;
    while (i < end && differs(i) && field_at(i) == nullptr) ++i;
    out.push_back(ContextDiff{from, i - from, nullptr, std::nullopt, std::nullopt});
  }
  return out;
}

std::optional<std::size_t> first_difference(std::string_view a, std::string_view b) {
  const auto [pa, pb] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  if (pa == a.end() && pb == b.end()) return std::nullopt;
  return static_cast<std::size_t>(pa - a.begin());
}

}  // namespace neffbar
