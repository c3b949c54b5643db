#include "output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace neffbar::cli {
namespace {

std::string reason(int err) { return err != 0 ? std::strerror(err) : "write error"; }

std::optional<std::string> write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return reason(errno);
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> write_stdout(std::string_view data) {
  errno = 0;
  std::cout.write(data.data(), static_cast<std::streamsize>(data.size()));
  std::cout.flush();
  int err = errno;
  // std::cout may sit on C's stdout (sync_with_stdio): its buffer must reach the fd too.
  if (std::fflush(stdout) != 0 && err == 0) err = errno;
  if (!std::cout || std::ferror(stdout) != 0) {
    std::cout.clear();
    std::clearerr(stdout);
    return reason(err);
  }
  return std::nullopt;
}

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view data) {
  const std::size_t slash = path.rfind('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty() || base == "." || base == "..") return "Is a directory";
  mode_t mode = 0;
  if (struct stat st {}; ::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "Is a directory";
    if (!S_ISREG(st.st_mode)) {  // a device or FIFO cannot be replaced: written to, checked
      const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (fd < 0) return reason(errno);
      std::optional<std::string> failed = write_all(fd, data);
      if (::close(fd) != 0 && !failed) failed = reason(errno);
      return failed;
    }
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  const std::string tmp_name = path.substr(0, slash == std::string::npos ? 0 : slash + 1) + "." + base + ".neffbar-XXXXXX";
  std::vector<char> tmp(tmp_name.begin(), tmp_name.end());
  tmp.push_back('\0');
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return reason(errno);
  std::optional<std::string> failed = write_all(fd, data);
  if (!failed && ::fchmod(fd, mode) != 0) failed = reason(errno);
  if (!failed && ::fsync(fd) != 0) failed = reason(errno);
  if (::close(fd) != 0 && !failed) failed = reason(errno);
  if (!failed && ::rename(tmp.data(), path.c_str()) != 0) failed = reason(errno);
  if (failed) ::unlink(tmp.data());
  return failed;
}

}  // namespace neffbar::cli
