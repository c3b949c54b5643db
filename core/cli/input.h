// Reading what the command line names, with a bound: a file, a pipe or FIFO, a device,
// or stdin ("-").  Never more than the bound plus one byte is read, so /dev/zero or a
// 100 MB file costs no more memory than a valid input; a directory, a missing or
// unreadable path, or a read error is an Error (Errc::Io) naming what happened.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <sys/types.h>
#include <string>
#include <string_view>
#include <vector>

#include "neffbar/codec.h"
#include "neffbar/error.h"
#include "neffbar/model/scenarios/composed_files.h"

namespace neffbar::cli {

// The largest JSON log the reader takes (README "The CLI"): a full log is about 4 KiB,
// so 1 MiB leaves room for any indentation while bounding what a bad input costs.
inline constexpr std::size_t kMaxJsonBytes = std::size_t{1} << 20;

struct Input {
  std::string data;                        // at most limit bytes
  bool over_limit = false;                 // there was more than limit bytes
  std::optional<std::uint64_t> file_size;  // a regular file's size, for the message
};

// Reads at most `limit` bytes of `path` ("-": std::cin) and whether more followed.  A
// regular file read (stdin too, when it is one) is remembered as this command's input.
Result<Input> read_bounded(const std::string& path, std::size_t limit);

// The name of the input this command read from the file with this device and inode
// (read_bounded), or nullopt: an output must not replace its own input (`diff a b -o a`).
std::optional<std::string> input_at(dev_t dev, ino_t ino);
// A command starts (run()): no input read yet.
void forget_inputs();

// A config image: exactly 0x128 bytes (reads at most 0x129).
Result<ConfigBytes> read_config(const std::string& path);

// A JSON text of at most kMaxJsonBytes; `what` names it in the error ("JSON log",
// "manifest.json").
Result<std::string> read_json_text(const std::string& path, std::string_view what = "JSON log");

// compose's manifest (composed_files.h) and the directory its files are in.
struct ManifestAt {
  std::filesystem::path dir;
  std::filesystem::path file;  // the manifest itself
  model::Manifest manifest;
};

// The manifest `path` names: a directory holding manifest.json, or a file ending .json.
// nullopt when `path` is neither (an image, or a directory without a manifest).  An
// error names the manifest's key; fail_input names `path`.
Result<std::optional<ManifestAt>> find_manifest(const std::string& path);

// The content of each of the manifest's files, in its order (model::composition_of):
// leader images exactly 0x128 bytes, driver contexts at most 1 MiB.  An error names the file.
Result<std::vector<std::string>> read_manifest_files(const ManifestAt& m);

}  // namespace neffbar::cli
