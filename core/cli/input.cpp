#include "input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>

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

Result<Input> read_stdin(std::size_t limit) {
  Input in;
  in.data.resize(limit + 1);
  std::cin.read(in.data.data(), static_cast<std::streamsize>(limit + 1));
  if (std::cin.bad()) return io_error("readable input", "read error");
  in.data.resize(static_cast<std::size_t>(std::cin.gcount()));
  in.over_limit = in.data.size() > limit;
  if (in.over_limit) in.data.resize(limit);
  return in;
}

}  // namespace

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
  in.data.resize(limit + 1);
  std::size_t got = 0;
  while (got < limit + 1) {
    const ssize_t n = ::read(f.fd, in.data.data() + got, limit + 1 - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("a readable file", std::strerror(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  in.over_limit = got > limit;
  in.data.resize(std::min(got, limit));
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

Result<std::string> read_json_text(const std::string& path) {
  Result<Input> in = read_bounded(path, kMaxJsonBytes);
  if (!in) return in.error();
  if (in->over_limit) {
    return Error{Errc::WrongLength, "JSON log", "at most " + std::to_string(kMaxJsonBytes) + " bytes (1 MiB)",
                 in->file_size ? std::to_string(*in->file_size) + " bytes"
                               : "more than " + std::to_string(kMaxJsonBytes) + " bytes"};
  }
  return std::move(in->data);
}

}  // namespace neffbar::cli
