// The `@` words of the cli fuzz target: file-system objects as hostile as a user's,
// which fuzz_cli.cpp expands into paths and options, and make_corpus.cpp puts in the
// target's dictionary.  One name table (EnumNames) for both.
#pragma once

#include <cstdint>

#include "neffbar/enum_names.h"

namespace neffbar::fuzz {
enum class CliObject : std::uint8_t {
  Dir,         // a directory
  Missing,     // a path that does not exist
  Null,        // /dev/null
  Zero,        // /dev/zero: endless input
  Fifo,        // a FIFO a slow writer feeds with the input's stdin bytes, then closes
  OutFull,     // -o /dev/full
  OutDir,      // -o a directory
  OutFile,     // -o a file in the scratch folder
  StdoutFull,  // no word: stdout fails on every write
};
}  // namespace neffbar::fuzz

namespace neffbar {
template <>
struct EnumNames<fuzz::CliObject> {
  using O = fuzz::CliObject;
  static constexpr NameTable<O, 9> table{{{O::Dir, "@dir"},
                                          {O::Missing, "@missing"},
                                          {O::Null, "@null"},
                                          {O::Zero, "@zero"},
                                          {O::Fifo, "@fifo"},
                                          {O::OutFull, "@out-full"},
                                          {O::OutDir, "@out-dir"},
                                          {O::OutFile, "@out-file"},
                                          {O::StdoutFull, "@stdout-full"}}};
};
}  // namespace neffbar
