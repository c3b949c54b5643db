// A command's outputs, all or none (output.h).
#include "output.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>
#include <new>
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

bool kernel_links(const std::string& p) { return p.starts_with("/proc/") || p.starts_with("/dev/fd/"); }

std::variant<Resolved, std::string> resolve(const std::string& path) {
  std::string p = path;
  for (int hop = 0; hop <= 40; ++hop) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      // A new file: through /proc its folder is a kernel link (/proc/self/cwd), resolved
      // as the kernel resolves it, so that the temporary goes where the file will be.
      if (kernel_links(p)) {
        std::error_code ec;
        const fs::path real = fs::canonical(parent_of(p), ec);
        if (!ec) return Resolved{(real / fs::path(p).filename()).string(), false};
      }
      return Resolved{p, false};
    }
    if (!S_ISLNK(st.st_mode)) return Resolved{p, false};
    if (kernel_links(p)) return Resolved{p, true};  // /proc/self/fd/1: opened, never resolved by name
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
  std::optional<std::pair<uid_t, gid_t>> owner;  // an existing file's, kept where the process may
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
    return FilePlan{to.path, false, false, 0666 & ~current_umask(), std::nullopt};
  }
  if (S_ISDIR(st.st_mode)) return std::string("Is a directory");
  // An input read by this command (by inode: a link, a hard link or /proc name it too).
  if (S_ISREG(st.st_mode)) {
    if (const auto in = input_at(st.st_dev, st.st_ino)) return "is this command's input (" + *in + "): not overwritten";
  }
  if (to.magic || !S_ISREG(st.st_mode)) return FilePlan{to.path, true, to.magic && S_ISREG(st.st_mode), 0, std::nullopt};
  // A file the user may not write is not replaced behind its back (as `>` would refuse it).
  if (::access(to.path.c_str(), W_OK) != 0) return reason(errno);
  return FilePlan{to.path, false, false, static_cast<mode_t>(st.st_mode & 07777), std::pair{st.st_uid, st.st_gid}};
}

std::optional<std::string> write_in_place(const FilePlan& f, std::string_view data) {
  const int fd = ::open(f.target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | (f.append ? O_APPEND : 0));
  if (fd < 0) return reason(errno);
  std::optional<std::string> failed = write_all(fd, data);
  if (::close(fd) != 0 && !failed) failed = reason(errno);
  return failed;
}

// The name of a temporary beside `path`: ".NAME.neffbar-XXXXXX", NAME cut so that the
// whole stays within NAME_MAX (a 255-byte name is a legal output).
std::string temporary_for(const std::string& path, std::string_view kind = "") {
  const std::string base = fs::path(path).filename().string();
  return parent_of(path) + "/." + base.substr(0, 200) + ".neffbar-" + std::string(kind) + "XXXXXX";
}

// The names compose writes for the entries of `m` (a manifest naming other files is not
// compose's own output, whatever its format tag says), with the manifest's own.
std::optional<std::set<std::string>> compose_names(const model::Manifest& m) {
  std::set<std::string> own{std::string(model::kManifestName)};
  for (const model::ManifestEntry& e : m.entries) {
    const std::string want = e.role == model::FileRole::Leader ? model::leader_image_name(e.chip, e.leader.value_or(0))
                                                                : model::context_name(e.chip);
    if (e.file != want) return std::nullopt;
    if (e.log && *e.log != want.substr(0, want.size() - 4) + ".json") return std::nullopt;
    own.insert(e.file);
    if (e.log) own.insert(*e.log);
  }
  return own;
}

// Whether a file or folder is immutable or append-only (chattr +i, +a): not even root
// removes it, or a file in it.
bool fixed(const fs::path& p) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return false;
  int flags = 0;
  const bool is = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & (FS_IMMUTABLE_FL | FS_APPEND_FL)) != 0;
  ::close(fd);
  return is;
}

// Whether this process could empty an old compose output (remove_compose_dir) once the
// new one is in place: the folder its own to open up, or writable; nothing in it
// immutable.  Else it is refused up front, not left behind under a temporary name.
std::optional<std::string> cannot_empty(const fs::path& dir, const std::set<std::string>& names) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return "cannot be read (" + reason(errno) + "): not replaced";
  const uid_t me = ::geteuid();
  if (me != 0 && st.st_uid != me && ::access(dir.c_str(), W_OK | X_OK) != 0) {
    return "its old files cannot be removed (" + reason(errno) + "): not replaced";
  }
  if (fixed(dir)) return "is immutable or append-only (chattr): not replaced";
  for (const std::string& n : names) {
    if (fixed(dir / n)) return "holds '" + n + "', immutable or append-only (chattr): not replaced";
  }
  return std::nullopt;
}

// Whether an existing directory may be replaced: empty, or provably compose's own
// output (`names` gets the files it holds, for their removal).  The refusal says why.
std::optional<std::string> refuse_replacing(const fs::path& dir, std::set<std::string>& names) {
  std::error_code ec;
  names.clear();
  const fs::file_status st = fs::symlink_status(dir, ec);
  if (!fs::is_directory(st)) return std::string("is no longer a directory: not replaced");
  if (fs::is_empty(dir, ec) && !ec) return std::nullopt;
  const std::string manifest(model::kManifestName);
  if (!fs::exists(fs::symlink_status(dir / manifest, ec))) {
    return "exists and holds no " + manifest + " (not a compose output): not replaced";
  }
  const Result<std::optional<ManifestAt>> m = find_manifest(dir.string());
  if (!m || !*m) {
    return "holds a " + manifest + " that is not compose's (" + (m ? std::string("no format tag") : m.error().message()) +
           "): not replaced";
  }
  const std::optional<std::set<std::string>> own = compose_names((*m)->manifest);
  if (!own) return "holds a " + manifest + " naming files compose does not write: not replaced";
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    std::error_code type;
    if (!own->contains(name) || !fs::is_regular_file(fs::symlink_status(e.path(), type))) {
      return "holds '" + name + "', which compose did not write: not replaced";
    }
    names.insert(name);
  }
  if (ec) return "cannot be read (" + ec.message() + "): not replaced";
  return cannot_empty(dir, names);
}

// The files into the fresh directory `tmp`, each whole and fsynced, then the directory.
// A file that replaces one of the same name keeps that one's permissions (`kept`), as
// an existing -o FILE does; a new one gets `mode`.
std::optional<std::string> fill(const std::string& tmp, std::span<const model::NamedFile> files, mode_t mode,
                                 const std::map<std::string, mode_t>& kept, SignalCleanup& cleanup) {
  for (const model::NamedFile& f : files) {
    const std::string path = tmp + "/" + f.name;
    cleanup.add_file(path);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return f.name + ": " + reason(errno);
    const auto old = kept.find(f.name);
    std::optional<std::string> failed;
    if (::fchmod(fd, old != kept.end() ? old->second : mode) != 0) failed = reason(errno);
    if (!failed) failed = write_all(fd, f.bytes);
    if (!failed && ::fsync(fd) != 0) failed = reason(errno);
    if (::close(fd) != 0 && !failed) failed = reason(errno);
    if (failed) return f.name + ": " + *failed;
  }
  return fsync_path(tmp, O_RDONLY | O_DIRECTORY);
}

// An output made as a temporary, then put in place by install() and kept by finish(), or
// taken back by roll_back() (the old file or directory where it was).
struct Staged {
  std::string name;  // the output as the command line named it (for the error line)
  std::string tmp, target;
  bool directory = false, existed = false;
  std::string backup;              // a file's old version, linked aside while it can come back
  std::set<std::string> old_names;  // an old compose directory's files, removed by name only
  bool installed = false;
};

// A directory of compose's, removed file by file (by the names it held when it was
// checked): a file someone put there since stays, and so does the folder then.
std::optional<std::string> remove_compose_dir(const std::string& dir, const std::set<std::string>& names) {
  ::chmod(dir.c_str(), 0700);  // a write-protected old output of one's own
  for (const std::string& n : names) ::unlink((dir + "/" + n).c_str());
  if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) return std::nullopt;
  return "the old output could not be removed (" + reason(errno) + "); it is left in " + dir;
}

void discard(const Staged& s) {
  std::error_code ec;
  if (s.directory) {
    ::chmod(s.tmp.c_str(), 0700);  // the mode of the folder it replaces may be read-only
    fs::remove_all(s.tmp, ec);     // only what fill() made
  } else {
    ::unlink(s.tmp.c_str());
  }
}

std::variant<Staged, OutputError> stage_file(const std::string& name, const FilePlan& f, std::string_view data,
                                             SignalCleanup& cleanup) {
  std::string tmp = temporary_for(f.target);
  const int fd = cleanup.make_temp_file(tmp);
  if (fd < 0) return OutputError{name, reason(errno)};
  std::optional<std::string> failed = write_all(fd, data);
  if (!failed && ::fchmod(fd, f.mode) != 0) failed = reason(errno);
  if (!failed && f.owner) (void)::fchown(fd, f.owner->first, f.owner->second);  // kept where the process may
  if (!failed && ::fsync(fd) != 0) failed = reason(errno);
  if (::close(fd) != 0 && !failed) failed = reason(errno);
  Staged s{name, tmp, f.target, false, f.owner.has_value(), {}, {}, false};
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
  if (fs::is_symlink(st)) return OutputError{dir, "is a symbolic link: name the directory itself (compose does not replace through a link)"};
  if (exists && !fs::is_directory(st)) return OutputError{dir, "exists and is not a directory"};
  std::set<std::string> names;
  if (exists) {
    if (const auto refused = refuse_replacing(p, names)) return OutputError{dir, *refused};
  }
  const mode_t mask = current_umask();
  // A folder replaced keeps its permissions and its files theirs (a private output stays private).
  mode_t dir_mode = 0777 & ~mask;
  std::map<std::string, mode_t> kept;
  if (exists) {
    struct stat old {};
    if (::stat(path.c_str(), &old) == 0) dir_mode = old.st_mode & 07777;
    for (const std::string& n : names) {
      if (::stat((path + "/" + n).c_str(), &old) == 0) kept[n] = old.st_mode & 07777;
    }
  }
  std::string tmp = temporary_for(path);
  if (!cleanup.make_temp_directory(tmp)) return OutputError{dir, reason(errno)};
  Staged s{dir, tmp, path, true, exists, {}, std::move(names), false};
  std::optional<std::string> failed;
  // Filled while 0700 (its own files may be read-only, the folder too), its mode set last.
  failed = fill(tmp, files, 0666 & ~mask, kept, cleanup);
  if (!failed && ::chmod(tmp.c_str(), dir_mode) != 0) failed = reason(errno);
  if (failed) {
    discard(s);
    return OutputError{dir, *failed};
  }
  return s;
}

// One rename each: a file over its target (its old version first linked aside); a
// directory into a free name, or exchanged with the old one, which must still be what
// was checked (else it is exchanged back: a file put there meanwhile is never removed).
std::optional<OutputError> install(Staged& s, SignalCleanup& cleanup) {
  if (!s.directory && s.existed) {
    s.backup = temporary_for(s.target, "old-");
    const int fd = cleanup.make_temp_file(s.backup);
    if (fd >= 0) ::close(fd);
    if (fd < 0 || ::unlink(s.backup.c_str()) != 0 || ::link(s.target.c_str(), s.backup.c_str()) != 0) s.backup.clear();
  }
  const int r = s.directory && s.existed ? ::renameat2(AT_FDCWD, s.tmp.c_str(), AT_FDCWD, s.target.c_str(), RENAME_EXCHANGE)
                                         : ::rename(s.tmp.c_str(), s.target.c_str());
  if (r != 0) return OutputError{s.name, reason(errno)};
  s.installed = true;
  if (s.directory && s.existed) {
    std::set<std::string> now;
    if (const auto refused = refuse_replacing(s.tmp, now); refused || now != s.old_names) {
      return OutputError{s.name, "changed while compose wrote it: not replaced"};  // roll_back() exchanges it back
    }
  }
  return std::nullopt;
}

// Takes an installed output back: the old file or directory where it was.
void roll_back(Staged& s) {
  if (!s.installed) return discard(s);
  if (s.directory) {
    if (s.existed) {
      ::renameat2(AT_FDCWD, s.tmp.c_str(), AT_FDCWD, s.target.c_str(), RENAME_EXCHANGE);
    } else {
      ::rename(s.target.c_str(), s.tmp.c_str());
    }
    return discard(s);
  }
  if (!s.backup.empty()) {
    ::rename(s.backup.c_str(), s.target.c_str());
  } else if (!s.existed) {
    ::unlink(s.target.c_str());
  }
}

// Keeps an installed output: what it replaced is removed, the folder's entry synced.
// What could not be removed is said.
std::optional<std::string> finish(const Staged& s) {
  std::optional<std::string> left;
  if (s.directory && s.existed) left = remove_compose_dir(s.tmp, s.old_names);
  if (!s.backup.empty()) ::unlink(s.backup.c_str());
  (void)fsync_path(parent_of(s.target), O_RDONLY | O_DIRECTORY);
  return left;
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

bool names_stdout(const std::string& path) {
  struct stat out {}, st {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &st) == 0 && out.st_dev == st.st_dev && out.st_ino == st.st_ino;
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
  try {
    const auto stage = [&](std::variant<Staged, OutputError> s) {
      if (auto* e = std::get_if<OutputError>(&s)) return void(failed = std::move(*e));
      staged.push_back(std::get<Staged>(std::move(s)));
    };
    for (std::size_t i = 0; i < files_.size() && !failed; ++i) {
      if (!plans[i].in_place) stage(stage_file(files_[i].path, plans[i], files_[i].data, cleanup));
    }
    for (std::size_t i = 0; i < dirs_.size() && !failed; ++i) stage(stage_directory(dirs_[i].path, dirs_[i].files, cleanup));
    // The renames, each old version kept aside until everything else has been written:
    // a rename that fails (a mount point, a race) takes back the ones before it.
    for (std::size_t i = 0; i < staged.size() && !failed; ++i) failed = install(staged[i], cleanup);
    for (std::size_t i = 0; i < files_.size() && !failed; ++i) {
      if (!plans[i].in_place) continue;
      if (auto e = write_in_place(plans[i], files_[i].data)) failed = OutputError{files_[i].path, *e};
    }
    // stdout last: a command that failed prints nothing, and printed text cannot be taken back.
    if (!failed && stdout_) {
      if (auto e = write_stdout(*stdout_)) failed = OutputError{"stdout", *e};
    }
  } catch (const std::bad_alloc&) {
    failed = OutputError{"output", "out of memory"};
  }
  for (auto s = staged.rbegin(); s != staged.rend(); ++s) {
    if (failed) {
      roll_back(*s);
    } else if (auto left = finish(*s)) {
      leftovers_.push_back(OutputError{s->name, std::move(*left)});
    }
  }
  // A failure leaves no temporary, whatever the steps above could not take back.
  if (failed) {
    cleanup.remove_all();
  } else {
    cleanup.forget_all();
  }
  return failed;
}

}  // namespace neffbar::cli
