// Temporaries that an interruption must not leave behind.  While a SignalCleanup lives,
// SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ and SIGQUIT first remove every path registered with it (the
// files, then the directories, each with one unlink/rmdir: async-signal-safe), then take
// their default action (the process ends by that signal, as it would have).  A signal
// ignored before it stays ignored.  The handlers before it are restored when it is
// destroyed.  One at a time in a process.
#pragma once

#include <string>

namespace neffbar::cli {

class SignalCleanup {
 public:
  SignalCleanup();
  ~SignalCleanup();
  SignalCleanup(const SignalCleanup&) = delete;
  SignalCleanup& operator=(const SignalCleanup&) = delete;

  // mkstemp / mkdtemp on `templ` (its XXXXXX replaced), registered with signals blocked
  // so that no moment leaves the temporary made but unregistered.  -1 / false and errno
  // when it could not be made.
  int make_temp_file(std::string& templ);
  bool make_temp_directory(std::string& templ);
  // A path about to be made: registered first, so that no moment leaves it unregistered.
  void add_file(const std::string& path);
  // The paths are no longer temporaries (renamed into place, or removed): forgotten.
  void forget_all();
  // What a signal does first, for a command that failed: every registered path that is
  // still there removed (each one unlink/rmdir), then forgotten.  Only for paths that no
  // longer name an output (after the outputs were taken back).
  void remove_all();
};

}  // namespace neffbar::cli
