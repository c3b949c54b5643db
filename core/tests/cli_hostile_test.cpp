// End-to-end, as an adversary would meet the CLI: file-system objects for inputs, outputs
// that cannot be written, sizes that would exhaust memory, strict JSON and options, and
// names that would drive the terminal.  Each must give one escaped `neffbar:` line and
// the documented exit code, and never lose output silently.
#include <sys/stat.h>
#include <unistd.h>

#include <tuple>
#include <vector>

#include "cli_fixture.h"

namespace {

using namespace neffbar_e2e;

class Hostile : public Cli {
 protected:
  // A valid config and its default JSON log.
  fs::path config() { return file("cfg.bin", std::string(0x128, '\0')); }
  fs::path log() { return file("cfg.json", run("decode '" + config().string() + "'").out); }
};

TEST_F(Hostile, ADirectoryIsOneLineNamingIt) {
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

TEST_F(Hostile, MissingUnreadableAndEmptyPaths) {
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

TEST_F(Hostile, DevicesFifosAndPipesAreReadWithABound) {
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

TEST_F(Hostile, BoundedReadsFitInLittleMemory) {
  if (kSanitized) GTEST_SKIP() << "ulimit -v cannot work under AddressSanitizer";
  // 200 MB of address space: reading /dev/zero whole would need more; a bounded read needs
  // 0x129 bytes (decode) or 1 MiB + 1 (encode).
  for (const char* args : {"decode /dev/zero", "lint /dev/zero", "encode /dev/zero", "check-configs /dev/zero"}) {
    const Outcome r = shell(std::string("ulimit -v 200000; exec \"$NB\" ") + args);
    EXPECT_EQ(r.exit_code, 1) << args << ": " << r.err;
    EXPECT_TRUE(one_error_line(r.err)) << args << ": " << r.err;
  }
}

TEST_F(Hostile, AFullDeviceOrClosedStdoutIsAnError) {
  const std::string cfg = config().string(), js = log().string();
  for (const std::string& args : std::vector<std::string>{"encode '" + js + "'", "decode '" + cfg + "'", "table", "table --raw",
                                 "search --fabric default 1 1", "promela --chips 1", "hypotheses --small",
                                 "check --chips 2"}) {
    const Outcome full = shell("\"$NB\" " + args + " > /dev/full");
    EXPECT_EQ(full.exit_code, 1) << args;
    EXPECT_EQ(full.err, "neffbar: stdout: No space left on device\n") << args;  // the one line: no progress before it
    const Outcome closed = shell("\"$NB\" " + args + " >&-");
    EXPECT_EQ(closed.exit_code, 1) << args << ": " << closed.err;
    EXPECT_NE(closed.err.find("neffbar: stdout: Bad file descriptor"), std::string::npos) << args << closed.err;
  }
  // A command that writes nothing on success has nothing to lose.
  EXPECT_EQ(shell("\"$NB\" lint '" + cfg + "' > /dev/full").exit_code, 0);
}

// compose -o DIR as the shell would make it: the directory 0777 and its files 0666, less
// the umask; written with stdin closed (a file opened then gets fd 0, a file like any
// other); named with trailing slashes or relative to the working directory; its
// temporary beside it, so that the one rename never crosses file systems; and a write
// that fails part-way leaves no directory and no temporary, exit 1 naming the cause.
TEST_F(Hostile, AComposedDirectoryAsTheShellWouldMakeIt) {
  for (const auto& [mask, dir_mode, file_mode] : {std::tuple{"022", 0755, 0644}, std::tuple{"077", 0700, 0600}}) {
    const fs::path out = dir_ / (std::string("umask") + mask);
    const Outcome o = shell(std::string("umask ") + mask + "; \"$NB\" compose --chips 2 --logs -o '" + out.string() + "'");
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_EQ(static_cast<int>(fs::status(out).permissions()), dir_mode) << mask;
    for (const auto& e : fs::directory_iterator(out)) {
      EXPECT_EQ(static_cast<int>(fs::status(e.path()).permissions()), file_mode) << mask << " " << e.path();
    }
  }
  const fs::path closed = dir_ / "closed";
  const Outcome no_stdin = shell("\"$NB\" compose -o '" + closed.string() + "' <&-");
  EXPECT_EQ(no_stdin.exit_code, 0) << no_stdin.err;
  EXPECT_TRUE(fs::exists(closed / "manifest.json"));
  for (const char* name : {"d/", "e//"}) {
    const Outcome rel = shell("cd '" + dir_.string() + "' && \"$NB\" compose -o " + name);
    EXPECT_EQ(rel.exit_code, 0) << name << ": " << rel.err;
    EXPECT_EQ(rel.out, "wrote " + std::string(name) + ": 1 leader image, 1 driver context, manifest.json\n");
    EXPECT_TRUE(fs::exists(dir_ / std::string(1, name[0]) / "manifest.json")) << name;
  }
  struct stat here {}, shm {};
  if (::stat(dir_.c_str(), &here) == 0 && ::stat("/dev/shm", &shm) == 0 && here.st_dev != shm.st_dev) {
    const Outcome across = shell("cd /dev/shm && \"$NB\" compose -o '" + (dir_ / "across").string() + "'");
    EXPECT_EQ(across.exit_code, 0) << "run from another file system: " << across.err;
  }
  // A file-size limit of 512 bytes (SIGXFSZ ignored: write() returns EFBIG): the images
  // fit, the first driver context does not.
  const fs::path big = dir_ / "big";
  const Outcome efbig = shell("trap '' XFSZ; ulimit -f 1; exec \"$NB\" compose --chips 2 -o '" + big.string() + "'");
  EXPECT_EQ(efbig.exit_code, 1);
  EXPECT_EQ(efbig.err, "neffbar: " + big.string() + ": chip00_context.bin: File too large\n");
  EXPECT_EQ(efbig.out, "");
  EXPECT_FALSE(fs::exists(big));
  for (const auto& e : fs::directory_iterator(dir_)) EXPECT_FALSE(e.path().filename().string().starts_with(".")) << e.path();
}

TEST_F(Hostile, OutputFilesAreWholeOrUntouched) {
  const fs::path out = dir_ / "out.bin";
  const Outcome ok = run("encode -o '" + out.string() + "' '" + log().string() + "'");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(ok.out.empty());
  EXPECT_EQ(slurp(out), std::string(0x128, '\0'));
  // A failing command leaves the file as it was.
  const fs::path keep = file("keep.bin", "old content");
  EXPECT_EQ(run("encode -o '" + keep.string() + "' '" + file("bad.json", "{").string() + "'").exit_code, 1);
  EXPECT_EQ(slurp(keep), "old content");
  // A write that fails half-way (a 512-byte file-size limit, which the error line fits
  // in; SIGXFSZ ignored so write() returns EFBIG) leaves the old file whole, where
  // `> FILE` leaves a truncated one and says so.
  const std::string limited = "trap '' XFSZ; ulimit -f 1; exec \"$NB\" decode --full '" + config().string() + "'";
  ASSERT_GT(run("decode --full '" + config().string() + "'").out.size(), 512u);
  const Outcome efbig = shell(limited + " -o '" + keep.string() + "'");
  EXPECT_EQ(efbig.exit_code, 1);
  EXPECT_TRUE(one_error_line(efbig.err)) << efbig.err;
  EXPECT_NE(efbig.err.find("keep.bin: File too large"), std::string::npos) << efbig.err;
  EXPECT_EQ(slurp(keep), "old content");
  const Outcome shell_out = shell(limited + " > '" + (dir_ / "redirected.json").string() + "'");
  EXPECT_EQ(shell_out.exit_code, 1);
  EXPECT_EQ(shell_out.err, "neffbar: stdout: File too large\n");
  // No temporary is left behind, whatever happened.
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".neffbar-"), std::string::npos) << e.path();
  }
  // Paths that cannot be written are named.
  const Outcome nodir = run("table -o '" + (dir_ / "no" / "such" / "t.txt").string() + "'");
  EXPECT_EQ(nodir.exit_code, 1);
  EXPECT_NE(nodir.err.find("t.txt: No such file or directory"), std::string::npos) << nodir.err;
  const Outcome isdir = run("table -o '" + dir_.string() + "'");
  EXPECT_EQ(isdir.exit_code, 1);
  EXPECT_TRUE(one_error_line(isdir.err)) << isdir.err;
  // An existing file keeps its permissions.
  ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
  EXPECT_EQ(run("table -o '" + out.string() + "'").exit_code, 0);
  EXPECT_EQ(fs::status(out).permissions(), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_NE(slurp(out).find("fabric default"), std::string::npos);
  // Every command takes -o, also one that reports a failing verdict (exit 4).
  const fs::path report = dir_ / "report.txt";
  EXPECT_EQ(run("check --chips 2 --leaders 2 --host-cc -o '" + report.string() + "'").exit_code, 4);
  EXPECT_NE(slurp(report).find("GLOBAL_UNSAFE"), std::string::npos);
}

TEST_F(Hostile, StrictJson) {
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

TEST_F(Hostile, ErrorLinesEscapeControlCharacters) {
  std::string json = slurp(log());
  const auto at = json.find("\"0x0\"");
  ASSERT_NE(at, std::string::npos);
  json.replace(at, 5, "\"0x1234\\u0000\\u001b[31m\"");
  const Outcome r = run("encode '" + file("nul.json", json).string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(one_error_line(r.err)) << r.err;
  EXPECT_EQ(r.err.find('\0'), std::string::npos) << "no raw NUL";
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "no raw ESC";
  EXPECT_NE(r.err.find("\\x00"), std::string::npos) << r.err;
  // A file name with a newline and a terminal escape.
  const std::string name = "evil\n\x1b[2J.bin";
  file(name, "short");
  const Outcome n = run("decode \"$(printf '" + dir_.string() + "/evil\\n\\033[2J.bin')\"");
  EXPECT_EQ(n.exit_code, 1);
  EXPECT_TRUE(one_error_line(n.err)) << n.err;
  EXPECT_NE(n.err.find("evil\\n\\x1B[2J.bin: wrong length"), std::string::npos) << n.err;
  // So do unknown commands and CLI11's own messages.
  const Outcome cmd = run("\"$(printf 'x\\033[31m')\"");
  EXPECT_EQ(cmd.exit_code, 2);
  EXPECT_TRUE(one_error_line(cmd.err)) << cmd.err;
  EXPECT_NE(cmd.err.find("x\\x1B[31m"), std::string::npos) << cmd.err;
  const Outcome opt = run("table \"$(printf -- '--x\\033')\"");
  EXPECT_EQ(opt.exit_code, 2);
  EXPECT_TRUE(one_error_line(opt.err)) << opt.err;
  EXPECT_EQ(opt.err.find('\x1b'), std::string::npos) << opt.err;
}

TEST_F(Hostile, NumbersThatDoNotFitTheirOptionAreUsage) {
  for (const char* bad :
       {"--random 3 --seed -1", "--random 3 --seed 18446744073709551616", "--random -1", "--random 0",
        "--random 1.5", "--max-seconds nan", "--max-seconds -1", "--max-seconds 0", "--max-seconds inf",
        "--max-seconds 1e3", "--max-states 0", "--max-states -5", "--chips abc", "--chips 65", "--chips 0x10",
        "--chips ' 2'", "--rounds 1001", "--leaders 4294967297", "--engine bogus", "--seed 1"}) {
    const Outcome r = run(std::string("check ") + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_TRUE(one_error_line(r.err)) << bad << ": " << r.err;
    const std::string option = std::string(bad).substr(std::string(bad).rfind("--"));
    EXPECT_NE(r.err.find(option.substr(0, option.find(' '))), std::string::npos) << bad << ": " << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  // The smallest and the largest values that fit are taken.
  EXPECT_EQ(run("check --chips 1 --random 1 --seed 0").exit_code, 0);
  EXPECT_EQ(run("check --chips 1 --random 1 --seed 18446744073709551615").exit_code, 0);
  const Outcome one_state = run("check --chips 1 --engine explicit --max-states 1");
  EXPECT_NE(one_state.exit_code, 2) << one_state.err;
  EXPECT_NE(one_state.out.find("BUDGET"), std::string::npos) << one_state.out;
  EXPECT_EQ(run("check --chips 1 --max-seconds 0.5").exit_code, 0);
}

}  // namespace
