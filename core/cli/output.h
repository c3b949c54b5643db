// Where a command's results go, with nothing lost silently and nothing written outside
// the named outputs.  What a command writes to std::cout is held until it has ended;
// then every output it has (stdout or `-o FILE`, `--html FILE`, compose's directory) is
// written as one transaction (Outputs): all of them, or none.  A command that failed
// (exit 1 or 2) writes nothing.
#pragma once

#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

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

// Whether two output paths name one file: the same path once `.`, `..` and symlinks are
// resolved (as far as the path exists: `./a` and `a` are one file before either exists),
// or, when both exist, the same inode.
[[nodiscard]] bool same_output(const std::string& a, const std::string& b);

// Whether `path` is the file stdout is open on (/dev/stdout, /dev/fd/1, the file `>`
// sent it to): the same inode as descriptor 1's.
[[nodiscard]] bool names_stdout(const std::string& path);

// An output that could not be written: its name (a path, or "stdout") and the reason.
struct OutputError {
  std::string name;
  std::string reason;
};

// A command's outputs, written all or none by commit():
//  - a file is written whole: a temporary beside the file it resolves to (through any
//    symlinks, which stay links), fsynced, then renamed over it; an existing file keeps
//    its permissions, a new one gets 0666 less the umask.  A file that cannot be
//    replaced, a device, a FIFO, a socket, or any path through /proc or /dev/fd
//    (/dev/stdout is /proc/self/fd/1) is written in place, as coreutils does, never
//    renamed over (a regular file reached that way is appended to, as `>>` would);
//  - a directory (compose) is filled as a temporary directory beside it, every file
//    fsynced, then swapped in by one rename (renameat2 RENAME_EXCHANGE over an existing
//    one, whose old contents are then removed).  An existing directory is replaced only
//    when empty or provably compose's own output: a manifest.json that reads as
//    compose's (its format tag, the strict reader) and no entry but the files it names.
//    Any other folder is refused and left as it was;
//  - stdout.
// Every temporary is made first; the in-place writes and stdout come next; the renames
// last.  A failure before the renames removes every temporary, so nothing is replaced;
// SIGINT, SIGTERM, SIGHUP and SIGPIPE meanwhile remove them too (signal_cleanup.h).
class Outputs {
 public:
  void file(std::string path, std::string data);
  void directory(std::string path, std::vector<model::NamedFile> files);
  void to_stdout(std::string data);
  [[nodiscard]] std::optional<OutputError> commit();
  // After a commit that succeeded: what it could not clean up (an old compose output
  // whose files could not all be removed, left under its temporary name), each naming
  // the output and where the old files are.  Empty almost always: commit() refuses a
  // folder it can tell it cannot empty.
  [[nodiscard]] const std::vector<OutputError>& leftovers() const { return leftovers_; }

 private:
  struct File {
    std::string path, data;
  };
  struct Directory {
    std::string path;
    std::vector<model::NamedFile> files;
  };
  std::vector<File> files_;
  std::vector<Directory> dirs_;
  std::optional<std::string> stdout_;
  std::vector<OutputError> leftovers_;
};

}  // namespace neffbar::cli
