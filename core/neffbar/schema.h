// The one description of the neff_barrier_configs_t byte layout (core/neffbar/README.md "Layout"; the IDA types of
// libnrt).  Codec, JSON log, JSON reader, lint, mutators and generators walk these
// tables; nothing else hard-codes an offset.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace neffbar {

// How a field's bytes are interpreted.
enum class Kind : std::uint8_t {
  U8,      // %hhu
  U16,     // %hu
  U32,     // %u
  Addr,    // u64 soc_addr, logged as {"addr":{"soc_addr":"0x%016lX"}}
  Bits,    // bit_width bits at bit_shift of one byte
  Struct,  // a nested StructSchema (sub)
};

// How a fact is known (core/neffbar/README.md): OBSERVED in a disassembly or dump, INFERRED from
// what was observed, ASSUMED where the binaries say nothing.
enum class Tag : std::uint8_t { Observed, Inferred, Assumed };

constexpr std::string_view tag_name(Tag t) {
  return t == Tag::Observed ? "OBSERVED" : t == Tag::Inferred ? "INFERRED" : "ASSUMED";
}

// How the logger prints a value.
enum class Style : std::uint8_t { Number, Addr, Pointer /* %p of a bool: "0x1" / "(nil)" */, Object };

struct StructSchema;

struct Field {
  std::string_view name;   // also the JSON key
  std::uint32_t offset;    // within the enclosing struct
  std::uint32_t size;      // total bytes (elements * element size); 1 for Bits
  Kind kind;
  std::uint32_t count;     // 1 for a scalar, N for an array
  bool logged;             // printed by the original libncfw logger (default log)
  Tag tag;
  const StructSchema* sub = nullptr;  // Kind::Struct only
  std::uint8_t bit_shift = 0;         // Kind::Bits only
  std::uint8_t bit_width = 0;         // Kind::Bits only

  [[nodiscard]] constexpr std::uint32_t elem_size() const { return size / count; }
  [[nodiscard]] constexpr bool is_array() const { return count > 1; }
  [[nodiscard]] constexpr Style style() const {
    if (kind == Kind::Addr) return Style::Addr;
    if (kind == Kind::Struct) return Style::Object;
    if (kind == Kind::Bits && bit_width == 1 && logged) return Style::Pointer;  // C6
    return Style::Number;
  }
  [[nodiscard]] constexpr std::uint64_t max_value() const {
    switch (kind) {
      case Kind::U8: return 0xFF;
      case Kind::U16: return 0xFFFF;
      case Kind::U32: return 0xFFFF'FFFF;
      case Kind::Addr: return ~std::uint64_t{0};
      case Kind::Bits: return (std::uint64_t{1} << bit_width) - 1;
      case Kind::Struct: return 0;
    }
    return 0;
  }
};

struct StructSchema {
  std::string_view name;  // IDA type name
  std::uint32_t size;
  std::span<const Field> fields;  // in declaration (= offset) order
};

namespace schema_detail {
consteval Field scalar(std::string_view n, std::uint32_t off, Kind k, bool logged = true,
                       Tag t = Tag::Observed) {
  const std::uint32_t sz = k == Kind::U8 ? 1 : k == Kind::U16 ? 2 : k == Kind::U32 ? 4 : 8;
  return Field{n, off, sz, k, 1, logged, t};
}
consteval Field array(std::string_view n, std::uint32_t off, Kind k, std::uint32_t count,
                      bool logged = true, Tag t = Tag::Observed) {
  Field f = scalar(n, off, k, logged, t);
  f.size *= count;
  f.count = count;
  return f;
}
consteval Field nested(std::string_view n, std::uint32_t off, const StructSchema& s,
                       std::uint32_t count = 1) {
  return Field{n, off, s.size * count, Kind::Struct, count, true, Tag::Observed, &s};
}
consteval Field bits(std::string_view n, std::uint32_t off, std::uint8_t shift,
                     std::uint8_t width, bool logged) {
  return Field{n, off, 1, Kind::Bits, 1, logged, Tag::Observed, nullptr, shift, width};
}
}  // namespace schema_detail

// ---- neff_device_barrier_per_step_configs_t (0x34), step decoder libncfw @0xed02 -----------------------
inline constexpr std::array kStepFields{
    schema_detail::scalar("m2s_val", 0x00, Kind::U16),
    schema_detail::scalar("s2m_val", 0x02, Kind::U16),
    schema_detail::array("barrier_sema", 0x04, Kind::Addr, 4),  // unaligned: packed
    schema_detail::array("target_sema_val", 0x24, Kind::U32, 4),
};
inline constexpr StructSchema kStepSchema{"neff_device_barrier_per_step_configs_t", 0x34,
                                          kStepFields};

// ---- dma_channel_apb_bcast_t (0x14), IDA type ----------------------------------------
inline constexpr std::array kBcastFields{
    schema_detail::scalar("m2s_tail_ptr", 0x00, Kind::Addr),
    schema_detail::scalar("s2m_tail_ptr", 0x08, Kind::Addr),
    schema_detail::scalar("mask", 0x10, Kind::U32),
};
inline constexpr StructSchema kBcastSchema{"dma_channel_apb_bcast_t", 0x14, kBcastFields};

// ---- neff_device_barrier_configs_t (0x124), device decoder libncfw @0xfef5 -----------
inline constexpr std::array kDeviceFields{
    schema_detail::nested("barrier_step_config", 0x000, kStepSchema, 4),
    schema_detail::array("dma_sync_sema", 0x0D0, Kind::Addr, 4),
    schema_detail::nested("dma_apb_bcast", 0x0F0, kBcastSchema),
    schema_detail::scalar("start_network_proxy", 0x104, Kind::Addr),
    schema_detail::scalar("dma_sync_sema_value", 0x10C, Kind::U32),
    schema_detail::scalar("tdrbp_low", 0x110, Kind::U32),
    schema_detail::scalar("tdrbp_high", 0x114, Kind::U32),
    schema_detail::scalar("desc_count", 0x118, Kind::U32),
    // GOTCHA (libncfw @0xfef5): real, but the logger steps over it (0x118 -> 0x120 load gap).
    schema_detail::scalar("total_desc_n", 0x11C, Kind::U32, /*logged=*/false),
    schema_detail::scalar("dma_engines_bitmap", 0x120, Kind::U16),
    schema_detail::scalar("queue_id", 0x122, Kind::U8),
    // Size OBSERVED (struct is 0x124), unnamed: kept so decoding is lossless.
    schema_detail::scalar("__pad", 0x123, Kind::U8, /*logged=*/false),
};
inline constexpr StructSchema kDeviceSchema{"neff_device_barrier_configs_t", 0x124,
                                            kDeviceFields};

// ---- neff_host_barrier_configs_t (0x10), libncfw @0xd613: overlays device step 0 -------------
inline constexpr std::array kHostFields{
    schema_detail::scalar("barrier_start", 0x00, Kind::Addr),  // soc_addr_t
    schema_detail::scalar("barrier_done", 0x08, Kind::Addr),   // semaphore_t
};
inline constexpr StructSchema kHostSchema{"neff_host_barrier_configs_t", 0x10, kHostFields};

// ---- neff_barrier_configs_t (0x128), IDA type -----------------------------------------
// The anonymous overlay at +0 is represented by the device view (it covers every
// byte); the host view is derived from the same bytes (see codec.h).
inline constexpr std::array kConfigFields{
    schema_detail::nested("device_barrier", 0x000, kDeviceSchema),
    schema_detail::bits("execute_device_barrier", 0x124, 0, 1, /*logged=*/true),
    schema_detail::bits("__reserved0", 0x124, 1, 7, /*logged=*/false),
    schema_detail::array("__reserved", 0x125, Kind::U8, 3, /*logged=*/false),
};
inline constexpr StructSchema kConfigSchema{"neff_barrier_configs_t", 0x128, kConfigFields};

inline constexpr std::size_t kConfigSize = 0x128;
inline constexpr std::size_t kDeviceSize = 0x124;
inline constexpr std::size_t kStepSize = 0x34;
inline constexpr std::size_t kGateOffset = 0x124;

// Self-checks of the table: every field lies inside its struct, fields are in offset
// order and never overlap (except bit-fields sharing one byte), and the struct sizes
// are the observed ones.
consteval bool schema_is_consistent(const StructSchema& s) {
  std::uint32_t end = 0;
  std::uint32_t bits_used = 0;
  for (std::size_t i = 0; i < s.fields.size(); ++i) {
    const Field& f = s.fields[i];
    if (f.count == 0 || f.size % f.count != 0) return false;
    if (f.kind == Kind::Struct && (f.sub == nullptr || f.elem_size() != f.sub->size)) return false;
    if (f.kind == Kind::Bits) {
      const bool same_byte = i > 0 && s.fields[i - 1].kind == Kind::Bits &&
                             s.fields[i - 1].offset == f.offset;
      if (!same_byte) {
        if (f.offset < end) return false;
        bits_used = 0;
      }
      const std::uint32_t mask = ((1u << f.bit_width) - 1u) << f.bit_shift;
      if ((bits_used & mask) != 0 || f.bit_shift + f.bit_width > 8) return false;
      bits_used |= mask;
      end = f.offset + 1;
      continue;
    }
    if (f.offset < end) return false;
    end = f.offset + f.size;
  }
  return end == s.size;  // no unnamed tail: every byte belongs to a field
}

static_assert(schema_is_consistent(kStepSchema) && kStepSchema.size == 0x34);
static_assert(schema_is_consistent(kBcastSchema) && kBcastSchema.size == 0x14);
static_assert(schema_is_consistent(kDeviceSchema) && kDeviceSchema.size == 0x124);
static_assert(schema_is_consistent(kHostSchema) && kHostSchema.size == 0x10);
static_assert(schema_is_consistent(kConfigSchema) && kConfigSchema.size == 0x128);
// Every offset of core/neffbar/README.md "Layout", checked against the table rather than restated in code.
static_assert(kStepFields[2].offset == 0x4 && kStepFields[3].offset == 0x24);
static_assert(kDeviceFields[1].offset == 0xD0 && kDeviceFields[2].offset == 0xF0 &&
              kDeviceFields[3].offset == 0x104 && kDeviceFields[4].offset == 0x10C &&
              kDeviceFields[8].offset == 0x11C && kDeviceFields[9].offset == 0x120 &&
              kDeviceFields[10].offset == 0x122 && kDeviceFields[11].offset == 0x123);
static_assert(kConfigFields[1].offset == kGateOffset && kConfigFields[3].offset == 0x125);

// A leaf: one scalar element (or bit-field) with its absolute offset and path, e.g.
// "device_barrier.barrier_step_config[2].barrier_sema[1]" at 0x66.  Mutators, lint and
// error messages use leaves.
struct Leaf {
  const Field* field;
  std::uint32_t offset;  // absolute, within the 0x128-byte image
  std::uint8_t step;     // barrier_step_config index, 0xFF when not in a step
  std::uint8_t index;    // array element index, 0 for scalars
};

// The value of one element of a scalar field or bit-field whose bytes start at `at`:
// little-endian, or the field's bits of its byte.
constexpr std::uint64_t field_value(const std::uint8_t* at, const Field& f) {
  if (f.kind == Kind::Bits) return (at[0] >> f.bit_shift) & f.max_value();
  std::uint64_t v = 0;
  for (std::uint32_t i = 0; i < f.elem_size(); ++i) v |= std::uint64_t{at[i]} << (8 * i);
  return v;
}

// Leaf `l`'s value in the image `img`, and the value written to it (a bit-field's other
// bits kept; `v` cut to the field's width).
constexpr std::uint64_t leaf_value(const std::uint8_t* img, const Leaf& l) { return field_value(img + l.offset, *l.field); }
void set_leaf_value(std::uint8_t* img, const Leaf& l, std::uint64_t v);

// Every leaf of neff_barrier_configs_t, in offset order (computed once).
std::span<const Leaf> config_leaves();
// "device_barrier.barrier_step_config[2].barrier_sema[1]"
std::string leaf_path(const Leaf& leaf);
// The leaf covering an absolute byte offset (the first bit-field for the gate byte).
const Leaf* leaf_at(std::uint32_t offset);

}  // namespace neffbar
