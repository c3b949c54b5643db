// End-to-end, as an adversary would meet the CLI's outputs (output.cpp): a full device
// or a closed stdout is an error, output files are written whole or not at all, and a
// composed directory gets the modes the shell's umask gives.  Never output lost silently.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_fixture.h"

namespace {

using namespace neffbar_e2e;

class Output : public Cli {};

TEST_F(Output, AFullDeviceOrClosedStdoutIsAnError) {
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
TEST_F(Output, AComposedDirectoryAsTheShellWouldMakeIt) {
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

TEST_F(Output, OutputFilesAreWholeOrUntouched) {
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

}  // namespace
