// The model's open choices where the sources disagree (the conflicts C1, C2, C4, C5 in
// core/neffbar/README.md): each is a named parameter, so the matrix (matrix.h) can run
// every combination and say which readings can be true together.
#pragma once

#include <cstdint>
#include <string_view>

#include "neffbar/semaphore.h"

namespace neffbar::model {

enum class DecMode : std::uint8_t { One, Target };    // C5: what a released wait removes
enum class Roles : std::uint8_t { Code, Narrative };  // C2: which id is start, which is done
enum class HostAddrs : std::uint8_t { Ctx, Config };  // C1: where the host leg takes its addresses

}  // namespace neffbar::model

namespace neffbar {
template <>
struct EnumNames<model::DecMode> {
  static constexpr NameTable<model::DecMode, 2> table{{{model::DecMode::One, "one"}, {model::DecMode::Target, "target"}}};
};
template <>
struct EnumNames<model::Roles> {
  static constexpr NameTable<model::Roles, 2> table{{{model::Roles::Code, "code"}, {model::Roles::Narrative, "narrative"}}};
};
template <>
struct EnumNames<model::HostAddrs> {
  static constexpr NameTable<model::HostAddrs, 2> table{{{model::HostAddrs::Ctx, "ctx"}, {model::HostAddrs::Config, "config"}}};
};
}  // namespace neffbar

namespace neffbar::model {

struct Hypotheses {
  Compare compare = Compare::Ge;          // C4: the encoder's compare mode 5 is >=
  DecMode dec = DecMode::One;             // C5: the encoder's immediate is 1
  Roles roles = Roles::Code;              // C2: the code's ids (done 6 / 2, start 7)
  HostAddrs host_addrs = HostAddrs::Ctx;  // C1: the driver context (the host view overlays step 0)
  bool proxy = true;                      // barrier proxy process in non-host-CC mode
  bool operator==(const Hypotheses&) const = default;
};

std::string_view name(DecMode d);
std::string_view name(Roles r);
std::string_view name(HostAddrs h);
std::string_view name(Compare c);

}  // namespace neffbar::model
