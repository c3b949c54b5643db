// The generators of neffbar's typed inputs, written once against Source (source.h), so
// rapidcheck (rc_driver.h) and the property fuzz targets (fuzz/property_fuzzer.cpp)
// draw exactly the same values: one generic draw for every logical struct, built from
// Boost.PFR field iteration over the schema (each field draws from the interesting
// values of its kind), plus byte images, topologies, table images, semaphore ops and
// driver-context blobs.  No rapidcheck here.
#pragma once

#include <array>
#include <cstdint>
#include <tuple>
#include <vector>

#include <boost/pfr.hpp>

#include "neffbar/codec.h"
#include "neffbar/driver_context.h"
#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/frontend/lowering.h"
#include "neffbar/sema_address.h"
#include "neffbar/sema_ids.h"
#include "neffbar/semaphore.h"
#include "neffbar/tables.h"
#include "source.h"

namespace neffbar::props {

// Semaphore addresses a composer would produce (so lanes can alias, collide and
// resolve), through every window.
inline std::uint64_t draw_mapped_address(Source& s) {
  const SemaMapping m;
  const auto sp = s.in_range<std::uint32_t>(0, 8);
  const auto id = s.in_range<std::uint32_t>(0, 20);
  const auto w = s.element({Window::Read, Window::Inc, Window::Set, Window::Dec});
  return m.sp_base(kSpOrigin, sp) + m.sema_offset(id, w);
}

// Interesting values for one field of the schema: zero, all-ones, the field's maximum,
// thresholds around 1, mapped addresses, and anything.
inline std::uint64_t draw_field_value(Source& s, const Field& f) {
  const std::uint64_t max = f.max_value();
  if (f.kind == Kind::Bits) return max == UINT64_MAX ? s.any64() : s.below(max + 1);
  if (f.kind == Kind::Addr) {
    switch (s.weighted({3, 4, 1, 2})) {
      case 0: return 0;
      case 1: return draw_mapped_address(s);
      case 2: return max;
      default: return s.any64();
    }
  }
  switch (s.weighted({3, 3, 1, 1, 2})) {
    case 0: return 0;
    case 1: return s.in_range<std::uint64_t>(1, 5);  // thresholds 1..4 (+-1 around the usual 1..L)
    case 2: return max;
    case 3: return max - 1;
    default: return s.any64() & max;
  }
}

template <class T>
T draw_logical(Source& s);

namespace detail {
template <class F>
void fill(Source& s, F& out, const Field& f) {
  if constexpr (std::is_integral_v<F>) {
    out = static_cast<F>(draw_field_value(s, f));
  } else if constexpr (is_std_array<F>::value) {
    for (auto& e : out) fill(s, e, f);
  } else {
    out = draw_logical<F>(s);
  }
}
}  // namespace detail

// Any logical struct with a schema, field by field (Boost.PFR), each field from the
// interesting values of its schema kind.
template <class T>
T draw_logical(Source& s) {
  static_assert(has_schema_v<T>);
  T v{};
  boost::pfr::for_each_field(v, [&s](auto& field, auto idx) {
    detail::fill(s, field, schema_for<T>::value.fields[decltype(idx)::value]);
  });
  return v;
}

// Bytes, eight a choice.
template <std::size_t N>
std::array<std::uint8_t, N> draw_bytes(Source& s) {
  std::array<std::uint8_t, N> b{};
  for (std::size_t at = 0; at < N; at += 8) {
    const std::uint64_t w = s.any64();
    for (std::size_t i = 0; i < 8 && at + i < N; ++i) b[at + i] = static_cast<std::uint8_t>(w >> (8 * i));
  }
  return b;
}

// A 0x128-byte image: from a drawn struct (reaches reserved bits, the gate and every
// field's special values) or plain random bytes.
inline ConfigBytes draw_config_bytes(Source& s) {
  if (s.weighted({3, 1}) == 0) return encode(draw_logical<BarrierConfigs>(s));
  return draw_bytes<kConfigSize>(s);
}

// Table images: types and ops biased to the valid ranges and just outside them, sizes
// 0..6 (above 4 is clamped), duplicates likely.
inline TableImage draw_table_image(Source& s) {
  TableImage t{};
  const auto word = [&s](std::uint32_t small) {
    return s.weighted({6, 1}) == 0 ? s.in_range<std::uint32_t>(0, small) : static_cast<std::uint32_t>(s.any64());
  };
  for (int e = 0; e < kSteps * kEntries; ++e) {
    store_le(t.steps.data() + e * 8, 4, word(9));
    store_le(t.steps.data() + e * 8 + 4, 4, word(3));
  }
  for (auto& z : t.sizes) z = s.in_range<std::uint8_t>(0, 7);
  return t;
}

// Search queries: in range, just outside, and extreme.
inline std::int64_t draw_query_int(Source& s) {
  switch (s.weighted({6, 1, 1})) {
    case 0: return s.in_range<std::int64_t>(-2, 10);
    case 1: return static_cast<std::int64_t>(s.any64());
    default: return s.element<std::int64_t>({INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX, UINT32_MAX});
  }
}

// Topologies small enough for exhaustive checking in a property (chips 1..max_chips).
inline model::Topology draw_topology(Source& s, std::uint32_t max_chips = 4, std::uint32_t max_rounds = 2) {
  model::Topology t;
  t.chips = s.in_range<std::uint32_t>(1, max_chips + 1);
  t.leaders = s.in_range<std::uint32_t>(1, 5);
  t.fabric = s.element({Fabric::Default, Fabric::Switch});
  t.host_cc = s.coin();
  t.rounds = s.in_range<std::uint32_t>(1, max_rounds + 1);
  t.wiring = model::Wiring::PerPeer;
  t.lowering = s.element({model::Lowering::Table, model::Lowering::Hierarchical});
  return t;
}

// A drawn topology as a key (the fuzz driver's memo of decided topologies, the test that
// enumerates what draw_topology draws): every field, so a field added to Topology must
// be added here too.
inline auto topology_key(const model::Topology& t) {
  static_assert(boost::pfr::tuple_size_v<model::Topology> == 7, "a new Topology field: add it to the key");
  return std::tuple{t.chips, t.leaders, t.fabric, t.host_cc, t.rounds, t.wiring, t.lowering};
}

// Semaphore ops over a small file (so values collide), values around the int32 edges
// now and then.
inline SemaOp draw_sema_op(Source& s, std::uint32_t semas) {
  SemaOp op;
  op.prim = s.element({Prim::Inc, Prim::IncVal, Prim::WaitGeAndDec, Prim::WaitGe, Prim::WaitEqAndInc, Prim::WaitEqAndClear});
  op.sema = s.in_range<std::uint32_t>(0, semas);
  op.value = s.weighted({8, 1}) == 0 ? s.in_range<std::int64_t>(-2, 4)
                                     : s.element<std::int64_t>({INT32_MAX, INT32_MIN, std::int64_t{INT32_MAX} + 1});
  op.dec = s.in_range<std::int64_t>(0, 3);
  return op;
}

// Driver-context blobs: the host-CC byte biased to 0/1/2/255, leader counts 0..6 (above
// 4 is an error), sometimes too short.
inline std::vector<std::uint8_t> draw_ctx_blob(Source& s) {
  DriverContext ctx;
  switch (s.weighted({3, 1, 1})) {
    case 0: ctx.set_host_cc(s.element<std::uint8_t>({0, 1})); break;
    case 1: ctx.set_host_cc(s.element<std::uint8_t>({2, 255})); break;
    default: ctx.set_host_cc(static_cast<std::uint8_t>(s.below(256)));
  }
  ctx.set_leader_count(s.weighted({6, 1}) == 0 ? s.in_range<std::uint32_t>(0, 5) : s.in_range<std::uint32_t>(5, 7));
  for (std::uint32_t i = 0; i < 4; ++i) ctx.set_sp_sema_base(i, SemaMapping{}.sp_base(kSpOrigin, i));
  if (s.weighted({9, 1}) == 1) ctx.bytes.resize(s.below(ctx.bytes.size()));
  return ctx.bytes;
}

}  // namespace neffbar::props
