// One command line through neffbar::cli::run (what main() calls), in process, with
// std::cout and std::cerr caught: the runner the in-process tests of this folder share
// (the laws' in_process.h, the budget test's injected clock).
#pragma once

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app.h"

namespace neffbar::cli::in_process {

struct Ran {
  int code = -1;
  std::string out, err;
};

// `words` without the program name; `clock` as run() takes it (default: the real one).
inline Ran run_cli(std::vector<std::string> words, model::SecondsClock clock = {}) {
  words.insert(words.begin(), "neffbar");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::ostringstream out, err;
  std::streambuf* saved_out = std::cout.rdbuf(out.rdbuf());
  std::streambuf* saved_err = std::cerr.rdbuf(err.rdbuf());
  Ran r;
  r.code = run(static_cast<int>(words.size()), argv.data(), std::move(clock));
  std::cout.rdbuf(saved_out);
  std::cerr.rdbuf(saved_err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

}  // namespace neffbar::cli::in_process
