// The engines' tuning options, one row each: the flag, its value's type, its default as
// the engines hold it, its help, and which engines read it.  The CLI builds these
// options, their help and defaults, and its refusal of an option the chosen engine would
// ignore, from this table alone (core/cli/model_cmds.cpp); the choice of engine itself
// (--engine, --random) is not a tuning option and stays outside it.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "neffbar/model/engines/engine.h"

namespace neffbar::model {

// A set of engines, as bits of Engine.
class EngineSet {
 public:
  constexpr EngineSet(std::initializer_list<Engine> engines) {
    for (Engine e : engines) bits_ |= bit(e);
  }
  [[nodiscard]] constexpr bool has(Engine e) const { return (bits_ & bit(e)) != 0; }

 private:
  static constexpr std::uint8_t bit(Engine e) { return static_cast<std::uint8_t>(1u << static_cast<unsigned>(e)); }
  std::uint8_t bits_ = 0;
};

// "300", "0.5", "1000000": digits and a point, never an exponent, as --help shows a
// default and the option's parser reads it back.
std::string decimal_text(double v);

struct EngineOption {
  std::string_view flag;           // "--max-states"
  std::string_view type;           // the value's name in --help ("N"); empty: a flag without a value
  std::string (*default_text)();   // the default as the engines hold it; nullptr: none shown
  std::string_view help;
  EngineSet readers;               // the engines that read it; any other refuses it
  std::string_view owner;          // whose option it is, as the refusal says
};

inline constexpr std::string_view kExplicitOwner = "the explicit search's option (--engine explicit or auto)";
inline constexpr EngineSet kExplicitReaders{Engine::Explicit, Engine::Auto};  // auto: the explicit search decides what persistent cannot

inline constexpr std::array kEngineOptions{
    EngineOption{"--seed", "N", [] { return std::to_string(EngineOptions{}.seed); }, "Seed for --random",
                 EngineSet{Engine::Random}, "random schedules (--random N or --engine random)"},
    EngineOption{"--max-states", "N", [] { return std::to_string(CheckOptions{}.max_states); }, "State budget",
                 kExplicitReaders, kExplicitOwner},
    EngineOption{"--max-seconds", "SECONDS", [] { return decimal_text(CommonOptions{}.max_seconds); },
                 "Time budget in seconds, every engine and every phase (a decimal number > 0)",
                 EngineSet{Engine::Auto, Engine::Explicit, Engine::Persistent, Engine::Random}, ""},
    EngineOption{"--max-memory", "SIZE", [] { return std::string("auto"); },
                 "Memory budget of the explicit search: MiB, or with K|M|G|T (auto: 4G, at most a quarter of physical "
                 "memory and 3/4 of ulimit -v)",
                 kExplicitReaders, kExplicitOwner},
    EngineOption{"--no-reduce", "", nullptr, "Disable the Lipton (atomic block) reduction", kExplicitReaders, kExplicitOwner},
    EngineOption{"--no-symmetry", "", nullptr, "Disable the symmetry reduction", kExplicitReaders, kExplicitOwner},
    EngineOption{"--no-por", "", nullptr, "Disable the partial-order reduction", kExplicitReaders, kExplicitOwner},
};

// The row of `flag`; nullptr when no engine option has that flag.
constexpr const EngineOption* engine_option(std::string_view flag) {
  for (const EngineOption& o : kEngineOptions) {
    if (o.flag == flag) return &o;
  }
  return nullptr;
}

}  // namespace neffbar::model
