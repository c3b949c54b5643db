#include "module_host.h"

#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "neffbar/module/neffbar_module.h"

namespace neffbar::cli {
namespace {

// What the child tells the parent without a pipe, so that it survives the child's death:
// the module's name once loaded, and the call it is in.
struct Shared {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<int> loaded{0};
  char name[128]{};
  char op[32]{};
  char input[2048]{};
};

void copy_into(char* dst, std::size_t cap, std::string_view s) {
  const std::size_t n = std::min(cap - 1, s.size());
  std::memcpy(dst, s.data(), n);
  dst[n] = '\0';
}

class SharedSite final : public CallSite {
 public:
  explicit SharedSite(Shared* s) : s_(s) {}
  void at(std::string_view op, const std::string& input) override {
    copy_into(s_->op, sizeof s_->op, op);
    copy_into(s_->input, sizeof s_->input, input);
    s_->calls.fetch_add(1);
  }

 private:
  Shared* s_;
};

// The child leaves with _exit (nothing of the parent's atexit runs twice); a coverage
// build's profile is written first, so that what the child ran is measured
// (LLVM_PROFILE_FILE with %p: a file of its own).
extern "C" int __llvm_profile_write_file(void) __attribute__((weak));
[[noreturn]] void leave() {
  if (__llvm_profile_write_file) __llvm_profile_write_file();
  ::_exit(0);
}

// A module that calls exit() in the child would run the harness's atexit handlers and
// static destructors there (a fuzz target's scratch folder removed, a temporary file of
// the parent's cleaned): this handler, registered last, runs first and leaves at once.
constexpr int kCalledExit = 113;
void called_exit() {
  if (__llvm_profile_write_file) __llvm_profile_write_file();
  ::_exit(kCalledExit);
}

bool write_all(int fd, std::string_view s) {
  while (!s.empty()) {
    const ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    s.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The child: load, check, judge; the result (or the load error) as JSON on `fd`.
[[noreturn]] void child(const std::string& path, const ConformOptions& options, Shared* shared, int fd, int chatter) {
  // A process group of its own (a module's kill(0, ...) reaches only it and what it
  // forks, all killed with it), killed when the harness dies.
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The module's own output (and a sanitizer's report on it) is neither the result nor
  // the harness's one error line: the parent keeps its end, to quote a SUMMARY line.
  ::dup2(chatter, 1);
  ::dup2(chatter, 2);
  ::close(chatter);
  std::atexit(called_exit);
  auto fail = [fd](const std::string& why) {
    write_all(fd, nlohmann::json{{"load_error", why}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    leave();
  };
  // A bare name is the file here, not a library of the search path (dlopen's own reading).
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void* lib = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {  // dlerror() says "PATH: why": the line names the path already
    const char* e = ::dlerror();
    std::string why = e ? e : "dlopen failed";
    if (why.rfind(file + ": ", 0) == 0) why.erase(0, file.size() + 2);
    fail(why);
  }
  auto* entry = reinterpret_cast<neffbar_module_entry>(::dlsym(lib, NEFFBAR_MODULE_ENTRY));
  if (!entry) fail("no " NEFFBAR_MODULE_ENTRY " symbol: not a neffbar module (neffbar_module.h)");
  const neffbar_module* m = entry();
  if (!m) fail(NEFFBAR_MODULE_ENTRY "() returned a null module");
  if (m->abi_version != NEFFBAR_MODULE_ABI_VERSION)
    fail("ABI version " + std::to_string(m->abi_version) + ", this neffbar speaks version " +
         std::to_string(NEFFBAR_MODULE_ABI_VERSION));
  if (!m->name) fail("the module has no name");
  copy_into(shared->name, sizeof shared->name, std::string_view(m->name, ::strnlen(m->name, sizeof shared->name)));
  shared->loaded.store(1);
  SharedSite site(shared);
  try {
    const Conformance c = conform(*m, options, &site);
    write_all(fd, c.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  } catch (const std::exception& e) {
    write_all(fd, nlohmann::json{{"harness_error", e.what()}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  leave();
}

std::string signal_text(int sig) {
  for (const auto& [n, name] : {std::pair{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},
                                {SIGFPE, "SIGFPE"}, {SIGILL, "SIGILL"}, {SIGKILL, "SIGKILL"}, {SIGTRAP, "SIGTRAP"}})
    if (n == sig) return name;
  return "signal " + std::to_string(sig);
}

}  // namespace

Hosted conform_hosted(const std::string& path, const ConformOptions& options, double call_timeout) {
  void* mem = ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return {std::nullopt, std::string("cannot map the child's shared page: ") + std::strerror(errno)};
  auto* shared = new (mem) Shared;
  int fds[2], out[2];
  if (::pipe(fds) != 0) {
    ::munmap(mem, sizeof(Shared));
    return {std::nullopt, std::string("cannot make a pipe: ") + std::strerror(errno)};
  }
  if (::pipe(out) != 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    ::munmap(mem, sizeof(Shared));
    return {std::nullopt, std::string("cannot make a pipe: ") + std::strerror(errno)};
  }
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    for (const int fd : {fds[0], fds[1], out[0], out[1]}) ::close(fd);
    ::munmap(mem, sizeof(Shared));
    return {std::nullopt, std::string("cannot fork: ") + std::strerror(errno)};
  }
  if (pid == 0) {
    ::close(fds[0]);
    ::close(out[0]);
    child(path, options, shared, fds[1], out[1]);
  }
  ::setpgid(pid, pid);  // as the child does: whichever runs first
  ::close(fds[1]);
  ::close(out[1]);
  std::string text, chatter;  // the report; the module's output, its last 64 KiB
  bool chatter_open = true;
  std::uint64_t seen = shared->calls.load();
  auto last = std::chrono::steady_clock::now();
  bool hung = false;
  for (;;) {
    pollfd p[2]{{fds[0], POLLIN, 0}, {chatter_open ? out[0] : -1, POLLIN, 0}};
    const int ready = ::poll(p, 2, 100);
    if (ready > 0 && p[1].revents != 0) {
      char buf[65536];
      const ssize_t n = ::read(out[0], buf, sizeof buf);
      if (n > 0) {
        chatter.append(buf, static_cast<std::size_t>(n));
        if (chatter.size() > (1u << 16)) chatter.erase(0, chatter.size() - (1u << 16));
      } else if (n == 0 || errno != EINTR) {
        chatter_open = false;
      }
    }
    if (ready > 0 && p[0].revents != 0) {
      char buf[65536];
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n > 0) {
        text.append(buf, static_cast<std::size_t>(n));
        continue;
      }
      if (n == 0) break;  // the child closed its end: it exited
      if (errno != EINTR) break;
    }
    const std::uint64_t now_calls = shared->calls.load();
    const auto now = std::chrono::steady_clock::now();
    if (now_calls != seen) {
      seen = now_calls;
      last = now;
    } else if (std::chrono::duration<double>(now - last).count() > call_timeout) {
      hung = true;
      ::kill(pid, SIGKILL);
      break;
    }
  }
  ::close(fds[0]);
  ::close(out[0]);
  // A sanitizer's one-line summary of what the module did, to quote with the fault.
  std::string summary;
  if (const auto at = chatter.rfind("SUMMARY: "); at != std::string::npos)
    summary = " (" + chatter.substr(at, std::min(chatter.find('\n', at), at + 200) - at) + ")";
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // What the module forked and left running is a finding, and is killed with its group.
  const bool left_behind = ::kill(-pid, 0) == 0;
  ::kill(-pid, SIGKILL);
  const bool loaded = shared->loaded.load() != 0;
  const std::string where = std::string(shared->op) + " on " + shared->input;
  Hosted h;
  if (hung || WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0) || text.empty()) {
    std::string secs = std::to_string(call_timeout);  // "0.500000" -> "0.5"
    secs.erase(secs.find_last_not_of('0') + 1);
    if (secs.back() == '.') secs.pop_back();
    const std::string what = hung ? "hung (no return in " + secs + " s)"
                             : WIFSIGNALED(status)                     ? "crashed (" + signal_text(WTERMSIG(status)) + ")"
                             : WEXITSTATUS(status) == kCalledExit ? "called exit()"
                                                                 : "exited (status " + std::to_string(WEXITSTATUS(status)) + ")";
    if (!loaded) {
      h.load_error = "the module " + what + " while loading" + summary;
    } else {
      Conformance c;
      c.module = shared->name;
      c.seed = options.seed;
      const bool silent = !hung && WIFEXITED(status) && WEXITSTATUS(status) == 0;  // no report, yet a clean exit
      c.fault = silent ? "left no report (it closed the harness's pipe, or exited with status 0); its last call: " + where
                : shared->calls.load() ? what + " in " + where + summary
                                       : what + " before its first call" + summary;
      h.result = c;
    }
  } else {
    try {
      const auto j = nlohmann::ordered_json::parse(text);
      if (j.contains("load_error")) h.load_error = j["load_error"].get<std::string>();
      else if (j.contains("harness_error")) h.load_error = "harness: " + j["harness_error"].get<std::string>();
      else h.result = Conformance::from_json(j);
    } catch (const std::exception& e) {  // the module wrote into the report: a finding
      Conformance c;
      c.module = shared->name;
      c.seed = options.seed;
      c.fault = std::string("garbled the harness's report (") + e.what() + ")";
      h.result = c;
    }
    if (h.result && left_behind && h.result->fault.empty())
      h.result->fault = "left processes running after it returned (it forked)";
  }
  shared->~Shared();
  ::munmap(mem, sizeof(Shared));
  return h;
}

}  // namespace neffbar::cli
