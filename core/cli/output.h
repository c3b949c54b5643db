// Where a command's result goes, with nothing lost silently: what a command writes to
// std::cout is held until it has ended, then written to stdout with every write and the
// final flush checked, or to `--output FILE` whole or not at all (a temporary in the
// same folder, fsync, rename).  A command that failed (exit 1 or 2) writes nothing.
#pragma once

#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <streambuf>
#include <string>
#include <string_view>

#include "neffbar/model/scenarios/composed_files.h"


namespace neffbar::cli {

// Redirects std::cout into memory for its lifetime.
class CapturedStdout {
 public:
  CapturedStdout() : saved_(std::cout.rdbuf(buffer_.rdbuf())) {}
  ~CapturedStdout() { std::cout.rdbuf(saved_); }
  CapturedStdout(const CapturedStdout&) = delete;
  CapturedStdout& operator=(const CapturedStdout&) = delete;
  [[nodiscard]] std::string text() const { return buffer_.str(); }

 private:
  std::ostringstream buffer_;
  std::streambuf* saved_;
};

// Writes `data` to std::cout and flushes it (and C's stdout under it).  Returns the
// system's reason ("No space left on device", "Bad file descriptor") when any part did
// not reach its destination.
[[nodiscard]] std::optional<std::string> write_stdout(std::string_view data);

// Writes `data` to `path` whole or not at all: a temporary beside it, fsync, rename
// over it.  An existing file keeps its permissions; a new one gets 0666 less the umask.
// A device or FIFO (e.g. /dev/stderr) is written to directly, every write checked.
// Returns the reason when the file could not be written (it is then left as it was).
[[nodiscard]] std::optional<std::string> write_file_atomically(const std::string& path, std::string_view data);

// Writes `files` as the directory `dir`, whole or not at all: a temporary directory
// beside it, every file fsynced, then swapped in by one rename (renameat2
// RENAME_EXCHANGE over an existing one, whose old contents are then removed).  An
// existing `dir` is replaced only when empty or holding a manifest.json (an earlier
// compose); anything else is refused, so no user folder is lost.  Returns the reason
// when `dir` could not be written (it is then left as it was).
[[nodiscard]] std::optional<std::string> write_directory_atomically(const std::string& dir,
                                                                    std::span<const model::NamedFile> files);

}  // namespace neffbar::cli
