// Reading what the command line names, with a bound: a file, a pipe or FIFO, a device,
// or stdin ("-").  Never more than the bound plus one byte is read, so /dev/zero or a
// 100 MB file costs no more memory than a valid input; a directory, a missing or
// unreadable path, or a read error is an Error (Errc::Io) naming what happened.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "neffbar/codec.h"
#include "neffbar/error.h"

namespace neffbar::cli {

// The largest JSON log the reader takes (README "The CLI"): a full log is about 4 KiB,
// so 1 MiB leaves room for any indentation while bounding what a bad input costs.
inline constexpr std::size_t kMaxJsonBytes = std::size_t{1} << 20;

struct Input {
  std::string data;                        // at most limit bytes
  bool over_limit = false;                 // there was more than limit bytes
  std::optional<std::uint64_t> file_size;  // a regular file's size, for the message
};

// Reads at most `limit` bytes of `path` ("-": std::cin) and whether more followed.
Result<Input> read_bounded(const std::string& path, std::size_t limit);

// A config image: exactly 0x128 bytes (reads at most 0x129).
Result<ConfigBytes> read_config(const std::string& path);

// A JSON log: at most kMaxJsonBytes.
Result<std::string> read_json_text(const std::string& path);

}  // namespace neffbar::cli
