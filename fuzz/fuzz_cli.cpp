// cli: a whole command line, run in process through neffbar::cli::run (what main()
// calls), with std::cin, std::cout and std::cerr redirected to memory.
//
// Input: argv words, one per line ('\n'), up to the first 0 byte; the bytes after it
// are stdin.  At most 24 words of at most 64 bytes.  Skipped, so that a run stays a
// function of the input and bounded by design: words with '/' (no file outside the
// working directory), `-o`/`--output` and `--html` but `--html` before an output word
// (no file written anywhere but the scratch folder below), `hypotheses` without
// `--small` and `--full` (the whole matrix and table take seconds by design).
// Sampled (fuzz_check.h's SlowOracleSample: one distinct input in 1024 while fuzzing,
// every input under NEFFBAR_FUZZ_EVERY=1, the ctest replay), so that the target keeps
// >= 1,000 executions per CPU second: `hypotheses --small` (768 scenarios, ~4 s under
// ASan, and a function of its flags: mutants add nothing but its error paths, which
// the other inputs reach) runs only for the sampled inputs; `check` and `check-configs`
// get `--max-seconds 2` in place of any given for the sampled inputs and
// `--max-seconds 0.05` for the others (their time budget, every engine and phase: the
// explicit search may run 300 s, the persistent engine ~0.5 s on 64 chips; a budget
// that runs out is a BUDGET verdict, exit 4, which the oracle checks like any other).
// check-configs finds the symmetry of interchangeable configs with nauty, as main() sets
// it up (use_nauty_automorphisms; the fuzz build links nauty where it is installed).
//
// File-system objects, as hostile as a user's, all under one folder a process
// (/tmp/neffbar_fuzz_cli_<pid>, removed at exit): these words stand for
//   @dir       an empty directory (the scratch folder, emptied after every run)
//   @missing   a path that does not exist    @null  /dev/null     @zero  /dev/zero (endless)
//   @fifo      a FIFO beside the scratch folder that a slow writer feeds with the stdin
//              bytes, then closes (FifoWriter below); every @fifo of an input names it
//   @stdout-full  no word: stdout fails on every write, as on a full disk
// Output words, `-o PATH` (or PATH alone right after `--html`), made for the run that
// names them in the scratch folder:
//   @out-full  /dev/full (every write fails)   @out-dir  the scratch folder itself
//   @out-file  a file that does not exist yet  @out-existing  an existing file (0640)
//   @out-busy  a folder holding a file and no manifest.json (compose refuses it)
//   @out-compose  a copy of @compose (an earlier compose's output, which compose replaces)
//   @out-link  a symbolic link to a file beside it (the result goes where it points)
// The reference's files, made once a process by running `compose` in process
// (Reference below) and never written: @config one leader's image, @log its full JSON
// log, @compose the output of `compose --chips 2 --leaders 2 --host-cc`, @compose-logs
// the same with --logs, @compose2 with --wiring counting (the same names, other bytes),
// @manifest @compose's manifest.json, @images a folder of two images and no manifest;
// and spoilt copies of @compose: @manifest-dup (a key twice in the manifest),
// @manifest-deep (its "format" 100,000 nested arrays: 200 KB), @manifest-fewer (chip 0's driver
// context from a 1-leader compose), @manifest-missing (an image it names removed),
// @images-non-utf8 (@images with one image named "\xff.bin"), @fifo-compose (its
// manifest.json a link to the FIFO: the input's stdin is the manifest).  For conform:
// @module the C11 port's shared object, @module-trap the port with a trap,
// @module-crash, @module-hang and @module-exit hostile ones (a missing path where the
// build has no modules, as OSS-Fuzz's); conform's --seconds is replaced as check's
// --max-seconds is (0.2 s sampled, 0.01 s else), its --call-timeout by 0.2 s; @vectors a
// folder of the test vectors (make_vectors' files, as corpus/vectors holds them).
//
// Oracle (the CLI's conventions, core/cli/exit.h and README "The CLI"):
//  - the exit code is one of 0 ok, 1 invalid input, 2 usage, 3 lint found, 4 failing,
//    5 diff found differences;
//  - exit 1 or 2: nothing on stdout, and exactly one line on stderr, "neffbar: ...",
//    that names an argv word, an option or stdin;
//  - exit 0, 3, 4 or 5 (--help, --version included): something on stdout, unless the
//    result went to -o or is a clean lint's or an equal diff's (empty);
//  - a command line naming @manifest-dup (but --help and --version) is exit 1 or 2: a
//    manifest that holds a key twice is refused, as every JSON input (strict inputs);
//  - the command ends within 10 s: libFuzzer's -timeout (cli.options) while fuzzing; not
//    asserted in the ctest replay, where the machine's load would decide it.
#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <mutex>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "app.h"
#include "cli_objects.h"
#include "neffbar/module/vectors.h"
#include "exit.h"
#include "fuzz_check.h"
#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"

namespace {

struct Redirect {
  std::streambuf *in, *out, *err;
  Redirect(std::istream& i, std::ostream& o, std::ostream& e)
      : in(std::cin.rdbuf(i.rdbuf())), out(std::cout.rdbuf(o.rdbuf())), err(std::cerr.rdbuf(e.rdbuf())) {}
  ~Redirect() {
    std::cin.rdbuf(in);
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    std::cin.clear();
  }
};

// The error line names a word as the CLI prints it: escaped (exit.h), '' when empty; or,
// for a manifest (a word ending in .json), a file beside it, which it names.
bool names_something(std::string_view line, const std::vector<std::string>& words) {
  for (const char* name : {"stdin", "stdout", "--"}) {
    if (line.find(name) != std::string_view::npos) return true;
  }
  for (std::size_t i = 1; i < words.size(); ++i) {  // words[0] is the program name
    const std::string shown = words[i].empty() ? "''" : neffbar::cli::escape(words[i]);
    if (line.find(shown) != std::string_view::npos) return true;
    const std::string dir = std::filesystem::path(words[i]).parent_path().string();
    if (words[i].ends_with(".json") && !dir.empty() && line.find(neffbar::cli::escape(dir + "/")) != std::string_view::npos) return true;
  }
  return false;
}

// A stream buffer that takes nothing, like a file on a full disk.
struct FullBuf : std::streambuf {
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

// The folder of every object of the target, made once per process and removed at exit
// (held by a pointer that is never freed, so the exit handler cannot outlive it): the
// FIFO, scratch() and reference() are in it.
const std::filesystem::path& root() {
  static const auto* dir = [] {
    auto* d = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                        ("neffbar_fuzz_cli_" + std::to_string(::getpid())));
    std::filesystem::create_directories(*d);
    return d;
  }();
  static const int registered = std::atexit([] {
    std::error_code ignored;
    std::filesystem::remove_all(*dir, ignored);
  });
  (void)registered;
  return *dir;
}

// The folder behind @dir and every output word: empty when a run starts (empty_scratch).
const std::filesystem::path& scratch() {
  static const auto* dir = [] {
    auto* d = new std::filesystem::path(root() / "dir");
    std::filesystem::create_directories(*d);
    return d;
  }();
  return *dir;
}

// @fifo: a FIFO in the root folder that a writer thread feeds with the input's stdin
// bytes in a few small writes with short pauses, then closes.  What the CLI reads from
// it, and in how many reads, is a function of the input, never of the timing (so the
// coverage is too), and nothing waits longer than the command runs:
//  - the write end is opened O_RDWR before the command runs (that open never blocks,
//    and counts as a writer), so a reader cannot meet "no writer yet" and read nothing;
//  - four writes: 1 byte, then the rest in three, each after the one before was read
//    whole (the pipe is empty) and a pause (0.1 ms: 0.3 ms a run at most): a reader
//    gets one write a read(2) however late it opens or reads (a write of up to 4 KiB,
//    as every one while fuzzing, is read whole or not at all);
//  - the writer closes when the last write was read whole (the reader then reads the
//    end), or when the command has returned; so a reader that opens late still gets
//    every byte, and one that stops early (an input over the limit) cannot make the end
//    come sooner: what it left stays for a later read of the same FIFO;
//  - nothing blocks: the writes are non-blocking (a write over 64 KiB, in the replay,
//    waits for room), and every wait (room, the pauses, the empty pipe: looked at every
//    10 us, then 20, ... up to 1 ms) is a ppoll(2) beside an eventfd that ends it when
//    the command has returned.  SIGPIPE cannot happen: the O_RDWR end is a reader too.
// A second read of the FIFO (the same path twice on the command line) continues the
// byte stream where the first reader stopped: the rest, or nothing once the first read
// reached the end.  Both ends are closed when the run ends.
//
// The FIFO and one writer thread are made at the first @fifo of a process and kept (the
// writer is held by a pointer that is never freed, as root()'s folder; the FIFO goes
// with that folder at exit): made a run, they cost more than the rest of the run
// (~0.8 ms of CPU under ASan): a thread started and joined ~1.6 ms, mkfifo(2) ~0.7 ms
// on a busy ext4 /tmp (its inode allocator steps over the inodes deleted in the last
// seconds: with an unlink a run, all of them).  Nothing of a run reaches the next: a
// FIFO's pipe and its bytes go when its last descriptor is closed, both ends are closed
// every run, and a run that finds bytes in the FIFO when it opens it aborts (a
// descriptor left open).  The writer's code, and finish()'s wait for it, are not
// coverage-instrumented (NEFFBAR_UNCOVERED): how often they look at the pipe or find
// the writer busy is the timing's, and libFuzzer would take those counts for features.
#if defined(__has_feature)
#if __has_feature(coverage_sanitizer)
// noinline: inlined into an instrumented caller, the body would be instrumented there.
#define NEFFBAR_UNCOVERED __attribute__((no_sanitize("coverage"), noinline))
#endif
#endif
#ifndef NEFFBAR_UNCOVERED
#define NEFFBAR_UNCOVERED
#endif
class FifoWriter {
 public:
  static constexpr std::size_t kWrites = 4;  // 1 byte, then the rest in three
  static constexpr long kPauseNs = 100'000;  // between two writes
  static constexpr long kDrainFirstNs = 10'000, kDrainMaxNs = 1'000'000;

  static FifoWriter& get() {
    static auto* writer = new FifoWriter;
    return *writer;
  }

  // The path @fifo stands for (beside scratch(), so that @dir stays empty).
  static std::filesystem::path path() { return root() / "fifo"; }

  // Opens the FIFO O_RDWR and hands that end (which the writer closes) and `bytes`
  // (alive until finish() returns) to the writer thread.
  void start(std::string_view bytes) {
    const int fd = ::open(path_.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
    neffbar::fuzz::require(fd >= 0, "@fifo: open the FIFO O_RDWR");
    int unread = -1;
    neffbar::fuzz::require(::ioctl(fd, FIONREAD, &unread) == 0 && unread == 0,
                           "@fifo: the FIFO opens empty (no descriptor of an earlier run holds bytes of it)");
    const std::lock_guard lock(mutex_);
    job_ = Job{fd, bytes};
    done_ = false;
    changed_.notify_all();
  }

  // The command has returned: the writer stops where it is and closes the FIFO's end.
  NEFFBAR_UNCOVERED void finish() {
    const std::uint64_t one = 1;
    (void)!::write(stop_, &one, sizeof one);
    std::unique_lock lock(mutex_);
    while (!done_) changed_.wait(lock);
    std::uint64_t reset = 0;
    (void)!::read(stop_, &reset, sizeof reset);  // back to 0 for the next run
  }

 private:
  struct Job {
    int fd;
    std::string_view bytes;
  };

  FifoWriter() : path_(path()), stop_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    neffbar::fuzz::require(stop_ >= 0, "@fifo: an eventfd for the writer thread");
    ::unlink(path_.c_str());  // left by an earlier process of the same id
    neffbar::fuzz::require(::mkfifo(path_.c_str(), 0600) == 0, "@fifo: mkfifo in the scratch folder");
    std::thread(&FifoWriter::run, this).detach();
  }

  // The writer thread: each job, for ever.
  NEFFBAR_UNCOVERED void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      while (!job_) changed_.wait(lock);
      const Job job = *job_;
      job_.reset();
      lock.unlock();
      feed(job.fd, job.bytes);
      lock.lock();
      done_ = true;
      changed_.notify_all();
    }
  }

  // Waits up to `ns` (< 0: no limit) for finish() or, when `out` >= 0, for room to
  // write to it; false once finish() was called.  EINTR (libFuzzer's -timeout alarm)
  // only ends the wait early.
  NEFFBAR_UNCOVERED bool wait_for(long ns, int out) const {
    pollfd fds[2] = {{stop_, POLLIN, 0}, {out, POLLOUT, 0}};
    const timespec t{0, ns};
    (void)::ppoll(fds, out >= 0 ? 2 : 1, ns < 0 ? nullptr : &t, nullptr);
    return (fds[0].revents & POLLIN) == 0;
  }

  // Waits `first` ns, then until the pipe is empty (a reader took every byte), looking
  // every 10 us, then 20, ... up to 1 ms; false once finish() was called.
  NEFFBAR_UNCOVERED bool drained(int fd, long first) const {
    if (first > 0 && !wait_for(first, -1)) return false;
    for (long ns = kDrainFirstNs;; ns = 2 * ns < kDrainMaxNs ? 2 * ns : kDrainMaxNs) {
      int unread = 0;
      if (::ioctl(fd, FIONREAD, &unread) != 0 || unread == 0) return true;
      if (!wait_for(ns, -1)) return false;
    }
  }

  NEFFBAR_UNCOVERED void feed(int fd, std::string_view bytes) const {
    const std::size_t rest = bytes.size() > 1 ? (bytes.size() - 1 + kWrites - 2) / (kWrites - 1) : 0;
    bool going = true;
    for (std::size_t at = 0, i = 0; going && at < bytes.size(); ++i) {
      if (i > 0) going = drained(fd, kPauseNs);
      const std::size_t end = std::min(bytes.size(), i == 0 ? 1 : at + rest);
      while (going && at < end) {
        const ssize_t n = ::write(fd, bytes.data() + at, end - at);
        if (n > 0) {
          at += static_cast<std::size_t>(n);
        } else if (n < 0 && errno == EAGAIN) {
          going = wait_for(-1, fd);  // a write over 64 KiB (the replay's inputs only)
        } else if (n == 0 || errno != EINTR) {
          going = false;  // cannot happen while fd is a reader too; end the feed
        }
      }
    }
    if (going) drained(fd, 0);
    ::close(fd);
  }

  const std::filesystem::path path_;
  const int stop_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<Job> job_;
  bool done_ = true;
};

// The FIFO fed for one run, from construction to destruction.
class SlowFifo {
 public:
  explicit SlowFifo(std::string_view bytes) { FifoWriter::get().start(bytes); }
  SlowFifo(const SlowFifo&) = delete;
  SlowFifo& operator=(const SlowFifo&) = delete;
  ~SlowFifo() { FifoWriter::get().finish(); }
};

// Runs the CLI in process on `words` with its streams redirected to memory (what the
// reference's objects are made with); its exit code.
int run_quietly(std::vector<std::string> words) {
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::istringstream in;
  std::ostringstream out, err;
  const Redirect r(in, out, err);
  return neffbar::cli::run(static_cast<int>(words.size()), argv.data());
}

void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}
std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The reference's files behind @config ... @fifo-compose (cli_objects.h), made once a
// process in root()/ref by running `compose` in process, then copied and spoilt one way
// each; no command writes there (every output word names scratch()).
class Reference {
  using O = neffbar::fuzz::CliObject;

 public:
  static const Reference& get() {
    static const auto* ref = new Reference;
    return *ref;
  }
  // The object's path: its word without the @ (a file with the suffix its readers go by).
  std::filesystem::path path(neffbar::fuzz::CliObject o) const {
    if (o == O::Manifest) return path(O::Compose) / "manifest.json";  // beside the files it names
    if (o == O::Module) return NEFFBAR_CLI_PORT_MODULE[0] ? NEFFBAR_CLI_PORT_MODULE : (dir_ / "no-module.so").string();
    if (o == O::ModuleTrap) return NEFFBAR_CLI_TRAP_MODULE[0] ? NEFFBAR_CLI_TRAP_MODULE : (dir_ / "no-module.so").string();
    if (o == O::ModuleCrash || o == O::ModuleHang || o == O::ModuleExit) {
      const std::string kind = o == O::ModuleCrash ? "crash" : o == O::ModuleHang ? "hang" : "exit";
      return NEFFBAR_CLI_HOSTILE_DIR[0] ? std::string(NEFFBAR_CLI_HOSTILE_DIR) + "/libneffbar_hostile_module_" + kind + ".so"
                                        : (dir_ / "no-module.so").string();
    }
    const std::string name(neffbar::enum_name(o).substr(1));
    return dir_ / (o == O::Log ? name + ".json" : o == O::Config ? name + ".bin" : name);
  }

 private:
  Reference() : dir_(root() / "ref") {
    namespace fs = std::filesystem;
    using neffbar::fuzz::require;
    fs::create_directories(dir_);
    const auto compose = [&](O o, std::vector<std::string> more) {
      std::vector<std::string> words{"neffbar", "compose", "--chips", "2", "--leaders", "2", "--host-cc", "-o", path(o).string()};
      words.insert(words.end(), more.begin(), more.end());
      require(run_quietly(words) == 0, "the reference's compose output (cli_objects.h) is made");
    };
    compose(O::Compose, {});
    compose(O::ComposeLogs, {"--logs"});
    compose(O::Compose2, {"--wiring", "counting"});
    const fs::path made = path(O::Compose), one = dir_ / "one-leader";
    require(run_quietly({"neffbar", "compose", "--chips", "2", "--leaders", "1", "--host-cc", "-o", one.string()}) == 0,
            "the 1-leader compose output is made");
    fs::copy_file(made / "chip00_leader0.bin", path(O::Config));
    fs::copy_file(path(O::ComposeLogs) / "chip00_leader0.json", path(O::Log));
    for (const O o : {O::Images, O::ImagesNonUtf8}) {
      fs::create_directories(path(o));
      fs::copy_file(made / "chip00_leader1.bin", path(o) / "chip00_leader1.bin");
      fs::copy_file(made / "chip00_leader0.bin", path(o) / (o == O::Images ? "chip00_leader0.bin" : "\xff.bin"));
    }
    const std::string manifest = read_file(made / "manifest.json");
    const auto spoilt = [&](O o) {
      fs::copy(made, path(o), fs::copy_options::recursive);
      return path(o);
    };
    const std::size_t chips = manifest.find("\"chips\"");
    require(chips != std::string::npos, "the reference manifest names its chips");
    write_file(spoilt(O::ManifestDup) / "manifest.json", manifest.substr(0, chips) + "\"chips\": 2, " + manifest.substr(chips));
    const std::size_t format = manifest.find("\"neffbar-compose/1\"");
    require(format != std::string::npos, "the reference manifest names its format");
    write_file(spoilt(O::ManifestDeep) / "manifest.json", manifest.substr(0, format) + std::string(100'000, '[') +
                                                               std::string(100'000, ']') + manifest.substr(format + 19));
    fs::copy_file(one / "chip00_context.bin", spoilt(O::ManifestFewer) / "chip00_context.bin", fs::copy_options::overwrite_existing);
    fs::remove(spoilt(O::ManifestMissing) / "chip01_leader1.bin");
    fs::create_directories(path(O::Vectors));
    for (const std::string_view op : neffbar::kOperations)
      write_file(path(O::Vectors) / (std::string(op) + ".json"), neffbar::make_vectors(op).dump(1) + "\n");
    fs::remove(spoilt(O::FifoCompose) / "manifest.json");
    fs::create_symlink(FifoWriter::path(), path(O::FifoCompose) / "manifest.json");
  }
  const std::filesystem::path dir_;
};

// What expand_objects found besides the words.
struct Objects {
  bool stdout_full = false;  // @stdout-full
  bool fifo = false;         // @fifo, @fifo-compose (any number of them)
  bool duplicate_keys = false;  // @manifest-dup
};

// What a run left in scratch() (outputs, what compose -o made of @dir, the outputs made
// for it): gone, so that a run never depends on the inputs before it.
void empty_scratch() {
  std::error_code ignored;
  for (const auto& e : std::filesystem::directory_iterator(scratch(), ignored)) std::filesystem::remove_all(e.path(), ignored);
}

// The path an output word stands for, made as the word says; nullopt: not an output word.
std::optional<std::string> output(neffbar::fuzz::CliObject o) {
  namespace fs = std::filesystem;
  using O = neffbar::fuzz::CliObject;
  switch (o) {
    case O::OutFull: return "/dev/full";
    case O::OutDir: return scratch().string();
    case O::OutFile: return (scratch() / "out").string();
    case O::OutExisting: {
      const fs::path p = scratch() / "existing";
      write_file(p, "an earlier result\n");
      fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
      return p.string();
    }
    case O::OutBusy: {
      const fs::path p = scratch() / "busy";
      fs::create_directories(p);
      write_file(p / "kept", "not compose's\n");
      return p.string();
    }
    case O::OutCompose: {
      const fs::path p = scratch() / "composed";
      std::error_code named_twice;  // made already for an earlier word of the input
      if (!fs::exists(p, named_twice)) fs::copy(Reference::get().path(O::Compose), p, fs::copy_options::recursive);
      return p.string();
    }
    case O::OutLink: {
      const fs::path p = scratch() / "link";
      write_file(scratch() / "linked", "an earlier result\n");
      std::error_code named_twice;
      fs::create_symlink("linked", p, named_twice);
      return p.string();
    }
    default: return std::nullopt;
  }
}

// Expands the @ words (header comment); false: the input names a file it may not.
bool expand_objects(std::vector<std::string>& words, Objects& objects) {
  using neffbar::fuzz::CliObject;
  std::vector<std::string> out;
  bool html = false;  // the word before was --html: an output word's path alone must follow
  for (const std::string& w : words) {
    const bool short_o = w.size() > 1 && w[0] == '-' && w[1] != '-' && w.find('o') != std::string::npos;
    if (short_o || w.starts_with("--output") || (w.starts_with("--html") && w != "--html")) return false;
    const std::optional<CliObject> object = neffbar::parse_enum<CliObject>(w);
    if (html) {
      const std::optional<std::string> path = object ? output(*object) : std::nullopt;
      if (!path) return false;
      out.push_back(*path);
      html = false;
      continue;
    }
    if (!object) {
      html = w == "--html";
      out.push_back(w);
      continue;
    }
    if (const std::optional<std::string> path = output(*object)) {
      out.insert(out.end(), {"-o", *path});
      continue;
    }
    switch (*object) {
      case CliObject::Dir: out.push_back(scratch().string()); break;
      case CliObject::Missing: out.push_back((scratch() / "missing").string()); break;
      case CliObject::Null:
      case CliObject::Zero: out.push_back("/dev/" + w.substr(1)); break;
      case CliObject::Fifo:
        out.push_back(FifoWriter::path().string());
        objects.fifo = true;
        break;
      case CliObject::StdoutFull: objects.stdout_full = true; break;
      case CliObject::FifoCompose: objects.fifo = true; [[fallthrough]];
      default:
        objects.duplicate_keys = objects.duplicate_keys || *object == CliObject::ManifestDup;
        out.push_back(Reference::get().path(*object).string());
    }
  }
  words = std::move(out);
  return !html;  // --html last: it would name no file
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using neffbar::fuzz::require;
  // As main() does: check-configs finds the symmetry of interchangeable configs by nauty.
  static const bool nauty = (neffbar::model::use_nauty_automorphisms(), true);
  (void)nauty;
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = all.find('\0');
  const std::string_view head = all.substr(0, nul);
  const std::string stdin_bytes(nul == std::string_view::npos ? std::string_view{} : all.substr(nul + 1));
  std::vector<std::string> words{"neffbar"};
  for (std::size_t at = 0; at <= head.size();) {
    const std::size_t end = std::min(head.find('\n', at), head.size());
    words.emplace_back(head.substr(at, end - at));
    at = end + 1;
  }
  if (head.empty()) words.pop_back();
  if (words.size() > 25) return 0;
  bool small = false, full = false, hypotheses = false, bounded = false, conform = false;
  for (const std::string& w : words) {
    if (w.size() > 64 || w.find('/') != std::string::npos) return 0;
    small = small || w == "--small";
    full = full || w == "--full";
    hypotheses = hypotheses || w == "hypotheses";
    bounded = bounded || w == "check" || w == "check-configs";
    conform = conform || w == "conform";
  }
  if (full || (hypotheses && !small)) return 0;
  static neffbar::fuzz::SlowOracleSample sample;
  const bool thorough = sample(std::span<const std::uint8_t>(data, size));
  if (hypotheses && !thorough) return 0;
  Objects objects;
  if (!expand_objects(words, objects)) {
    empty_scratch();  // the outputs made for the words before the one refused
    return 0;
  }
  const bool stdout_full = objects.stdout_full;
  const bool to_file = std::find(words.begin(), words.end(), "-o") != words.end();
  // The commands whose success can print nothing: a clean lint, a diff of equal images.
  const bool quiet = std::find(words.begin(), words.end(), "lint") != words.end() ||
                     std::find(words.begin(), words.end(), "diff") != words.end();
  if (bounded) {
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (words[i].starts_with("--max-seconds")) {
        if (words[i] == "--max-seconds") ++i;  // and its value
        continue;
      }
      kept.push_back(words[i]);
    }
    words = std::move(kept);
    words.insert(words.end(), {"--max-seconds", thorough ? "2" : "0.05"});
  }
  if (conform) {  // its differential fuzz and a hung call, bounded the same way
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (words[i].starts_with("--seconds") || words[i].starts_with("--call-timeout")) {
        if (words[i] == "--seconds" || words[i] == "--call-timeout") ++i;
        continue;
      }
      kept.push_back(words[i]);
    }
    words = std::move(kept);
    words.insert(words.end(), {"--seconds", thorough ? "0.2" : "0.01", "--call-timeout", "0.2"});
  }

  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::istringstream in(stdin_bytes);
  std::ostringstream out, err;
  FullBuf full_disk;
  if (stdout_full) out.basic_ios<char>::rdbuf(&full_disk);
  int rc = 0;
  {
    std::optional<SlowFifo> fifo;
    if (objects.fifo) fifo.emplace(stdin_bytes);
    const Redirect r(in, out, err);
    rc = neffbar::cli::run(static_cast<int>(words.size()), argv.data());
  }  // the writer has stopped and closed its end of the FIFO
  empty_scratch();

  require(rc >= 0 && rc <= 5, "the exit code is one of the documented ones (0..5)");
  // Progress lines ("  ... ", asked for with --progress; stderr is no terminal here)
  // may come before the one error line; nothing else may.
  std::string e = err.str();
  if (std::find(words.begin(), words.end(), std::string("--progress")) != words.end()) {
    while (e.starts_with("  ... ") && e.find('\n') != std::string::npos) e.erase(0, e.find('\n') + 1);
  }
  if (rc == 1 || rc == 2) {
    require(out.str().empty(), "nothing is written to stdout on error");
    require(e.starts_with("neffbar: ") && e.ends_with("\n") && e.find('\n') == e.size() - 1,
            "a failure prints exactly one error line");
    require(names_something(e, words), "the error line names an argv word, an option or stdin");
  } else if (!to_file && !(quiet && rc == 0)) {
    require(!out.str().empty(), "a command that succeeds writes its result to stdout");
  }
  if (objects.duplicate_keys && std::none_of(words.begin(), words.end(), [](const std::string& w) {
        return w == "-h" || w == "--help" || w == "--help-all" || w == "--version";
      })) {
    require(rc == 1 || rc == 2, "a manifest that holds a key twice is refused (strict inputs)");
  }
  if (stdout_full && !to_file && rc != 2) {
    require(rc == 1 || (quiet && rc == 0), "a result that cannot be written is an error, not exit 0");
  }
  return 0;
}
