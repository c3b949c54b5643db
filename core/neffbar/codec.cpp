#include "neffbar/codec.h"

#include <string>

namespace neffbar {
namespace {

// Generic walkers: the schema gives offsets, PFR gives the fields.  Indices come as
// integral constants, so every offset folds to a constant after inlining.
template <class T>
void read_value(const std::uint8_t* p, const Field& f, T& out) {
  if constexpr (std::is_integral_v<T>) {
    if (f.kind == Kind::Bits) {
      out = static_cast<T>((p[0] >> f.bit_shift) & f.max_value());
    } else {
      out = load_le_as<T>(p);
    }
  } else if constexpr (is_std_array<T>::value) {
    using E = typename T::value_type;
    for (std::size_t k = 0; k < out.size(); ++k) read_value(p + k * packed_size<E>(), f, out[k]);
  } else {
    constexpr const StructSchema& s = schema_for<T>::value;
    boost::pfr::for_each_field(out, [p](auto& field, auto idx) {
      const Field& sub = s.fields[decltype(idx)::value];
      read_value(p + sub.offset, sub, field);
    });
  }
}

template <class T>
void write_value(std::uint8_t* p, const Field& f, const T& in) {
  if constexpr (std::is_integral_v<T>) {
    if (f.kind == Kind::Bits) {
      const auto mask = static_cast<std::uint8_t>(f.max_value() << f.bit_shift);
      p[0] = static_cast<std::uint8_t>((p[0] & ~mask) | ((in << f.bit_shift) & mask));
    } else {
      store_le_as<T>(p, in);
    }
  } else if constexpr (is_std_array<T>::value) {
    using E = typename T::value_type;
    for (std::size_t k = 0; k < in.size(); ++k) write_value(p + k * packed_size<E>(), f, in[k]);
  } else {
    constexpr const StructSchema& s = schema_for<T>::value;
    boost::pfr::for_each_field(in, [p](const auto& field, auto idx) {
      const Field& sub = s.fields[decltype(idx)::value];
      write_value(p + sub.offset, sub, field);
    });
  }
}

constexpr Field kWhole{"", 0, 0, Kind::Struct, 1, true, Tag::Observed};

}  // namespace

Result<BarrierConfigs> decode(std::span<const std::uint8_t> bytes) {
  if (bytes.size() != kConfigSize) {
    return Error{Errc::WrongLength, "config image", std::to_string(kConfigSize) + " bytes (0x128)",
                 std::to_string(bytes.size()) + " bytes"};
  }
  BarrierConfigs out;
  read_value(bytes.data(), kWhole, out);
  return out;
}

void decode_into(const ConfigBytes& bytes, BarrierConfigs& out) { read_value(bytes.data(), kWhole, out); }

// Every bit of the image belongs to one leaf (Schema.LeavesCoverEveryByteExactlyOnce)
// and bit-fields are written through their mask, so `out` needs no clearing.
void encode_into(const BarrierConfigs& cfg, ConfigBytes& out) {
  write_value(out.data(), kWhole, cfg);
}

ConfigBytes encode(const BarrierConfigs& cfg) {
  ConfigBytes out;
  encode_into(cfg, out);
  return out;
}

HostBarrierConfig decode_host(const ConfigBytes& bytes) {
  HostBarrierConfig h;
  read_value(bytes.data(), kWhole, h);
  return h;
}

HostBarrierConfig host_view_by_overlay(const DeviceBarrierConfig& dev) {
  const StepConfig& s0 = dev.barrier_step_config[0];
  const std::uint64_t sema0 = s0.barrier_sema[0];
  const std::uint64_t sema1 = s0.barrier_sema[1];
  return HostBarrierConfig{
      .barrier_start = std::uint64_t{s0.m2s_val} | (std::uint64_t{s0.s2m_val} << 16) |
                       ((sema0 & 0xFFFF'FFFFu) << 32),
      .barrier_done = (sema0 >> 32) | ((sema1 & 0xFFFF'FFFFu) << 32),
  };
}

}  // namespace neffbar
