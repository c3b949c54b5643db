// rapidcheck generators for neffbar.  One generic rc::Arbitrary for every logical
// struct, built from Boost.PFR field iteration and the schema (each field draws from
// the interesting values of its kind), plus generators for byte images, topologies,
// table images, semaphore op sequences and driver-context blobs.
#pragma once

#include <rapidcheck.h>

#include <array>
#include <cstdint>
#include <vector>

#include "neffbar/codec.h"
#include "neffbar/model/composer.h"
#include "neffbar/model/lowering.h"
#include "neffbar/driver_context.h"
#include "neffbar/sema_ids.h"
#include "neffbar/semaphore.h"
#include "neffbar/tables.h"

namespace neffbar::props {

// Semaphore addresses a composer would produce (so lanes can alias, collide and
// resolve), through every window.
inline rc::Gen<std::uint64_t> gen_mapped_address() {
  return rc::gen::exec([] {
    const SemaMapping m;
    const auto sp = *rc::gen::inRange<std::uint32_t>(0, 8);
    const auto id = *rc::gen::inRange<std::uint32_t>(0, 20);
    const auto w = *rc::gen::element(Window::Read, Window::Inc, Window::Set, Window::Dec);
    return m.sp_base(0x0100'0000, sp) + m.sema_offset(id, w);
  });
}

// Interesting values for one field of the schema: zero, all-ones, the field's maximum,
// thresholds around 1, mapped addresses, and anything.
inline rc::Gen<std::uint64_t> gen_field_value(const Field& f) {
  const std::uint64_t max = f.max_value();
  if (f.kind == Kind::Bits) return rc::gen::inRange<std::uint64_t>(0, max + 1);
  if (f.kind == Kind::Addr) {
    return rc::gen::weightedOneOf<std::uint64_t>({{3, rc::gen::just<std::uint64_t>(0)},
                                                 {4, gen_mapped_address()},
                                                 {1, rc::gen::just(max)},
                                                 {2, rc::gen::arbitrary<std::uint64_t>()}});
  }
  return rc::gen::weightedOneOf<std::uint64_t>(
      {{3, rc::gen::just<std::uint64_t>(0)},
       {3, rc::gen::inRange<std::uint64_t>(1, 5)},  // thresholds 1..4 (+-1 around the usual 1..L)
       {1, rc::gen::just(max)},
       {1, rc::gen::just(max - 1)},
       {2, rc::gen::map(rc::gen::arbitrary<std::uint64_t>(), [max](std::uint64_t v) { return v & max; })}});
}

template <class T>
rc::Gen<T> gen_logical();

namespace detail {
template <class F>
void fill(F& out, const Field& f) {
  if constexpr (std::is_integral_v<F>) {
    out = static_cast<F>(*gen_field_value(f));
  } else if constexpr (is_std_array<F>::value) {
    for (auto& e : out) fill(e, f);
  } else {
    out = *gen_logical<F>();
  }
}
}  // namespace detail

// Any logical struct with a schema, field by field (Boost.PFR), each field from the
// interesting values of its schema kind.
template <class T>
rc::Gen<T> gen_logical() {
  static_assert(has_schema_v<T>);
  return rc::gen::exec([] {
    T v{};
    boost::pfr::for_each_field(v, [](auto& field, auto idx) {
      detail::fill(field, schema_for<T>::value.fields[decltype(idx)::value]);
    });
    return v;
  });
}

// A 0x128-byte image: from a generated struct (reaches reserved bits, the gate and
// every field's special values) or plain random bytes.
inline rc::Gen<ConfigBytes> gen_config_bytes() {
  return rc::gen::weightedOneOf<ConfigBytes>(
      {{3, rc::gen::map(gen_logical<BarrierConfigs>(), [](const BarrierConfigs& c) { return encode(c); })},
       {1, rc::gen::arbitrary<ConfigBytes>()}});
}

// Table images: types and ops biased to the valid ranges and just outside them,
// sizes 0..6 (above 4 is clamped), duplicates likely.
inline rc::Gen<TableImage> gen_table_image() {
  return rc::gen::exec([] {
    TableImage t{};
    for (int e = 0; e < kSteps * kEntries; ++e) {
      const auto type = *rc::gen::weightedOneOf<std::uint32_t>(
          {{6, rc::gen::inRange<std::uint32_t>(0, 9)}, {1, rc::gen::arbitrary<std::uint32_t>()}});
      const auto op = *rc::gen::weightedOneOf<std::uint32_t>(
          {{6, rc::gen::inRange<std::uint32_t>(0, 3)}, {1, rc::gen::arbitrary<std::uint32_t>()}});
      store_le(t.steps.data() + e * 8, 4, type);
      store_le(t.steps.data() + e * 8 + 4, 4, op);
    }
    for (auto& s : t.sizes) s = *rc::gen::inRange<std::uint8_t>(0, 7);
    return t;
  });
}

// Search queries: in range, just outside, and extreme.
inline rc::Gen<std::int64_t> gen_query_int() {
  return rc::gen::weightedOneOf<std::int64_t>({{6, rc::gen::inRange<std::int64_t>(-2, 10)},
                                              {1, rc::gen::arbitrary<std::int64_t>()},
                                              {1, rc::gen::element<std::int64_t>(INT64_MIN, INT64_MAX, INT32_MIN,
                                                                                  INT32_MAX, UINT32_MAX)}});
}

// Topologies small enough for exhaustive checking in a property (chips 1..4).
inline rc::Gen<model::Topology> gen_topology(std::uint32_t max_chips = 4, std::uint32_t max_rounds = 2) {
  return rc::gen::exec([=] {
    model::Topology t;
    t.chips = *rc::gen::inRange<std::uint32_t>(1, max_chips + 1);
    t.leaders = *rc::gen::inRange<std::uint32_t>(1, 5);
    t.fabric = *rc::gen::element(Fabric::Default, Fabric::Switch);
    t.host_cc = *rc::gen::arbitrary<bool>();
    t.rounds = *rc::gen::inRange<std::uint32_t>(1, max_rounds + 1);
    t.wiring = model::Wiring::PerPeer;
    t.lowering = *rc::gen::element(model::Lowering::Table, model::Lowering::Hierarchical);
    return t;
  });
}

// Semaphore op sequences over a small file (so values collide), values around the
// int32 edges now and then.
inline rc::Gen<SemaOp> gen_sema_op(std::uint32_t semas) {
  return rc::gen::exec([semas] {
    SemaOp op;
    op.prim = *rc::gen::element(Prim::Inc, Prim::IncVal, Prim::WaitGeAndDec, Prim::WaitGe, Prim::WaitEqAndInc,
                                Prim::WaitEqAndClear);
    op.sema = *rc::gen::inRange<std::uint32_t>(0, semas);
    op.value = *rc::gen::weightedOneOf<std::int64_t>(
        {{8, rc::gen::inRange<std::int64_t>(-2, 4)},
         {1, rc::gen::element<std::int64_t>(INT32_MAX, INT32_MIN, std::int64_t{INT32_MAX} + 1)}});
    op.dec = *rc::gen::inRange<std::int64_t>(0, 3);
    return op;
  });
}

// Driver-context blobs: the host-CC byte biased to 0/1/2/255, leader counts 0..6
// (above 4 is an error), sometimes too short.
inline rc::Gen<std::vector<std::uint8_t>> gen_ctx_blob() {
  return rc::gen::exec([] {
    DriverContext ctx;
    ctx.set_host_cc(*rc::gen::weightedOneOf<std::uint8_t>(
        {{3, rc::gen::element<std::uint8_t>(0, 1)}, {1, rc::gen::element<std::uint8_t>(2, 255)},
         {1, rc::gen::arbitrary<std::uint8_t>()}}));
    const auto n = *rc::gen::weightedOneOf<std::uint32_t>(
        {{6, rc::gen::inRange<std::uint32_t>(0, 5)}, {1, rc::gen::inRange<std::uint32_t>(5, 7)}});
    ctx.set_leader_count(n);
    for (std::uint32_t i = 0; i < 4; ++i) ctx.set_sp_sema_base(i, SemaMapping{}.sp_base(0x0100'0000, i));
    if (*rc::gen::weightedOneOf<bool>({{9, rc::gen::just(false)}, {1, rc::gen::just(true)}})) {
      ctx.bytes.resize(*rc::gen::inRange<std::size_t>(0, ctx.bytes.size()));
    }
    return ctx.bytes;
  });
}

}  // namespace neffbar::props

namespace rc {
// The generic Arbitrary: every logical struct with a schema.
template <class T>
  requires neffbar::has_schema_v<T>
struct Arbitrary<T> {
  static Gen<T> arbitrary() { return neffbar::props::gen_logical<T>(); }
};
}  // namespace rc
