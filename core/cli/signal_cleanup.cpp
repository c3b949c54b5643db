// Temporaries removed on SIGINT/SIGTERM/SIGHUP/SIGPIPE (signal_cleanup.h).
#include "signal_cleanup.h"

#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <csignal>
#include <vector>

namespace neffbar::cli {
namespace {

// SIGXFSZ: a file past `ulimit -f`; SIGQUIT: ^\.
constexpr std::array<int, 6> kSignals{SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ, SIGQUIT};

// The registered paths.  Changed only with kSignals blocked, so the handler never sees
// a vector half-way through a change.
std::vector<std::string>* g_files = nullptr;
std::vector<std::string>* g_dirs = nullptr;
std::array<struct sigaction, kSignals.size()> g_before{};

void remove_all_registered() {
  if (g_files != nullptr) {
    for (const std::string& f : *g_files) ::unlink(f.c_str());
  }
  if (g_dirs != nullptr) {
    for (auto d = g_dirs->rbegin(); d != g_dirs->rend(); ++d) ::rmdir(d->c_str());
  }
}

extern "C" void on_signal(int sig) {
  remove_all_registered();
  ::signal(sig, SIG_DFL);  // then what the signal would have done: end the process
  ::raise(sig);
}

// Blocks kSignals for its lifetime.
class Blocked {
 public:
  Blocked() {
    sigset_t set;
    sigemptyset(&set);
    for (const int s : kSignals) sigaddset(&set, s);
    ::sigprocmask(SIG_BLOCK, &set, &old_);
  }
  ~Blocked() { ::sigprocmask(SIG_SETMASK, &old_, nullptr); }
  Blocked(const Blocked&) = delete;
  Blocked& operator=(const Blocked&) = delete;

 private:
  sigset_t old_{};
};

}  // namespace

SignalCleanup::SignalCleanup() {
  const Blocked blocked;
  g_files = new std::vector<std::string>();
  g_dirs = new std::vector<std::string>();
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (const int s : kSignals) sigaddset(&sa.sa_mask, s);  // one cleanup at a time
  for (std::size_t i = 0; i < kSignals.size(); ++i) {
    ::sigaction(kSignals[i], nullptr, &g_before[i]);
    // An ignored signal stays ignored (nohup; a parent that ignores SIGPIPE): it ends nothing.
    if (g_before[i].sa_handler != SIG_IGN) ::sigaction(kSignals[i], &sa, nullptr);
  }
}

SignalCleanup::~SignalCleanup() {
  const Blocked blocked;
  for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &g_before[i], nullptr);
  delete g_files;
  delete g_dirs;
  g_files = nullptr;
  g_dirs = nullptr;
}

void SignalCleanup::add_file(const std::string& path) {
  const Blocked blocked;
  g_files->push_back(path);
}

int SignalCleanup::make_temp_file(std::string& templ) {
  const Blocked blocked;
  const int fd = ::mkstemp(templ.data());
  if (fd >= 0) g_files->push_back(templ);
  return fd;
}

bool SignalCleanup::make_temp_directory(std::string& templ) {
  const Blocked blocked;
  if (::mkdtemp(templ.data()) == nullptr) return false;
  g_dirs->push_back(templ);
  return true;
}

void SignalCleanup::forget_all() {
  const Blocked blocked;
  g_files->clear();
  g_dirs->clear();
}

void SignalCleanup::remove_all() {
  const Blocked blocked;
  remove_all_registered();
  g_files->clear();
  g_dirs->clear();
}

}  // namespace neffbar::cli
