// End-to-end through the real binary (cli_fixture.h): the config commands of
// codec_cmds.cpp -- decode, encode, table, search, lint and diff -- their outputs, exit
// codes and error lines.
#include <algorithm>
#include <array>
#include <chrono>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_fixture.h"

namespace {

using namespace neffbar_e2e;

class CodecCmds : public Cli {};

TEST_F(CodecCmds, DecodeEncodeRoundTripFullAndDefault) {
  for (unsigned seed = 0; seed < 20; ++seed) {
    const fs::path bin = file("in.bin", random_image(seed));
    const Outcome dec = run("decode --full '" + bin.string() + "'");
    ASSERT_EQ(dec.exit_code, 0) << dec.err;
    const fs::path json = file("in.json", dec.out);
    const Outcome enc = run("encode '" + json.string() + "'");
    ASSERT_EQ(enc.exit_code, 0) << enc.err;
    EXPECT_EQ(enc.out, slurp(bin)) << seed;
    // stdin works too
    EXPECT_EQ(run("encode -", json.string()).out, enc.out);
  }
  // Default log: lossless for configs whose unlogged bytes are zero.
  std::string img(0x128, '\0');
  img[0x10] = 5;
  img[0x124] = 1;
  const fs::path bin = file("z.bin", img);
  const Outcome dec = run("decode '" + bin.string() + "'");
  EXPECT_EQ(run("encode -", file("z.json", dec.out).string()).out, img);
}

TEST_F(CodecCmds, WrongLengthsAreExit1WithBothLengths) {
  for (std::size_t n : {0u, 0x127u, 0x129u}) {
    const fs::path p = file("bad.bin", std::string(n, 'x'));
    const Outcome r = run("decode '" + p.string() + "'");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("wrong length"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(std::to_string(n) + " bytes"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("bad.bin"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line";
    EXPECT_EQ(run("lint '" + p.string() + "'").exit_code, 1);
  }
  EXPECT_EQ(run("decode /nonexistent/x.bin").exit_code, 1);
}

// decode has no --arch: the four generations read the same layout, so an option that
// changed nothing was removed rather than kept as a no-op.
TEST_F(CodecCmds, DecodeTakesNoArch) {
  const fs::path bin = file("in.bin", random_image(1));
  const Outcome r = run("decode --arch mariana '" + bin.string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--arch"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(CodecCmds, EncodeErrorsNameTheJsonPath) {
  const fs::path bin = file("in.bin", random_image(2));
  std::string json = run("decode '" + bin.string() + "'").out;
  const auto at = json.find("\"queue_id\"");
  ASSERT_NE(at, std::string::npos);
  json.replace(at, 10, "\"queue_idz\"");
  const Outcome r = run("encode '" + file("bad.json", json).string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("$.device_barrier.queue_idz"), std::string::npos) << r.err;
  const Outcome nj = run("encode '" + file("nj.json", "{ not json").string() + "'");
  EXPECT_EQ(nj.exit_code, 1);
  EXPECT_NE(nj.err.find("bad JSON"), std::string::npos) << nj.err;
  EXPECT_TRUE(r.out.empty()) << "nothing written on error";
}

TEST_F(CodecCmds, TableAndSearch) {
  const Outcome t = run("table --fabric switch");
  EXPECT_EQ(t.exit_code, 0);
  EXPECT_NE(t.out.find("{1,2,2,1}"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("[1] INTER_RACK/ENTRY"), std::string::npos) << t.out;
  const Outcome raw = run("table --raw");
  EXPECT_NE(raw.out.find("step 1:  01 00 00 00 00 00 00 00  02 00 00 00"), std::string::npos) << raw.out;
  EXPECT_EQ(run("search --fabric default INTER_CHIP 1").out, "op=ENTRY index=1\n");
  EXPECT_EQ(run("search --fabric default 4 2").out, "op=EXIT index=3\n");
  EXPECT_EQ(run("search --fabric switch --faithful INTER_RACK 2").out, "op=EXIT index=1\n");
  EXPECT_EQ(run("search --fabric default INTRA_CHIP 9").out, "not found\n");
  EXPECT_EQ(run("search --fabric default 300 1").out, "not found\n");
  EXPECT_EQ(run("search --fabric default 1 -- -5").out, "not found\n");
  const Outcome bad = run("search --fabric ring 1 1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("default or switch"), std::string::npos);
  EXPECT_EQ(run("search --fabric default NOPE 1").exit_code, 2);
  EXPECT_EQ(run("search --fabric default 1 x").exit_code, 2);
  EXPECT_EQ(run("table --fabric ring").exit_code, 2);
}

TEST_F(CodecCmds, LintExitCodes) {
  EXPECT_EQ(run("lint '" + file("z.bin", std::string(0x128, '\0')).string() + "'").exit_code, 0);
  std::string img(0x128, '\0');
  img[0x126] = 1;
  const Outcome r = run("lint '" + file("r.bin", img).string() + "'");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "0x126 __reserved[1]: reserved byte is 0x1\n");
}

TEST_F(CodecCmds, EncodeRefusesATerminal) {
  // `script` gives the binary a pty as stdout; skip when util-linux's script is absent.
  if (std::system("command -v script > /dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1)";
  const fs::path json = file("z.json", run("decode '" + file("z.bin", std::string(0x128, '\0')).string() + "'").out);
  const std::string cmd = "script -qec \"'" + std::string(NEFFBAR_BIN) + "' encode '" + json.string() +
                          "'\" /dev/null > '" + (dir_ / "tty").string() + "' 2>&1";
  const int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(slurp(dir_ / "tty").find("refusing to write"), std::string::npos);
}

// diff: exit 0 and nothing printed for equal images; exit 5 and one line a field for
// different ones (--json for scripts); directories paired by file name; exit 1 for what
// cannot be compared, naming it.
TEST_F(CodecCmds, DiffNamesEachDifferingFieldAndExits5) {
  std::string zero(0x128, '\0'), gate = zero;
  gate[0x124] = 1;
  gate[0x40] = 0x20;
  const fs::path a = file("a.bin", zero), b = file("b.bin", gate);
  const Outcome same = run("diff '" + a.string() + "' '" + a.string() + "'");
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(same.out, "");
  const Outcome d = run("diff '" + a.string() + "' '" + b.string() + "'");
  EXPECT_EQ(d.exit_code, 5) << d.err;
  EXPECT_EQ(d.out,
            "0x40 device_barrier.barrier_step_config[1].barrier_sema[1]: 0x0000000000000000 -> 0x0000000000000020 (OBSERVED)\n"
            "0x124 execute_device_barrier: 0 -> 1 (OBSERVED)\n");
  const Outcome j = run("diff --json '" + a.string() + "' '" + b.string() + "'");
  EXPECT_EQ(j.exit_code, 5) << j.err;
  const nlohmann::json parsed = nlohmann::json::parse(j.out);
  EXPECT_EQ(parsed["equal"], false);
  ASSERT_EQ(parsed["pairs"].size(), 1u);
  ASSERT_EQ(parsed["pairs"][0]["differences"].size(), 2u);
  EXPECT_EQ(parsed["pairs"][0]["differences"][0]["offset"], 0x40);
  EXPECT_EQ(parsed["pairs"][0]["differences"][0]["step"], 1);
  EXPECT_EQ(parsed["pairs"][0]["differences"][0]["index"], 1);
  EXPECT_EQ(parsed["pairs"][0]["differences"][0]["b"], 0x20);
  EXPECT_EQ(parsed["pairs"][0]["differences"][1]["step"], nullptr);
  EXPECT_EQ(parsed["pairs"][0]["differences"][0]["tag"], "OBSERVED");
  // Directories: pairs by name, and the names only one of them has.
  fs::create_directories(dir_ / "x");
  fs::create_directories(dir_ / "y");
  std::ofstream(dir_ / "x" / "c0.l0.bin") << zero;
  std::ofstream(dir_ / "y" / "c0.l0.bin") << gate;
  std::ofstream(dir_ / "x" / "c0.l1.bin") << zero;
  std::ofstream(dir_ / "y" / "c1.l0.bin") << zero;
  const Outcome dirs = run("diff '" + (dir_ / "x").string() + "' '" + (dir_ / "y").string() + "'");
  EXPECT_EQ(dirs.exit_code, 5) << dirs.err;
  EXPECT_NE(dirs.out.find("only in " + (dir_ / "x").string() + ": c0.l1.bin\n"), std::string::npos) << dirs.out;
  EXPECT_NE(dirs.out.find("only in " + (dir_ / "y").string() + ": c1.l0.bin\n"), std::string::npos) << dirs.out;
  EXPECT_NE(dirs.out.find("c0.l0.bin: 0x124 execute_device_barrier: 0 -> 1 (OBSERVED)\n"), std::string::npos) << dirs.out;
  fs::remove(dir_ / "x" / "c0.l1.bin");
  fs::remove(dir_ / "y" / "c1.l0.bin");
  std::ofstream(dir_ / "y" / "c0.l0.bin") << zero;
  EXPECT_EQ(run("diff '" + (dir_ / "x").string() + "' '" + (dir_ / "y").string() + "'").exit_code, 0);
  // What cannot be compared: exit 1, one line naming it; no arguments: usage.
  const Outcome mixed = run("diff '" + (dir_ / "x").string() + "' '" + a.string() + "'");
  EXPECT_EQ(mixed.exit_code, 1);
  EXPECT_NE(mixed.err.find("a set of files beside one file"), std::string::npos) << mixed.err;
  const Outcome short_file = run("diff '" + a.string() + "' '" + file("s.bin", "abc").string() + "'");
  EXPECT_EQ(short_file.exit_code, 1);
  EXPECT_NE(short_file.err.find("s.bin"), std::string::npos) << short_file.err;
  EXPECT_EQ(short_file.out, "");
  EXPECT_EQ(run("diff '" + a.string() + "'").exit_code, 2);
}

// diff of plain directories: their regular files, not hidden ones or folders; a name
// only one side has makes them unequal in --json too (2-space indented, keys sorted);
// an image beside a set is named by the set's path, either way round.
TEST_F(CodecCmds, DiffOfDirectories) {
  const std::string zero(0x128, '\0');
  for (const char* d : {"x", "y"}) {
    fs::create_directories(dir_ / d / "sub");
    std::ofstream(dir_ / d / "a.bin") << zero;
  }
  std::ofstream(dir_ / "x" / ".hidden") << "not an image";
  std::ofstream(dir_ / "x" / "sub" / "deep.bin") << "not compared";
  const std::string x = (dir_ / "x").string(), y = (dir_ / "y").string();
  const Outcome same = run("diff '" + x + "' '" + y + "'");
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  std::ofstream(dir_ / "x" / "b.bin") << zero;
  const Outcome j = run("diff --json '" + x + "' '" + y + "'");
  EXPECT_EQ(j.exit_code, 5);
  EXPECT_EQ(j.out, "{\n  \"equal\": false,\n  \"only_in_a\": [\n    \"b.bin\"\n  ],\n  \"only_in_b\": [],\n  \"pairs\": [\n    {\n      \"a\": \"" +
                       x + "/a.bin\",\n      \"a_size\": 296,\n      \"b\": \"" + y + "/a.bin\",\n      \"b_size\": 296,\n      \"differences\": [],\n"
                       "      \"kind\": \"config\"\n    }\n  ]\n}\n");
  const std::string image = (dir_ / "x" / "a.bin").string();
  const std::string why = ": invalid argument: " + x + ": expected a file beside a file, or a directory (or manifest) beside another, got a set of files beside one file\n";
  EXPECT_EQ(run("diff '" + x + "' '" + image + "'").err, "neffbar: " + x + why);
  EXPECT_EQ(run("diff '" + image + "' '" + x + "'").err, "neffbar: " + x + why);
}

}  // namespace
