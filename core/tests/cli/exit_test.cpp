// End-to-end: the one `neffbar:` error line (exit.cpp) escapes the control characters
// of what it quotes, so a name cannot drive the terminal.
#include <algorithm>
#include <array>
#include <chrono>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_fixture.h"

namespace {

using namespace neffbar_e2e;

class Exit : public Cli {};

TEST_F(Exit, ErrorLinesEscapeControlCharacters) {
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

}  // namespace
