// The end-to-end fixture: runs the real neffbar binary through the shell and collects
// its exit code, stdout and stderr (the tests of this folder, one file per source of
// core/cli/).
#pragma once

#include "testing/sanitized.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace neffbar_e2e {

// Built with AddressSanitizer (the binary under test is too): ulimit -v cannot work
// there, since ASan reserves terabytes of address space, and everything is slower.
using neffbar::testing::kSanitized;

namespace fs = std::filesystem;

struct Outcome {
  int exit_code;
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("neffbar_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path file(const std::string& name, const std::string& content) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

  // `args` is shell text after the binary; stdin comes from `in` (default /dev/null).
  Outcome run(const std::string& args, const std::string& in = "/dev/null") {
    const fs::path out = dir_ / "stdout";
    const fs::path err = dir_ / "stderr";
    const std::string cmd = std::string("'") + NEFFBAR_BIN + "' " + args + " < '" + in + "' > '" +
                            out.string() + "' 2> '" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }

  // A valid config (all zero) and its default JSON log, as files.
  fs::path config() { return file("cfg.bin", std::string(0x128, '\0')); }
  fs::path log() { return file("cfg.json", run("decode '" + config().string() + "'").out); }

  static std::string random_image(unsigned seed) {
    std::mt19937 rng(seed);
    std::string s(0x128, '\0');
    for (auto& c : s) c = static_cast<char>(rng());
    return s;
  }

  // The same under `ulimit -v kib` (a shell around the binary).
  Outcome run_limited(std::size_t kib, const std::string& args) {
    return shell("ulimit -v " + std::to_string(kib) + "; exec \"$NB\" " + args + " < /dev/null");
  }

  // `script` is shell text run by sh -c with $NB set to the binary; stdout and stderr
  // go where the script sends them, else to the Outcome.
  Outcome shell(const std::string& script) {
    const fs::path out = dir_ / "stdout";
    const fs::path err = dir_ / "stderr";
    const fs::path text = file("script.sh", script + "\n");
    const std::string cmd = std::string("NB='") + NEFFBAR_BIN + "' sh '" + text.string() + "' > '" + out.string() +
                            "' 2> '" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }

  fs::path dir_;
};

// Exactly one line on stderr, starting "neffbar: ".
inline bool one_error_line(const std::string& err) {
  return err.starts_with("neffbar: ") && !err.empty() && err.find('\n') == err.size() - 1;
}

}  // namespace neffbar_e2e
