// Small helpers shared by the neffbar subcommands: input, exit codes, error lines.
#pragma once

#include <cstdio>
#include <iostream>
#include <iterator>
#include <fstream>
#include <string>

#include "neffbar/error.h"

namespace neffbar::cli {

// Exit codes scripts can rely on (README "Exit codes").
enum class Exit : int { Ok = 0, Invalid = 1, Usage = 2, LintFound = 3, Failing = 4 };

inline int code(Exit e) { return static_cast<int>(e); }

// Reads FILE (or stdin for "-"), binary-safe.
inline Result<std::string> read_input(const std::string& path) {
  if (path.empty()) return Error{Errc::InvalidArgument, "FILE", "a file name, or - for stdin", "''"};
  if (path == "-") {
    std::string data{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    return data;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{Errc::Io, path, "a readable file", "cannot open"};
  std::string data{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return Error{Errc::Io, path, "a readable file", "read error"};
  return data;
}

// One line on stderr, prefixed with the input's name when there is one ("stdin" for -).
inline int fail(const Error& e, const std::string& input = "") {
  const std::string name = input == "-" ? "stdin" : input;
  std::cerr << "neffbar: " << (name.empty() ? "" : name + ": ") << e.message() << '\n';
  return code(e.code == Errc::InvalidArgument && input.empty() ? Exit::Usage : Exit::Invalid);
}

}  // namespace neffbar::cli
