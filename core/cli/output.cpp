// A command's outputs, all or none (output.h).
#include "output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <system_error>
#include <variant>

#include "input.h"
#include "signal_cleanup.h"

namespace neffbar::cli {
namespace {

namespace fs = std::filesystem;

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

std::string parent_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The path a file output resolves to: `path`'s symlinks followed by name (each hop's
// relative target taken from the link's folder) until a path that is not a link, or
// one through /proc or /dev/fd, whose links are the kernel's (/dev/stdout is
// /proc/self/fd/1) and must be opened, never resolved by name.
struct Resolved {
  std::string path;
  bool magic = false;  // through /proc or /dev/fd: written in place through `path` as given
};

std::variant<Resolved, std::string> resolve(const std::string& path) {
  std::string p = path;
  for (int hop = 0; hop <= 40; ++hop) {
    if (p.starts_with("/proc/") || p.starts_with("/dev/fd/")) return Resolved{path, true};
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return Resolved{p, false};
    std::string target(PATH_MAX, '\0');
    const ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
    if (n < 0) return reason(errno);
    target.resize(static_cast<std::size_t>(n));
    p = target.starts_with("/") || p.find('/') == std::string::npos ? target : parent_of(p) + "/" + target;
  }
  return reason(ELOOP);
}

// How a file output is written: staged (a temporary beside `target`, then a rename) or
// in place (opened and written, `append` for a regular file reached through /proc).
struct FilePlan {
  std::string target;
  bool in_place = false, append = false;
  mode_t mode = 0;
};

std::variant<FilePlan, std::string> plan_file(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty() || base == "." || base == "..") return std::string("Is a directory");
  const auto r = resolve(path);
  if (const auto* failed = std::get_if<std::string>(&r)) return *failed;
  const Resolved& to = std::get<Resolved>(r);
  struct stat st {};
  if (::stat(to.path.c_str(), &st) != 0) {
    if (to.magic) return reason(errno);  // a descriptor that is not open
    return FilePlan{to.path, false, false, 0666 & ~current_umask()};
  }
  if (S_ISDIR(st.st_mode)) return std::string("Is a directory");
  if (to.magic || !S_ISREG(st.st_mode)) return FilePlan{to.path, true, to.magic && S_ISREG(st.st_mode), 0};
  return FilePlan{to.path, false, false, static_cast<mode_t>(st.st_mode & 07777)};
}

std::optional<std::string> write_in_place(const FilePlan& f, std::string_view data) {
  const int fd = ::open(f.target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | (f.append ? O_APPEND : 0));
  if (fd < 0) return reason(errno);
  std::optional<std::string> failed = write_all(fd, data);
  if (::close(fd) != 0 && !failed) failed = reason(errno);
  return failed;
}

// Whether an existing directory may be replaced: empty, or compose's own output.  The
// refusal says why.
std::optional<std::string> refuse_replacing(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_empty(dir, ec) && !ec) return std::nullopt;
  const std::string manifest(model::kManifestName);
  if (!fs::exists(dir / manifest, ec)) return "exists and holds no " + manifest + " (not a compose output): not replaced";
  const Result<std::optional<ManifestAt>> m = find_manifest(dir.string());
  if (!m || !*m) {
    return "holds a " + manifest + " that is not compose's (" + (m ? std::string("unreadable") : m.error().message()) + "): not replaced";
  }
  std::set<std::string> own{manifest};
  for (const model::ManifestEntry& e : (*m)->manifest.entries) {
    own.insert(e.file);
    if (e.log) own.insert(*e.log);
  }
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!own.contains(name) || !e.is_regular_file(ec) || e.is_symlink(ec)) {
      return "holds '" + name + "', which compose did not write: not replaced";
    }
  }
  if (ec) return "cannot be read (" + ec.message() + "): not replaced";
  return std::nullopt;
}

// The files into the fresh directory `tmp`, each whole and fsynced, then the directory.
std::optional<std::string> fill(const std::string& tmp, std::span<const model::NamedFile> files, mode_t mode,
                                 SignalCleanup& cleanup) {
  for (const model::NamedFile& f : files) {
    const std::string path = tmp + "/" + f.name;
    cleanup.add_file(path);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) return f.name + ": " + reason(errno);
    std::optional<std::string> failed = write_all(fd, f.bytes);
    if (!failed && ::fsync(fd) != 0) failed = reason(errno);
    if (::close(fd) != 0 && !failed) failed = reason(errno);
    if (failed) return f.name + ": " + *failed;
  }
  return fsync_path(tmp, O_RDONLY | O_DIRECTORY);
}

// A temporary made and waiting for its rename.
struct Staged {
  std::string name;  // the output as the command line named it (for the error line)
  std::string tmp, target;
  bool directory = false, exchange = false;
};

void discard(const Staged& s) {
  std::error_code ec;
  if (s.directory) {
    fs::remove_all(s.tmp, ec);
  } else {
    ::unlink(s.tmp.c_str());
  }
}

std::variant<Staged, OutputError> stage_file(const std::string& name, const FilePlan& f, std::string_view data,
                                             SignalCleanup& cleanup) {
  std::string tmp = parent_of(f.target) + "/." + f.target.substr(f.target.rfind('/') + 1) + ".neffbar-XXXXXX";
  const int fd = cleanup.make_temp_file(tmp);
  if (fd < 0) return OutputError{name, reason(errno)};
  std::optional<std::string> failed = write_all(fd, data);
  if (!failed && ::fchmod(fd, f.mode) != 0) failed = reason(errno);
  if (!failed && ::fsync(fd) != 0) failed = reason(errno);
  if (::close(fd) != 0 && !failed) failed = reason(errno);
  Staged s{name, tmp, f.target, false, false};
  if (failed) {
    discard(s);
    return OutputError{name, *failed};
  }
  return s;
}

std::variant<Staged, OutputError> stage_directory(const std::string& dir, std::span<const model::NamedFile> files,
                                                  SignalCleanup& cleanup) {
  std::string path = dir;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const fs::path p(path);
  const std::string base = p.filename().string();
  if (base.empty() || base == "." || base == "..") return OutputError{dir, "name a directory to create or replace (not . or ..)"};
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  const bool exists = fs::exists(st);
  if (exists && !fs::is_directory(st)) return OutputError{dir, "exists and is not a directory"};
  if (exists) {
    if (const auto refused = refuse_replacing(p)) return OutputError{dir, *refused};
  }
  const mode_t mask = current_umask();
  std::string tmp = (p.has_parent_path() ? p.parent_path().string() : ".") + "/." + base + ".neffbar-XXXXXX";
  if (!cleanup.make_temp_directory(tmp)) return OutputError{dir, reason(errno)};
  Staged s{dir, tmp, path, true, exists};
  std::optional<std::string> failed;
  if (::chmod(tmp.c_str(), 0777 & ~mask) != 0) failed = reason(errno);
  if (!failed) failed = fill(tmp, files, 0666 & ~mask, cleanup);
  if (failed) {
    discard(s);
    return OutputError{dir, *failed};
  }
  return s;
}

// One rename each: a file over its target; a directory into a free name, or exchanged
// with the old one (whose contents, now at the temporary's name, are then removed).
std::optional<OutputError> install(const Staged& s) {
  const int r = s.exchange ? ::renameat2(AT_FDCWD, s.tmp.c_str(), AT_FDCWD, s.target.c_str(), RENAME_EXCHANGE)
                           : ::rename(s.tmp.c_str(), s.target.c_str());
  if (r != 0) return OutputError{s.name, reason(errno)};
  if (s.exchange) discard(s);
  if (const auto failed = fsync_path(parent_of(s.target), O_RDONLY | O_DIRECTORY)) return OutputError{s.name, *failed};
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

bool same_output(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::equivalent(a, b, ec) && !ec) return true;
  const auto ra = resolve(a), rb = resolve(b);
  if (!std::holds_alternative<Resolved>(ra) || !std::holds_alternative<Resolved>(rb)) return a == b;
  std::error_code ea, eb;
  const fs::path pa = fs::weakly_canonical(fs::absolute(std::get<Resolved>(ra).path, ea), ea);
  const fs::path pb = fs::weakly_canonical(fs::absolute(std::get<Resolved>(rb).path, eb), eb);
  return !ea && !eb && pa == pb;
}

void Outputs::file(std::string path, std::string data) { files_.push_back({std::move(path), std::move(data)}); }

void Outputs::directory(std::string path, std::vector<model::NamedFile> files) {
  dirs_.push_back({std::move(path), std::move(files)});
}

void Outputs::to_stdout(std::string data) { stdout_ = std::move(data); }

std::optional<OutputError> Outputs::commit() {
  std::vector<FilePlan> plans;
  for (const File& f : files_) {
    auto plan = plan_file(f.path);
    if (const auto* failed = std::get_if<std::string>(&plan)) return OutputError{f.path, *failed};
    plans.push_back(std::get<FilePlan>(std::move(plan)));
  }
  SignalCleanup cleanup;
  std::vector<Staged> staged;
  std::optional<OutputError> failed;
  const auto stage = [&](std::variant<Staged, OutputError> s) {
    if (auto* e = std::get_if<OutputError>(&s)) return void(failed = std::move(*e));
    staged.push_back(std::get<Staged>(std::move(s)));
  };
  for (std::size_t i = 0; i < files_.size() && !failed; ++i) {
    if (!plans[i].in_place) stage(stage_file(files_[i].path, plans[i], files_[i].data, cleanup));
  }
  for (std::size_t i = 0; i < dirs_.size() && !failed; ++i) stage(stage_directory(dirs_[i].path, dirs_[i].files, cleanup));
  for (std::size_t i = 0; i < files_.size() && !failed; ++i) {
    if (!plans[i].in_place) continue;
    if (auto e = write_in_place(plans[i], files_[i].data)) failed = OutputError{files_[i].path, *e};
  }
  if (!failed && stdout_) {
    if (auto e = write_stdout(*stdout_)) failed = OutputError{"stdout", *e};
  }
  for (std::size_t i = 0; i < staged.size(); ++i) {
    if (failed) {
      discard(staged[i]);
    } else if (auto e = install(staged[i])) {
      failed = std::move(e);
      for (std::size_t k = i + 1; k < staged.size(); ++k) discard(staged[k]);
      break;
    }
  }
  cleanup.forget_all();
  return failed;
}

}  // namespace neffbar::cli
