#include "input.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <tuple>
#include <vector>

namespace neffbar::cli {
namespace {

Error io_error(std::string expected, std::string got) {
  return Error{Errc::Io, "", std::move(expected), std::move(got)};
}

// Closes the descriptor on every path out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Fills in.data with up to limit + 1 bytes from read_some(buffer, n) (bytes read, 0 at
// the end, -1 on an error), growing the buffer as bytes arrive (4 KiB, then by what it
// holds, at most 64 KiB a step): sized to the limit at once, every small input paid for
// zero-filling 1 MiB (most of a command's time under ASan).
template <class ReadSome>
bool read_upto(Input& in, std::size_t limit, ReadSome&& read_some) {
  constexpr std::size_t kFirst = std::size_t{4} << 10, kMaxStep = std::size_t{64} << 10;
  std::size_t got = 0;
  while (got < limit + 1) {
    const std::size_t want = std::min(limit + 1 - got, std::clamp(got, kFirst, kMaxStep));
    in.data.resize(got + want);
    const long n = read_some(in.data.data() + got, want);
    if (n < 0) return false;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  in.over_limit = got > limit;
  in.data.resize(std::min(got, limit));
  return true;
}

// The regular files read so far: device, inode, the name the command line gave.
std::vector<std::tuple<dev_t, ino_t, std::string>> g_inputs;

void note_input(const struct stat& st, const std::string& name) {
  if (S_ISREG(st.st_mode)) g_inputs.emplace_back(st.st_dev, st.st_ino, name);
}

// std::cin sits on C's stdin (sync_with_stdio, the default), where a failed read(2)
// only sets ferror(stdin), which std::cin shows as the end of the input: it is told
// apart here.  EAGAIN is not the end: fd 0's file description may be shared with a
// process that made it non-blocking (only the path case below has its own to clear), so
// the bytes are waited for with poll(2) and the read goes on; any other error is the
// read error it is ("Is a directory" for `- < /`), not an input cut short.
Result<Input> read_stdin(std::size_t limit) {
  if (struct stat st {}; ::fstat(0, &st) == 0) note_input(st, "stdin");
  Input in;
  int err = 0;
  const bool ok = read_upto(in, limit, [&err](char* p, std::size_t n) -> long {
    for (;;) {
      if (!std::cin) return 0;  // the end
      errno = 0;
      std::cin.read(p, static_cast<std::streamsize>(n));
      const long got = static_cast<long>(std::cin.gcount());
      if (std::cin || std::ferror(stdin) == 0) return got;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        err = errno;
        return -1;
      }
      std::clearerr(stdin);
      std::cin.clear();
      if (got > 0) return got;
      pollfd fd{STDIN_FILENO, POLLIN, 0};
      (void)::poll(&fd, 1, -1);  // readable, or the writer gone (POLLHUP): read again
    }
  });
  if (!ok) return io_error("readable input", std::strerror(err));
  return in;
}

}  // namespace

std::optional<std::string> input_at(dev_t dev, ino_t ino) {
  for (const auto& [d, i, name] : g_inputs) {
    if (d == dev && i == ino) return name;
  }
  return std::nullopt;
}

void forget_inputs() { g_inputs.clear(); }

Result<Input> read_bounded(const std::string& path, std::size_t limit) {
  if (path.empty()) return Error{Errc::InvalidArgument, "FILE", "a file name, or - for stdin", "''"};
  if (path == "-") return read_stdin(limit);
  // O_NONBLOCK: opening a FIFO nobody writes to does not hang (its read then ends at
  // once); it is cleared before reading, so a pipe with a slow writer is waited for.
  const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (f.fd < 0) return io_error("a readable file", std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return io_error("a readable file", std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return io_error("a file", "a directory");
  if (const int flags = ::fcntl(f.fd, F_GETFL); flags >= 0) ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK);
  Input in;
  if (S_ISREG(st.st_mode)) in.file_size = static_cast<std::uint64_t>(st.st_size);
  note_input(st, path);
  const bool ok = read_upto(in, limit, [&f](char* p, std::size_t n) -> long {
    ssize_t r = 0;
    do {
      r = ::read(f.fd, p, n);
    } while (r < 0 && errno == EINTR);
    return static_cast<long>(r);
  });
  if (!ok) return io_error("a readable file", std::strerror(errno));
  return in;
}

Result<ConfigBytes> read_config(const std::string& path) {
  Result<Input> in = read_bounded(path, kConfigSize);
  if (!in) return in.error();
  if (in->over_limit) {
    return Error{Errc::WrongLength, "config image", std::to_string(kConfigSize) + " bytes (0x128)",
                 in->file_size ? std::to_string(*in->file_size) + " bytes"
                               : "more than " + std::to_string(kConfigSize) + " bytes"};
  }
  const auto* p = reinterpret_cast<const std::uint8_t*>(in->data.data());
  if (in->data.size() != kConfigSize) return decode(std::span<const std::uint8_t>(p, in->data.size())).error();
  ConfigBytes b;
  std::copy(p, p + kConfigSize, b.begin());
  return b;
}

Result<std::string> read_json_text(const std::string& path, std::string_view what) {
  Result<Input> in = read_bounded(path, kMaxJsonBytes);
  if (!in) return in.error();
  if (in->over_limit) {
    return Error{Errc::WrongLength, std::string(what), "at most " + std::to_string(kMaxJsonBytes) + " bytes (1 MiB)",
                 in->file_size ? std::to_string(*in->file_size) + " bytes"
                               : "more than " + std::to_string(kMaxJsonBytes) + " bytes"};
  }
  return std::move(in->data);
}

Result<std::optional<ManifestAt>> find_manifest(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path manifest;
  if (fs::is_directory(path, ec)) {
    manifest = fs::path(path) / std::string(model::kManifestName);
    if (!fs::exists(manifest, ec)) return std::optional<ManifestAt>();
  } else if (path.ends_with(".json")) {
    manifest = path;
  } else {
    return std::optional<ManifestAt>();
  }
  const Result<std::string> text = read_json_text(manifest.string(), model::kManifestName);
  if (!text) return text.error();
  Result<model::Manifest> m = model::read_manifest(*text);
  // A directory's manifest.json without compose's format tag is another program's: the
  // directory is a plain one, not a compose output.
  if (!m && manifest.string() != path && m.error().where == "$.format" && m.error().got == "nothing") {
    return std::optional<ManifestAt>();
  }
  if (!m) {
    if (manifest.string() == path) return m.error();
    return Error{m.error().code, std::string(model::kManifestName) + ": " + m.error().where, m.error().expected, m.error().got};
  }
  return std::optional<ManifestAt>(ManifestAt{manifest.parent_path(), manifest, std::move(*m)});
}

Result<std::vector<std::string>> read_manifest_files(const ManifestAt& m) {
  std::vector<std::string> out;
  for (const model::ManifestEntry& e : m.manifest.entries) {
    const std::string path = (m.dir / e.file).string();
    const std::size_t limit = e.role == model::FileRole::Leader ? kConfigSize : kMaxJsonBytes;
    Result<Input> in = read_bounded(path, limit);
    if (!in) {
      return Error{in.error().code, in.error().where.empty() ? path : path + ": " + in.error().where, in.error().expected, in.error().got};
    }
    if (in->over_limit || (e.role == model::FileRole::Leader && in->data.size() != kConfigSize)) {
      return Error{Errc::WrongLength, path,
                   e.role == model::FileRole::Leader ? "a config image of 296 bytes (0x128)" : "a driver context of at most 1 MiB",
                   in->over_limit ? "more" : std::to_string(in->data.size()) + " bytes"};
    }
    out.push_back(std::move(in->data));
  }
  return out;
}

}  // namespace neffbar::cli
