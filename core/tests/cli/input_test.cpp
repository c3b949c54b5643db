// End-to-end, as an adversary would feed the CLI its inputs (input.cpp), through the
// real binary (cli_fixture.h).  Hostile objects first: a directory, a missing,
// unreadable or empty path, a device, FIFO or pipe read with a bound that fits in little
// memory, and JSON that is not strictly JSON; each gives one escaped `neffbar:` line and
// the documented exit code.  Then slow and partial inputs (README "What a script may
// rely on": bounded reads, one line per error, nothing written on error).  Every kind of input the commands read
// (a FIFO, a pipe named /dev/stdin, stdin `-` from a pipe, the same with a non-blocking
// stdin, a regular file) is fed by a writer thread that sends one byte at a time with
// pauses, or that stops part-way and closes, to every command that reads one: a config
// image (decode, lint, check-configs) and a JSON log (encode).  The real binary runs
// (NEFFBAR_BIN, as in the other end-to-end tests), started with posix_spawn so that the
// test decides which descriptors it holds: every descriptor of the test is close-on-exec, so the only
// writer is the test's thread.
//  - Slow (all bytes, then the end held open a moment): a FIFO, pipe or stdin is waited
//    for up to its end, then gives exactly the exit code and stdout the same bytes give
//    from a regular file.  Deterministic: the writer end is open before the command
//    starts (a FIFO: the test holds it O_RDWR, which never blocks and counts as a
//    writer), so the reader cannot race past it; and a FIFO's end is closed only once
//    the command holds it open (bytes in a FIFO nobody holds open are dropped: a slow
//    start, as under ASan, would otherwise read an empty FIFO).
//  - Cut (part of the bytes, then closed): exit 1, one `neffbar:` line naming the input,
//    nothing on stdout; a config's line says how many bytes came, so every byte sent
//    before the close was read, and none was taken for a complete input.
//  - A regular file is what it holds when it is read: one still being appended to is
//    not waited for (nothing says when its writer is done), so it gives the error of the
//    bytes it held, or the complete result if the writer won; never anything else.
//  - A FIFO whose writer opens it only after the command has read it as empty is not a
//    slow input but an empty one: "got 0 bytes" (AFifoNobodyWritesToIsEmptyNotAWait).
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <regex>
#include <thread>
#include <vector>

#include "cli_fixture.h"

extern char** environ;

namespace {

using namespace neffbar_e2e;
using namespace std::chrono_literals;

enum class Kind { Fifo, Pipe, Stdin, StdinNonBlocking, File };
constexpr Kind kKinds[] = {Kind::Fifo, Kind::Pipe, Kind::Stdin, Kind::StdinNonBlocking, Kind::File};

std::string kind_name(Kind k) {
  switch (k) {
    case Kind::Fifo: return "fifo";
    case Kind::Pipe: return "pipe (/dev/stdin)";
    case Kind::Stdin: return "stdin (-)";
    case Kind::StdinNonBlocking: return "non-blocking stdin (-)";
    case Kind::File: return "regular file";
  }
  return "?";
}

// Sends bytes to fd one write(2) a byte, with up to 300 pauses of 0.25 ms in between
// (after every byte of a config, every 9th of a log: ~0.1 s in all) and 5 ms ones at
// the first byte, the middle and before the last one, where a reader that took a pause
// for the end would stop; then holds the end open 20 ms and closes it.  Stops early
// when the reader is gone (`stop`, or EPIPE: SIGPIPE is blocked in this thread only).
// Whether process `pid` holds `path` open (a FIFO's buffered bytes are dropped when its
// last descriptor closes: the writer keeps its end until the reader has opened it).
bool holds_open(pid_t pid, const std::string& path) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    std::error_code rc;
    if (fs::read_symlink(e.path(), rc) == path) return true;
  }
  return false;
}

void trickle(int fd, std::string bytes, const std::atomic<bool>& stop, std::function<bool()> reader_there) {
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
  const std::size_t stride = std::max<std::size_t>(1, bytes.size() / 300);
  std::this_thread::sleep_for(10ms);  // the reader meets an empty input with a writer first
  for (std::size_t i = 0; i < bytes.size() && !stop; ++i) {
    ssize_t n = 0;
    do {
      n = ::write(fd, &bytes[i], 1);
    } while (n < 0 && errno == EINTR);
    if (n != 1) break;
    if (i == 0 || i == bytes.size() / 2 || i + 2 == bytes.size()) {
      std::this_thread::sleep_for(5ms);
    } else if (i % stride == 0) {
      std::this_thread::sleep_for(250us);
    }
  }
  if (!stop) std::this_thread::sleep_for(20ms);  // the end comes later than the last byte
  while (!stop && !reader_there()) std::this_thread::sleep_for(1ms);
  ::close(fd);
}

// The result without what differs from run to run: check-configs' "work:" line ends
// with the seconds the search took.
std::string same_run(std::string out) {
  static const std::regex seconds(", [0-9.e+-]+ s\n");
  return std::regex_replace(out, seconds, ", (seconds) s\n");
}

class Input : public Cli {};

TEST_F(Input, ADirectoryIsOneLineNamingIt) {
  const std::string d = dir_.string();
  for (const std::string& args : std::vector<std::string>{"decode '" + d + "'", "lint '" + d + "'", "encode '" + d + "'",
                                 "check-configs '" + config().string() + "' '" + d + "'", "decode /"}) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_TRUE(one_error_line(r.err)) << args << ": " << r.err;
    EXPECT_NE(r.err.find("a directory"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
  EXPECT_NE(run("decode '" + d + "'").err.find(d), std::string::npos) << "names the directory";
}

TEST_F(Input, MissingUnreadableAndEmptyPaths) {
  const Outcome gone = run("decode '" + (dir_ / "vanished.bin").string() + "'");
  EXPECT_EQ(gone.exit_code, 1);
  EXPECT_TRUE(one_error_line(gone.err)) << gone.err;
  EXPECT_NE(gone.err.find("vanished.bin"), std::string::npos) << gone.err;
  EXPECT_NE(gone.err.find("No such file or directory"), std::string::npos) << gone.err;
  // /proc/self/mem opens, but reading its first page fails (EIO): a read error, named.
  const Outcome eio = run("decode /proc/self/mem");
  EXPECT_EQ(eio.exit_code, 1) << eio.out;
  EXPECT_TRUE(one_error_line(eio.err)) << eio.err;
  EXPECT_NE(eio.err.find("/proc/self/mem"), std::string::npos) << eio.err;
  const Outcome empty = run("decode ''");
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_TRUE(one_error_line(empty.err)) << empty.err;
}

TEST_F(Input, DevicesFifosAndPipesAreReadWithABound) {
  const Outcome zero = run("decode /dev/zero");
  EXPECT_EQ(zero.exit_code, 1);
  EXPECT_TRUE(one_error_line(zero.err)) << zero.err;
  EXPECT_NE(zero.err.find("expected 296 bytes (0x128), got more than 296 bytes"), std::string::npos) << zero.err;
  const Outcome json = run("encode /dev/zero");
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_NE(json.err.find("at most 1048576 bytes (1 MiB), got more than 1048576 bytes"), std::string::npos)
      << json.err;
  const Outcome null = run("decode /dev/null");
  EXPECT_EQ(null.exit_code, 1);
  EXPECT_NE(null.err.find("got 0 bytes"), std::string::npos) << null.err;
  // A FIFO nobody writes to: no hang (timeout would exit 124), an empty input.
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Outcome f = shell("timeout 20 \"$NB\" decode '" + fifo.string() + "'");
  EXPECT_EQ(f.exit_code, 1) << f.err;
  EXPECT_NE(f.err.find("got 0 bytes"), std::string::npos) << f.err;
  // A pipe with a writer is read like any file (what `<(cat cfg.bin)` hands over).
  const Outcome piped = shell("cat '" + config().string() + "' | \"$NB\" decode /dev/stdin");
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, run("decode '" + config().string() + "'").out);
  // A large regular file is refused by its size, not read whole.
  const fs::path big = dir_ / "big.bin";
  ASSERT_EQ(::truncate(file("big.bin", "").c_str(), 100'000'000), 0);
  const Outcome b = run("decode '" + big.string() + "'");
  EXPECT_EQ(b.exit_code, 1);
  EXPECT_NE(b.err.find("got 100000000 bytes"), std::string::npos) << b.err;
}

TEST_F(Input, BoundedReadsFitInLittleMemory) {
  if (kSanitized) GTEST_SKIP() << "ulimit -v cannot work under AddressSanitizer";
  // 200 MB of address space: reading /dev/zero whole would need more; a bounded read needs
  // 0x129 bytes (decode) or 1 MiB + 1 (encode).
  for (const char* args : {"decode /dev/zero", "lint /dev/zero", "encode /dev/zero", "check-configs /dev/zero"}) {
    const Outcome r = shell(std::string("ulimit -v 200000; exec \"$NB\" ") + args);
    EXPECT_EQ(r.exit_code, 1) << args << ": " << r.err;
    EXPECT_TRUE(one_error_line(r.err)) << args << ": " << r.err;
  }
}

TEST_F(Input, StrictJson) {
  std::string json = slurp(log());
  const auto at = json.find("\"queue_id\": 0");
  ASSERT_NE(at, std::string::npos) << json;
  std::string dup = json;
  dup.insert(at, "\"queue_id\": 3, ");
  const Outcome d = run("encode '" + file("dup.json", dup).string() + "'");
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_TRUE(one_error_line(d.err)) << d.err;
  EXPECT_NE(d.err.find("$.device_barrier.queue_id: expected each key once, got a duplicate key"), std::string::npos)
      << d.err;
  // Trailing bytes of any kind: a NUL and garbage, text, a second document.
  for (const std::string& tail : {std::string("\0garbage", 8), std::string("x"), std::string("{}")}) {
    const Outcome t = run("encode '" + file("tail.json", json + tail).string() + "'");
    EXPECT_EQ(t.exit_code, 1) << tail;
    EXPECT_TRUE(one_error_line(t.err)) << t.err;
    EXPECT_TRUE(t.out.empty());
  }
  // Trailing white space is JSON.
  EXPECT_EQ(run("encode '" + file("ws.json", json + "\n\n  ").string() + "'").exit_code, 0);
}

class SlowInput : public Cli {
 protected:
  // Runs `neffbar <command> <path>` with `in` as its stdin (-1: /dev/null), waiting at
  // most 60 s (then the command is killed and the test fails: a hang).
  Outcome spawn(const std::string& command, const std::string& path, int in, const std::function<void()>& exited,
                std::atomic<pid_t>* started = nullptr) {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (in >= 0) {
      posix_spawn_file_actions_adddup2(&fa, in, STDIN_FILENO);
    } else {
      posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    }
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string bin = NEFFBAR_BIN, cmd = command, file = path;
    char* argv[] = {bin.data(), cmd.data(), file.data(), nullptr};
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, NEFFBAR_BIN, &fa, nullptr, argv, environ);
    if (started != nullptr && rc == 0) *started = pid;
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
      ADD_FAILURE() << "posix_spawn: " << std::strerror(rc);
      exited();
      return Outcome{-1, "", ""};
    }
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << command << " " << path << ": still running after 60 s";
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(1ms);
    }
    exited();
    return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }

  // `command` on `bytes` from a regular file written whole: the result to compare with.
  Outcome whole(const std::string& command, const std::string& bytes) {
    return spawn(command, file("whole.in", bytes).string(), -1, [] {});
  }

  // `command` on the first `upto` of `bytes` (all: the slow feed, less: the cut), given
  // as `kind`.  Returns the outcome and the path the command was given.
  std::pair<Outcome, std::string> fed(Kind kind, const std::string& command, const std::string& bytes, std::size_t upto) {
    const std::string sent = bytes.substr(0, upto);
    std::atomic<bool> stop{false};
    std::atomic<pid_t> child{0};
    std::thread writer;
    int child_in = -1, write_end = -1;
    std::string path;
    switch (kind) {
      case Kind::Fifo: {
        const fs::path fifo = dir_ / "in.fifo";
        fs::remove(fifo);
        if (::mkfifo(fifo.c_str(), 0600) != 0) ADD_FAILURE() << "mkfifo: " << std::strerror(errno);
        // O_RDWR: open at once, with no reader yet, and a writer from now on.
        write_end = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
        path = fifo.string();
        break;
      }
      case Kind::Pipe:
      case Kind::Stdin:
      case Kind::StdinNonBlocking: {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) ADD_FAILURE() << "pipe2: " << std::strerror(errno);
        // A parent may hand over a pipe it made non-blocking: the file description
        // (and its O_NONBLOCK) is shared with the command's stdin.
        if (kind == Kind::StdinNonBlocking) ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
        child_in = fds[0];
        write_end = fds[1];
        path = kind == Kind::Pipe ? "/dev/stdin" : "-";
        break;
      }
      case Kind::File: {
        // Half the bytes are there when the command starts; the rest is appended while
        // it runs.  A cut file is just short.
        const std::size_t there = upto == bytes.size() ? upto / 2 : upto;
        path = file("in.bin", sent.substr(0, there)).string();
        if (there < upto) write_end = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
        break;
      }
    }
    if (kind != Kind::File || write_end >= 0) {
      EXPECT_GE(write_end, 0) << kind_name(kind) << ": " << std::strerror(errno);
      const std::string rest = kind == Kind::File ? sent.substr(sent.size() / 2) : sent;
      std::function<bool()> reader_there = [] { return true; };
      if (kind == Kind::Fifo) reader_there = [&child, path] { return child > 0 && holds_open(child, path); };
      writer = std::thread(trickle, write_end, rest, std::cref(stop), reader_there);
    }
    Outcome r = spawn(
        command, path, child_in,
        [&] {
          stop = true;
          if (writer.joinable()) writer.join();
        },
        &child);
    if (child_in >= 0) ::close(child_in);
    return {std::move(r), path == "-" ? "stdin" : path};
  }

  // Every kind, slow and cut, against the regular file's result.  `cut_at`: where the
  // cut feed closes; `config`: the error line then says how many bytes came.
  void check_command(const std::string& command, const std::string& bytes, std::size_t cut_at, bool config) {
    const Outcome ref = whole(command, bytes);
    ASSERT_NE(ref.exit_code, 1) << command << ": the whole input is valid: " << ref.err;
    for (const Kind kind : kKinds) {
      const std::string what = command + " from a " + kind_name(kind);
      {
        const auto [r, named] = fed(kind, command, bytes, bytes.size());
        if (kind == Kind::File && r.exit_code == 1) {
          // Read before its writer was done: the error of the bytes it held.
          EXPECT_TRUE(one_error_line(r.err)) << what << ": " << r.err;
          EXPECT_NE(r.err.find(named), std::string::npos) << what << ": " << r.err;
          EXPECT_EQ(r.out, "") << what;
        } else {
          EXPECT_EQ(r.exit_code, ref.exit_code) << what << ", slow: " << r.err;
          EXPECT_EQ(same_run(r.out), same_run(ref.out)) << what << ", slow";
          if (ref.err.empty()) {
            EXPECT_EQ(r.err, "") << what << ", slow";
          }
        }
      }
      const auto [r, named] = fed(kind, command, bytes, cut_at);
      EXPECT_EQ(r.exit_code, 1) << what << ", cut after " << cut_at << " bytes: " << r.err;
      EXPECT_TRUE(one_error_line(r.err)) << what << ", cut: " << r.err;
      EXPECT_NE(r.err.find(named), std::string::npos) << what << ", cut: " << r.err;
      EXPECT_EQ(r.out, "") << what << ", cut: nothing on stdout";
      if (config) {
        EXPECT_NE(r.err.find("got " + std::to_string(cut_at) + " bytes"), std::string::npos) << what << ": " << r.err;
      }
    }
  }
};

// One byte short: the cut that comes closest to a config.
TEST_F(SlowInput, ConfigForDecode) { check_command("decode", random_image(7), 0x127, true); }
TEST_F(SlowInput, ConfigForLint) { check_command("lint", random_image(7), 0x127, true); }
TEST_F(SlowInput, ConfigForCheckConfigs) { check_command("check-configs", random_image(7), 0x127, true); }

// A full log, cut just before its closing brace: the longest prefix that is not the log
// (what follows the brace is white space, which a shorter read may drop: it is the
// same JSON).
TEST_F(SlowInput, JsonLogForEncode) {
  const Outcome log = run("decode --full '" + file("cfg.bin", random_image(7)).string() + "'");
  ASSERT_EQ(log.exit_code, 0) << log.err;
  const std::size_t brace = log.out.rfind('}');
  ASSERT_NE(brace, std::string::npos);
  check_command("encode", log.out, brace, false);
  EXPECT_EQ(whole("encode", log.out).out, random_image(7)) << "the result compared with is the config";
}

// The FIFO race, documented as what it is: a writer that opens the FIFO after the
// command has read it with no writer there comes too late.  The command read an empty
// input (one line, "got 0 bytes"), and the late writer is told nobody reads (ENXIO).
TEST_F(SlowInput, AFifoNobodyWritesToIsEmptyNotAWait) {
  const fs::path fifo = dir_ / "late.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Outcome r = spawn("decode", fifo.string(), -1, [] {});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(one_error_line(r.err)) << r.err;
  EXPECT_NE(r.err.find(fifo.string() + ": wrong length"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("got 0 bytes"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  const int late = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  EXPECT_EQ(late, -1);
  EXPECT_EQ(errno, ENXIO) << std::strerror(errno);
  if (late >= 0) ::close(late);
}

// A read error on stdin is named, not taken for the end of a short input.
TEST_F(SlowInput, AStdinThatCannotBeReadIsNamed) {
  const int root = ::open("/", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(root, 0);
  const Outcome r = spawn("decode", "-", root, [] {});
  ::close(root);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(one_error_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("stdin: I/O error: expected readable input, got Is a directory"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

}  // namespace
