// Exit codes and error lines: the contract scripts rely on (README "The CLI").
//
// The rule for 1 versus 2: 2 when the command line itself is wrong (an unknown command
// or option, a missing argument, an option value not of its type or outside its range,
// options that conflict, binary output to a terminal); 1 when what the command line
// names is wrong (a file or stdin whose content is invalid, a path that cannot be read,
// an output that cannot be written, memory that runs out).
#pragma once

#include <string>
#include <string_view>

#include "neffbar/error.h"

namespace neffbar::cli {

enum class Exit : int { Ok = 0, Invalid = 1, Usage = 2, LintFound = 3, Failing = 4, Differ = 5 };

inline int code(Exit e) { return static_cast<int>(e); }

// Control characters (C0, DEL, and C1 as UTF-8) as \n, \t or \xNN, a backslash as \\,
// and every byte that is not well-formed UTF-8 as \xNN, so that an error line stays one
// line, a file name or JSON string cannot drive the terminal, and two different names
// never print alike; other text passes unchanged.
std::string escape(std::string_view text);

// Writes "neffbar: [name: ]message" (escaped) and a newline to std::cerr.  When the
// allocator refuses the escaped text, the same line with every byte outside printable
// ASCII as '?', written without allocating.
void error_line(std::string_view name, std::string_view message) noexcept;

// What the allocator's refusal says (std::bad_alloc, outside the explicit search's own
// memory budget).
inline constexpr std::string_view kOutOfMemory =
    "out of memory (the allocator refused; a smaller topology, or more memory for this process)";

// The error line for a std::bad_alloc that reached the command line, "neffbar: COMMAND:
// out of memory (...)", through error_line (so without allocating when it must).
// Nothing when this command has already written an error line (its own stays the only one).
void out_of_memory_line(std::string_view command) noexcept;
// A command starts (run(), once per command line, several in one process in the tests
// and the fuzz target): no error line written yet.
void forget_error_lines() noexcept;

// An error in what the command line names (file content, a path, an output): exit 1.
// `input` is the file's name ("-" is printed as stdin).
int fail_input(const Error& e, const std::string& input);

// An error in the command line itself: exit 2.  `option` names the option or argument
// when the Error's own `where` does not ("--arch"; empty: the Error names it).
int fail_usage(const Error& e, std::string_view option = "");

}  // namespace neffbar::cli
