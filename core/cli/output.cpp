#include "output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
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

// The process's umask (reading it means setting it: set back at once).
mode_t current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

std::optional<std::string> fsync_path(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return reason(errno);
  std::optional<std::string> failed;
  if (::fsync(fd) != 0) failed = reason(errno);
  ::close(fd);
  return failed;
}

// The files into the fresh directory `tmp`, each whole and fsynced, then the directory.
std::optional<std::string> fill(const std::string& tmp, std::span<const model::NamedFile> files, mode_t mode) {
  for (const model::NamedFile& f : files) {
    const std::string path = tmp + "/" + f.name;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) return f.name + ": " + reason(errno);
    std::optional<std::string> failed = write_all(fd, f.bytes);
    if (!failed && ::fsync(fd) != 0) failed = reason(errno);
    if (::close(fd) != 0 && !failed) failed = reason(errno);
    if (failed) return f.name + ": " + *failed;
  }
  return fsync_path(tmp, O_RDONLY | O_DIRECTORY);
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
    mode = 0666 & ~current_umask();
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

std::optional<std::string> write_directory_atomically(const std::string& dir, std::span<const model::NamedFile> files) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string path = dir;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const fs::path p(path);
  const std::string base = p.filename().string();
  if (base.empty() || base == "." || base == "..") return "name a directory to create or replace (not . or ..)";
  const fs::file_status st = fs::symlink_status(p, ec);
  const bool exists = fs::exists(st);
  if (exists && !fs::is_directory(st)) return "exists and is not a directory";
  if (exists && !fs::is_empty(p, ec) && !fs::exists(p / std::string(model::kManifestName), ec)) {
    return "exists and holds no " + std::string(model::kManifestName) + " (not a compose output): not replaced";
  }
  const mode_t mask = current_umask();
  const std::string parent = p.has_parent_path() ? p.parent_path().string() : ".";
  std::string tmpl = parent + "/." + base + ".neffbar-XXXXXX";
  std::vector<char> tmp(tmpl.begin(), tmpl.end());
  tmp.push_back('\0');
  if (::mkdtemp(tmp.data()) == nullptr) return reason(errno);
  const std::string t(tmp.data());
  std::optional<std::string> failed;
  if (::chmod(t.c_str(), 0777 & ~mask) != 0) failed = reason(errno);
  if (!failed) failed = fill(t, files, 0666 & ~mask);
  if (!failed) {
    // One rename either way: exchanged with the old directory, or into a free name.
    const int r = exists ? ::renameat2(AT_FDCWD, t.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE)
                         : ::rename(t.c_str(), path.c_str());
    if (r != 0) failed = reason(errno);
  }
  fs::remove_all(t, ec);  // the temporary, or after the exchange the old contents
  if (!failed) failed = fsync_path(parent, O_RDONLY | O_DIRECTORY);
  return failed;
}

}  // namespace neffbar::cli
