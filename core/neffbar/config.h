// The config as naturally aligned logical structs (BarrierConfigs and its parts): what
// callers work with; bytes <-> struct goes through codec.h, driven by schema.h.
// Never packed, never bit-fields: Boost.PFR reflects these.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include <boost/pfr.hpp>

#include "neffbar/schema.h"

namespace neffbar {

struct StepConfig {  // neff_device_barrier_per_step_configs_t
  std::uint16_t m2s_val = 0;
  std::uint16_t s2m_val = 0;
  std::array<std::uint64_t, 4> barrier_sema{};     // soc_addr per leader lane
  std::array<std::uint32_t, 4> target_sema_val{};  // GE threshold per lane
  bool operator==(const StepConfig&) const = default;
};

struct DmaApbBcast {  // dma_channel_apb_bcast_t
  std::uint64_t m2s_tail_ptr = 0;
  std::uint64_t s2m_tail_ptr = 0;
  std::uint32_t mask = 0;
  bool operator==(const DmaApbBcast&) const = default;
};

struct DeviceBarrierConfig {  // neff_device_barrier_configs_t
  std::array<StepConfig, 4> barrier_step_config{};
  std::array<std::uint64_t, 4> dma_sync_sema{};
  DmaApbBcast dma_apb_bcast{};
  std::uint64_t start_network_proxy = 0;
  std::uint32_t dma_sync_sema_value = 0;
  std::uint32_t tdrbp_low = 0;
  std::uint32_t tdrbp_high = 0;
  std::uint32_t desc_count = 0;
  std::uint32_t total_desc_n = 0;
  std::uint16_t dma_engines_bitmap = 0;
  std::uint8_t queue_id = 0;
  std::uint8_t pad = 0;
  bool operator==(const DeviceBarrierConfig&) const = default;
};

struct HostBarrierConfig {  // neff_host_barrier_configs_t (overlays step 0)
  std::uint64_t barrier_start = 0;
  std::uint64_t barrier_done = 0;
  bool operator==(const HostBarrierConfig&) const = default;
};

struct BarrierConfigs {  // neff_barrier_configs_t
  DeviceBarrierConfig device_barrier{};
  std::uint8_t execute_device_barrier = 0;  // 1 bit
  std::uint8_t reserved0 = 0;               // 7 bits
  std::array<std::uint8_t, 3> reserved{};
  bool operator==(const BarrierConfigs&) const = default;
};

// Which schema describes which logical struct.
template <class T> struct schema_for;
template <> struct schema_for<StepConfig> { static constexpr const StructSchema& value = kStepSchema; };
template <> struct schema_for<DmaApbBcast> { static constexpr const StructSchema& value = kBcastSchema; };
template <> struct schema_for<DeviceBarrierConfig> { static constexpr const StructSchema& value = kDeviceSchema; };
template <> struct schema_for<HostBarrierConfig> { static constexpr const StructSchema& value = kHostSchema; };
template <> struct schema_for<BarrierConfigs> { static constexpr const StructSchema& value = kConfigSchema; };

template <class T> inline constexpr bool has_schema_v = requires { schema_for<T>::value; };

template <class T> struct is_std_array : std::false_type {};
template <class E, std::size_t N> struct is_std_array<std::array<E, N>> : std::true_type {};

// Bytes a logical field type occupies in the packed image.
template <class T>
constexpr std::size_t packed_size() {
  if constexpr (std::is_integral_v<T>) return sizeof(T);
  else if constexpr (is_std_array<T>::value) return std::tuple_size_v<T> * packed_size<typename T::value_type>();
  else return schema_for<T>::value.size;
}

// The schema and the logical struct agree field by field: same count (PFR), same
// element count and packed size, and the integer type can hold the field's values.
template <class T, std::size_t... I>
consteval bool struct_matches_schema(std::index_sequence<I...>) {
  constexpr const StructSchema& s = schema_for<T>::value;
  auto one = [](const Field& f, auto tag) consteval {
    using F = typename decltype(tag)::type;
    if (f.kind == Kind::Bits) return std::is_same_v<F, std::uint8_t>;
    if constexpr (is_std_array<F>::value) {
      return f.count == std::tuple_size_v<F> && f.size == packed_size<F>();
    } else {
      return f.count == 1 && f.size == packed_size<F>();
    }
  };
  return s.fields.size() == sizeof...(I) &&
         (one(s.fields[I], std::type_identity<boost::pfr::tuple_element_t<I, T>>{}) && ...);
}
template <class T>
consteval bool struct_matches_schema() {
  return boost::pfr::tuple_size_v<T> == schema_for<T>::value.fields.size() &&
         struct_matches_schema<T>(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

static_assert(struct_matches_schema<StepConfig>());
static_assert(struct_matches_schema<DmaApbBcast>());
static_assert(struct_matches_schema<DeviceBarrierConfig>());
static_assert(struct_matches_schema<HostBarrierConfig>());
static_assert(struct_matches_schema<BarrierConfigs>());

}  // namespace neffbar
