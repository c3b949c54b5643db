// The hostile cases of hostile_cases.txt, one a line: each in a fresh scratch folder with
// the fixtures that file names, its exit code and what the folder holds after.  A new
// surface's cases are new lines there, in the change that adds the surface.
#include <algorithm>
#include <iostream>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_fixture.h"

namespace {

using namespace neffbar_e2e;

struct Case {
  int line = 0;
  std::string exit;  // a number, or "*"
  std::vector<std::string> after;
  std::string command;
};

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(' '));
  s.erase(s.find_last_not_of(' ') + 1);
  return s;
}

std::vector<Case> read_cases() {
  std::ifstream in(NEFFBAR_HOSTILE_CASES);
  std::vector<Case> cases;
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    if (text.empty() || text[0] == '#') continue;
    const std::size_t a = text.find(" | "), b = text.find(" | ", a + 3);
    if (a == std::string::npos || b == std::string::npos) {
      ADD_FAILURE() << "hostile_cases.txt:" << n << ": not EXIT | AFTER | COMMAND";
      continue;
    }
    Case c{n, trim(text.substr(0, a)), {}, text.substr(b + 3)};
    std::istringstream checks(text.substr(a + 3, b - a - 3));
    for (std::string w; checks >> w;) {
      if (w != "-") c.after.push_back(w);
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// A tree as text: every entry (sorted), its type and its bytes, so that any change shows.
std::string state(const fs::path& p) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  if (!fs::exists(st)) return "(absent)";
  if (fs::is_symlink(st)) return "link " + fs::read_symlink(p, ec).string();
  if (!fs::is_directory(st)) return "file " + slurp(p);
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(p, ec)) entries.push_back(e.path().filename().string() + ": " + state(e.path()));
  std::sort(entries.begin(), entries.end());
  std::string out = "dir\n";
  for (const std::string& e : entries) out += e + "\n";
  return out;
}

constexpr int kSkip = 77;

// No byte that drives a terminal: C0 controls but the newline, DEL, C1 controls as UTF-8.
bool clean(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7F) return false;
    if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xA0) return false;
  }
  return true;
}

std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with(".") && name.find(".neffbar-") != std::string::npos) found.push_back(it->path().string());
  }
  return found;
}

class HostileCases : public Cli {
 protected:
  // The binary under test; NEFFBAR_HOSTILE_BIN names another (an older build, to see
  // which cases it fails).
  static std::string binary() {
    const char* other = std::getenv("NEFFBAR_HOSTILE_BIN");
    return other != nullptr && *other != '\0' ? other : NEFFBAR_BIN;
  }
  // The fixtures hostile_cases.txt names, made in `dir_`.
  void make_fixtures() {
    const Outcome o = shell("NB='" + binary() + "'; cd '" + dir_.string() + R"(' && set -e
head -c 296 /dev/zero > cfg.bin
"$NB" compose --chips 2 --leaders 2 --host-cc --logs -o ref
cp -r ref ref2
mkdir foreign && echo '{"manifest_version": 3, "name": "an extension"}' > foreign/manifest.json && echo hi > foreign/notes.txt
cp -r ref extra && echo hi > extra/notes.txt
cp -r ref ctxfew && printf '\001\000\000\000' | dd of=ctxfew/chip00_context.bin bs=1 seek=144 conv=notrunc 2>/dev/null
mkdir deep && { printf '{"format": "neffbar-compose/1", "options": '; head -c 100000 /dev/zero | tr '\0' '['; } > deep/manifest.json
cp -r ref ownsub && mkdir ownsub/sub
cp -r ref ownlink && ln -s ../cfg.bin ownlink/extra.bin
cp -r ref owndir && rm owndir/chip00_context.bin && mkdir owndir/chip00_context.bin
mkdir rw && echo keep > rw/ro.txt && chmod 444 rw/ro.txt
cp -r ref lognotes && mv lognotes/chip00_leader0.json lognotes/notes.txt && sed -i 's/"log": "chip00_leader0.json"/"log": "notes.txt"/' lognotes/manifest.json
cp -r ref dup && sed -i 's/"chips": 2,/"chips": 2, "chips": 2,/' dup/manifest.json && grep -q '"chips": 2, "chips": 2' dup/manifest.json
cp -r ref deep2 && { head -c 1 ref/manifest.json; printf '"x": '; head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; printf ', '; tail -c +2 ref/manifest.json; } > deep2/manifest.json
)");
    ASSERT_EQ(o.exit_code, 0) << o.err;
    fs::remove(dir_ / "script.sh");
  }
};

TEST_F(HostileCases, EveryLine) {
  const std::vector<Case> cases = read_cases();
  ASSERT_GT(cases.size(), 40U);
  const fs::path scratch = dir_;
  const fs::path fixtures = scratch / "fixtures";  // made once, copied for each case
  dir_ = fixtures;
  fs::create_directories(dir_);
  make_fixtures();
  for (const Case& c : cases) {
    SCOPED_TRACE("hostile_cases.txt:" + std::to_string(c.line) + ": " + c.command);
    dir_ = scratch / ("case" + std::to_string(c.line));
    fs::copy(fixtures, dir_, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    std::map<std::string, std::string> before;
    for (const std::string& check : c.after) {
      if (check.starts_with("same:")) before[check.substr(5)] = state(dir_ / check.substr(5));
    }
    const fs::path out = scratch / "out", err = scratch / "err";  // outside the folder it checks
    const std::string script = "cd '" + dir_.string() + "' || exit 99\n" + c.command + "\n";
    std::ofstream(scratch / "case.sh") << script;
    const std::string cmd = "NB='" + binary() + "' MODS='" NEFFBAR_TEST_MODULES "' PORT='" NEFFBAR_PORT_MODULE "' sh '" +
                            (scratch / "case.sh").string() + "' > '" + out.string() + "' 2> '" + err.string() +
                            "' < /dev/null";
    const int status = std::system(cmd.c_str());
    const Outcome o{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    if (o.exit_code == kSkip) {  // what the case needs is not here (a mount, setpriv): said, not failed
      std::cout << "hostile_cases.txt:" << c.line << ": skipped: " << o.err;
      fs::remove_all(dir_);
      continue;
    }
    if (c.exit != "*") {
      EXPECT_EQ(std::to_string(o.exit_code), c.exit) << o.err;
      if (c.exit == "1" || c.exit == "2") {
        EXPECT_TRUE(one_error_line(o.err)) << o.err;
        EXPECT_EQ(o.out, "");
      }
    }
    for (const std::string& check : c.after) {
      const std::string arg = check.substr(check.find(':') + 1);
      const fs::path p = dir_ / arg;
      if (check.starts_with("same:")) {
        EXPECT_EQ(state(p), before[arg]) << check;
      } else if (check.starts_with("gone:")) {
        EXPECT_FALSE(fs::exists(fs::symlink_status(p))) << check;
      } else if (check.starts_with("file:")) {
        EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(p)) && fs::file_size(p) > 0) << check;
      } else if (check.starts_with("link:")) {
        EXPECT_TRUE(fs::is_symlink(fs::symlink_status(p))) << check;
      } else if (check == "notemp") {
        EXPECT_EQ(temporaries(dir_), std::vector<std::string>{}) << check;
      } else if (check == "json") {
        EXPECT_TRUE(nlohmann::json::accept(o.out)) << o.out;
      } else if (check == "clean") {
        EXPECT_TRUE(clean(o.out)) << o.out;
        EXPECT_TRUE(clean(o.err)) << o.err;
      } else if (check.starts_with("errhas:")) {
        std::string text = arg;
        std::replace(text.begin(), text.end(), '~', ' ');
        EXPECT_NE(o.err.find(text), std::string::npos) << check << "\n" << o.err;
      } else if (check.starts_with("has:")) {
        std::string text = arg;
        std::replace(text.begin(), text.end(), '~', ' ');
        EXPECT_NE(o.out.find(text), std::string::npos) << check << "\n" << o.out;
      } else {
        ADD_FAILURE() << "unknown check " << check;
      }
    }
    fs::remove_all(dir_);
  }
  dir_ = scratch;
}

}  // namespace
