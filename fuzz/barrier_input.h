// The input of the `barrier` fuzz target, decoded and encoded in one place:
// fuzz_barrier.cpp decodes it, make_corpus.cpp encodes its seeds.  Byte 0 picks the mode:
//
//   bit 7        arbitrary: the rest is the choice bytes of arbitrary_case
//   else bit 0   configs:   [mode, config 0x128 bytes x 1..3]
//   else bit 1   scenario:  [mode, chips, leaders, topology flags, hypotheses, guarantee, rounds, engine]
//                           or, with mode bit 3, one matrix row: [mode, row lo, row hi]
//   else         composed:  [mode, chips, leaders, topology flags, check flags, seed x4]
//
// The composed and scenario modes read their topology flags with different bits (composed:
// bit 3 lowering, bit 4 wiring; scenario: bit 3 wiring, bits 4-5 lowering) and composed's
// fault leader and fault are bytes 3 and 4 of its seed: the layout the committed seeds of
// corpus/barrier/ were written in, kept so that they keep their meaning.
//
// decode() takes any bytes (values are reduced into range, short inputs are nullopt, the
// target's "nothing to do"); encode() writes the canonical bytes of an input in range,
// so decode(encode(x)) == x (fuzz_support_test.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "neffbar/bytes.h"
#include "neffbar/codec.h"
#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/frontend/faults.h"
#include "neffbar/model/frontend/hypothesis_params.h"

namespace neffbar::fuzz {

// A composed barrier (chips, leaders 1..4; rounds 1..2; lowering table or hierarchical),
// checked exhaustively with the reductions named, or by random schedules; a fault
// injected at a leader.
struct ComposedInput {
  model::Topology topo;
  bool reduce = true, por = true, symmetry = true;
  bool random = false;
  std::uint8_t random_runs = 1;  // 1..4
  std::uint16_t seed_low = 0;    // the seed's bytes 0-1; bytes 2-3 are fault_leader and fault
  std::uint8_t fault_leader = 0;
  std::uint8_t fault = 0;  // the byte; the fault injected is model::Fault(fault % 4)
  [[nodiscard]] model::Fault fault_kind() const { return static_cast<model::Fault>(fault % 4); }
  [[nodiscard]] std::uint32_t seed() const { return seed_low | std::uint32_t{fault_leader} << 16 | std::uint32_t{fault} << 24; }
  bool operator==(const ComposedInput&) const = default;
};

// A row of the hypothesis matrix (small, or the full-scale table), or any topology
// under any hypotheses; `raw` takes chips, leaders and rounds as they are (out of range
// too), else chips and leaders are 1..4 and rounds 1..2.
struct ScenarioInput {
  bool matrix = false, full_table = false;
  std::uint16_t row = 0;
  bool raw = false;
  model::Topology topo;
  model::Hypotheses hyp;
  bool global = false;      // GuaranteeMode::Global, else Declared
  bool persistent = false;  // the persistent engine by name
  bool operator==(const ScenarioInput&) const = default;
};

// 1..3 arbitrary configs, lowered with these hypotheses on this fabric for 1..2 rounds.
struct ConfigsInput {
  Compare compare = Compare::Ge;
  model::DecMode dec = model::DecMode::One;
  Fabric fabric = Fabric::Default;
  std::uint32_t rounds = 1;
  std::vector<ConfigBytes> configs;
  bool operator==(const ConfigsInput&) const = default;
};

// The choice bytes of core/testing/arbitrary_system.h's arbitrary_case (its first byte's
// bit 6 also allows systems the persistent engine refuses).
struct ArbitraryInput {
  std::vector<std::uint8_t> choices;
  [[nodiscard]] bool persistent_only() const { return choices.empty() || (choices[0] & 0x40) == 0; }
  bool operator==(const ArbitraryInput&) const = default;
};

using BarrierInput = std::variant<ComposedInput, ScenarioInput, ConfigsInput, ArbitraryInput>;

namespace barrier_input {
inline constexpr std::uint8_t kArbitrary = 0x80, kConfigs = 0x01, kScenario = 0x02, kRaw = 0x04, kMatrix = 0x08,
                              kFullTable = 0x10;
inline constexpr std::size_t kConfigsAt = 1;  // the configs' offset (fuzz/CMakeLists.txt: NEFFBAR_CONFIG_OFFSET)

inline model::Topology composed_topology(std::uint8_t chips, std::uint8_t leaders, std::uint8_t f) {
  model::Topology t;
  t.chips = 1u + chips % 4u;
  t.leaders = 1u + leaders % 4u;
  t.fabric = f & 1 ? Fabric::Switch : Fabric::Default;
  t.host_cc = (f >> 1) & 1;
  t.rounds = 1u + (f >> 2) % 2u;
  t.lowering = (f >> 3) & 1 ? model::Lowering::Hierarchical : model::Lowering::Table;
  t.wiring = (f >> 4) & 1 ? model::Wiring::Counting : model::Wiring::PerPeer;
  return t;
}

inline model::Topology scenario_topology(const std::uint8_t* d, bool raw) {
  model::Topology t;
  t.chips = raw ? d[0] : 1u + d[0] % 4u;
  t.leaders = raw ? d[1] : 1u + d[1] % 4u;
  t.fabric = d[2] & 1 ? Fabric::Switch : Fabric::Default;
  t.host_cc = (d[2] >> 1) & 1;
  t.rounds = raw ? d[5] : 1u + (d[2] >> 2) % 2u;
  t.wiring = (d[2] >> 3) & 1 ? model::Wiring::Counting : model::Wiring::PerPeer;
  t.lowering = static_cast<model::Lowering>(((d[2] >> 4) & 3) % 3);
  return t;
}

inline std::uint8_t bit(bool b, int at) { return static_cast<std::uint8_t>(b ? 1u << at : 0u); }
inline std::uint8_t small(std::uint32_t v) { return static_cast<std::uint8_t>(v - 1); }  // 1..4 -> 0..3

inline std::optional<BarrierInput> decode_scenario(std::uint8_t mode, std::span<const std::uint8_t> b) {
  ScenarioInput s;
  s.matrix = mode & kMatrix;
  if (s.matrix) {
    if (b.size() < 2) return std::nullopt;
    s.full_table = mode & kFullTable;
    s.row = static_cast<std::uint16_t>(load_le(b.data(), 2));
    return s;
  }
  if (b.size() < 6) return std::nullopt;
  s.raw = mode & kRaw;
  s.topo = scenario_topology(b.data(), s.raw);
  const std::uint8_t h = b[3];
  s.hyp = model::Hypotheses{h & 1 ? Compare::Gt : Compare::Ge, h & 2 ? model::DecMode::Target : model::DecMode::One,
                            h & 4 ? model::Roles::Narrative : model::Roles::Code,
                            h & 8 ? model::HostAddrs::Config : model::HostAddrs::Ctx, (h & 16) == 0};
  s.global = b[4] & 1;
  s.persistent = b.size() > 6 && (b[6] & 3) == 1;
  return s;
}
}  // namespace barrier_input

inline std::optional<BarrierInput> decode(std::span<const std::uint8_t> in) {
  namespace bi = barrier_input;
  if (in.empty()) return std::nullopt;
  const std::uint8_t mode = in[0];
  const std::span<const std::uint8_t> b = in.subspan(1);
  if (mode & bi::kArbitrary) return ArbitraryInput{{b.begin(), b.end()}};
  if (mode & bi::kConfigs) {
    ConfigsInput c;
    c.compare = mode & 2 ? Compare::Gt : Compare::Ge;
    c.dec = mode & 4 ? model::DecMode::Target : model::DecMode::One;
    c.fabric = mode & 8 ? Fabric::Switch : Fabric::Default;
    c.rounds = 1u + ((mode >> 4) & 1u);
    for (std::size_t at = 0; at + kConfigSize <= b.size() && c.configs.size() < 3; at += kConfigSize) {
      ConfigBytes cfg;
      std::copy(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + kConfigSize), cfg.begin());
      c.configs.push_back(cfg);
    }
    if (c.configs.empty()) return std::nullopt;
    return c;
  }
  if (mode & bi::kScenario) return bi::decode_scenario(mode, b);
  if (b.size() < 8) return std::nullopt;
  ComposedInput c;
  c.topo = bi::composed_topology(b[0], b[1], b[2]);
  c.reduce = (b[3] & 1) == 0;
  c.por = (b[3] & 2) == 0;
  c.symmetry = (b[3] & 4) == 0;
  c.random = b[3] & 8;
  c.random_runs = static_cast<std::uint8_t>(1 + (b[3] >> 4) % 4);
  c.seed_low = static_cast<std::uint16_t>(load_le(b.data() + 4, 2));
  c.fault_leader = b[6];
  c.fault = b[7];
  return c;
}

// The canonical bytes of an input in range (what decode() reads back as the same input).
inline std::vector<std::uint8_t> encode(const BarrierInput& in) {
  namespace bi = barrier_input;
  using bi::bit;
  std::vector<std::uint8_t> out;
  if (const auto* c = std::get_if<ComposedInput>(&in)) {
    const model::Topology& t = c->topo;
    out = {0, bi::small(t.chips), bi::small(t.leaders),
           static_cast<std::uint8_t>(bit(t.fabric == Fabric::Switch, 0) | bit(t.host_cc, 1) | bit(t.rounds == 2, 2) |
                                     bit(t.lowering == model::Lowering::Hierarchical, 3) | bit(t.wiring == model::Wiring::Counting, 4)),
           static_cast<std::uint8_t>(bit(!c->reduce, 0) | bit(!c->por, 1) | bit(!c->symmetry, 2) | bit(c->random, 3) |
                                     (c->random_runs - 1) << 4),
           0, 0, c->fault_leader, c->fault};
    store_le(out.data() + 5, 2, c->seed_low);
  } else if (const auto* s = std::get_if<ScenarioInput>(&in)) {
    if (s->matrix) {
      out = {static_cast<std::uint8_t>(bi::kScenario | bi::kMatrix | bit(s->full_table, 4)), 0, 0};
      store_le(out.data() + 1, 2, s->row);
      return out;
    }
    const model::Topology& t = s->topo;
    const model::Hypotheses& h = s->hyp;
    out = {static_cast<std::uint8_t>(bi::kScenario | bit(s->raw, 2)),
           static_cast<std::uint8_t>(s->raw ? t.chips : t.chips - 1),
           static_cast<std::uint8_t>(s->raw ? t.leaders : t.leaders - 1),
           static_cast<std::uint8_t>(bit(t.fabric == Fabric::Switch, 0) | bit(t.host_cc, 1) | bit(!s->raw && t.rounds == 2, 2) |
                                     bit(t.wiring == model::Wiring::Counting, 3) | static_cast<unsigned>(t.lowering) << 4),
           static_cast<std::uint8_t>(bit(h.compare == Compare::Gt, 0) | bit(h.dec == model::DecMode::Target, 1) |
                                     bit(h.roles == model::Roles::Narrative, 2) | bit(h.host_addrs == model::HostAddrs::Config, 3) |
                                     bit(!h.proxy, 4)),
           bit(s->global, 0), static_cast<std::uint8_t>(s->raw ? t.rounds : 0)};
    if (s->persistent) out.push_back(1);
  } else if (const auto* k = std::get_if<ConfigsInput>(&in)) {
    out = {static_cast<std::uint8_t>(bi::kConfigs | bit(k->compare == Compare::Gt, 1) |
                                     bit(k->dec == model::DecMode::Target, 2) | bit(k->fabric == Fabric::Switch, 3) |
                                     bit(k->rounds == 2, 4))};
    out.resize(1 + k->configs.size() * kConfigSize);  // (resize and copy: g++-12 -Warray-bounds misreads an insert here)
    for (std::size_t i = 0; i < k->configs.size(); ++i) std::copy(k->configs[i].begin(), k->configs[i].end(), out.begin() + static_cast<std::ptrdiff_t>(1 + i * kConfigSize));
  } else {
    const auto& a = std::get<ArbitraryInput>(in);
    out.resize(1 + a.choices.size());
    out[0] = bi::kArbitrary;
    std::copy(a.choices.begin(), a.choices.end(), out.begin() + 1);
  }
  return out;
}

}  // namespace neffbar::fuzz
