// The engines' tuning options, one row each: the flag, its value's type, its default as
// the engines hold it, its help, which engines read it, and how its text (with its
// range) is read into the engines' options.  The CLI builds these options, their help
// and defaults, their parsing, and its refusal of an option the chosen engine would
// ignore, from this table alone (core/cli/model_cmds.cpp); the choice of engine itself
// (--engine, --random) is not a tuning option and stays outside it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "neffbar/error.h"
#include "neffbar/model/engines/engine.h"
#include "neffbar/strict_numbers.h"

namespace neffbar::model {

// A set of engines, as bits of Engine.  Made by kEnginesOf<...> and kEveryEngine, which
// are values, not functions: there is no code to run (nor a line to count) until has().
struct EngineSet {
  std::uint8_t bits = 0;
  [[nodiscard]] constexpr bool has(Engine e) const { return ((bits >> static_cast<unsigned>(e)) & 1u) != 0; }
};
template <Engine... E>
inline constexpr EngineSet kEnginesOf{static_cast<std::uint8_t>((0u | ... | (1u << static_cast<unsigned>(E))))};
// Every engine, those added later too: an option common to all engines.
inline constexpr EngineSet kEveryEngine{0xFF};

// "300", "0.5", "1000000": digits and a point, never an exponent, as --help shows a
// default and the option's parser reads it back.
std::string decimal_text(double v);

// The memory budget's default: kDefaultMaxMemory (4 GiB), but at most a quarter of
// physical memory and three quarters of the address space `ulimit -v` allows, so that
// the search says BUDGET before the allocator refuses.
std::uint64_t default_max_memory();

// --max-memory's text: auto (default_max_memory()), MiB, or a number with a suffix K, M,
// G or T (KiB.. also taken); an error names `flag`.
Result<std::uint64_t> parse_memory(std::string_view flag, std::string_view text);

// `field` = the parsed value, or the parser's error.
template <class T, class U>
Status assign(T& field, const Result<U>& parsed) {
  if (!parsed) return parsed.error();
  field = *parsed;
  return {};
}

inline constexpr std::uint64_t kU64Max = ~std::uint64_t{0};

struct EngineOption {
  std::string_view flag;           // "--max-states"
  std::string_view type;           // the value's name in --help ("N"); empty: a flag without a value
  std::string (*default_text)();   // the default as the engines hold it; nullptr: none shown
  std::string_view help;
  EngineSet readers;               // the engines that read it; any other refuses it
  std::string_view owner;          // whose option it is, as the refusal says
  // Reads the option's text into `opt` (a flag: called when given, with no text); a
  // value that does not fit its range is an error naming `flag`.
  Status (*apply)(std::string_view flag, std::string_view text, EngineOptions& opt);
};

inline constexpr std::string_view kExplicitOwner = "the explicit search's option (--engine explicit or auto)";
inline constexpr EngineSet kExplicitReaders = kEnginesOf<Engine::Explicit, Engine::Auto>;  // auto: the explicit search decides what persistent cannot

inline constexpr std::array kEngineOptions{
    EngineOption{"--seed", "N", [] { return std::to_string(EngineOptions{}.seed); }, "Seed for --random",
                 kEnginesOf<Engine::Random>, "random schedules (--random N or --engine random)",
                 [](std::string_view f, std::string_view t, EngineOptions& o) { return assign(o.seed, parse_count(f, t, 0, kU64Max)); }},
    EngineOption{"--max-states", "N", [] { return std::to_string(CheckOptions{}.max_states); }, "State budget",
                 kExplicitReaders, kExplicitOwner,
                 [](std::string_view f, std::string_view t, EngineOptions& o) {
                   return assign(o.check.max_states, parse_count(f, t, 1, kU64Max));
                 }},
    EngineOption{"--max-seconds", "SECONDS", [] { return decimal_text(CommonOptions{}.max_seconds); },
                 "Time budget in seconds, every engine and every phase (a decimal number > 0)",
                 kEveryEngine, "",
                 [](std::string_view f, std::string_view t, EngineOptions& o) { return assign(o.check.max_seconds, parse_seconds(f, t)); }},
    EngineOption{"--max-memory", "SIZE", [] { return std::string("auto"); },
                 "Memory budget of the explicit search: MiB, or with K|M|G|T (auto: 4G, at most a quarter of physical "
                 "memory and 3/4 of ulimit -v)",
                 kExplicitReaders, kExplicitOwner,
                 [](std::string_view f, std::string_view t, EngineOptions& o) { return assign(o.check.max_memory, parse_memory(f, t)); }},
    EngineOption{"--no-reduce", "", nullptr, "Disable the Lipton (atomic block) reduction", kExplicitReaders, kExplicitOwner,
                 [](std::string_view, std::string_view, EngineOptions& o) { return (o.check.reduce = false, Status{}); }},
    EngineOption{"--no-symmetry", "", nullptr, "Disable the symmetry reduction", kExplicitReaders, kExplicitOwner,
                 [](std::string_view, std::string_view, EngineOptions& o) { return (o.check.symmetry = false, Status{}); }},
    EngineOption{"--no-por", "", nullptr, "Disable the partial-order reduction", kExplicitReaders, kExplicitOwner,
                 [](std::string_view, std::string_view, EngineOptions& o) { return (o.check.por = false, Status{}); }},
};

}  // namespace neffbar::model
