// cli: a whole command line, run in process through neffbar::cli::run (what main()
// calls), with std::cin, std::cout and std::cerr redirected to memory.
//
// Input: argv words, one per line ('\n'), up to the first 0 byte; the bytes after it
// are stdin.  At most 24 words of at most 64 bytes.  Skipped, so that a run stays a
// function of the input and bounded by design: words with '/' (no file outside the
// working directory), `-o`/`--output` (no file written anywhere but below), `hypotheses`
// without `--small` and `--full` (the whole matrix and table take seconds by design).
// Sampled (fuzz_check.h's SlowOracleSample: one distinct input in 1024 while fuzzing,
// every input under NEFFBAR_FUZZ_EVERY=1, the ctest replay), so that the target keeps
// >= 1,000 executions per CPU second: `hypotheses --small` (768 scenarios, ~4 s under
// ASan, and a function of its two flags: mutants add nothing but its error paths, which
// the other inputs reach) runs only for the sampled inputs; `check` and `check-configs`
// get `--max-seconds 2` in place of any given for the sampled inputs and
// `--max-seconds 0.05` for the others (their time budget, every engine and phase: the
// explicit search may run 300 s, the persistent engine ~0.5 s on 64 chips; a budget
// that runs out is a BUDGET verdict, exit 4, which the oracle checks like any other).
//
// File-system objects, as hostile as a user's: these words stand for
//   @dir       an empty directory            @missing   a path that does not exist
//   @null      /dev/null (empty input)       @zero      /dev/zero (endless input)
//   @out-full  -o /dev/full (every write fails: no space left on device)
//   @out-dir   -o <the directory>            @out-file  -o <a file in the directory>
//   @stdout-full  no word: stdout fails on every write, as on a full disk
//
// Oracle (the CLI's conventions, core/cli/io.h and README "The CLI"):
//  - the exit code is one of 0 ok, 1 invalid input, 2 usage, 3 lint found, 4 failing;
//  - exit 1 or 2: nothing on stdout, and exactly one line on stderr, "neffbar: ...",
//    that names an argv word, an option or stdin;
//  - exit 0, 3 or 4 (--help, --version included): something on stdout, unless the
//    result went to -o or is a clean lint's (empty);
//  - the command ends within 10 s: libFuzzer's -timeout (cli.options) while fuzzing; not
//    asserted in the ctest replay, where the machine's load would decide it.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app.h"
#include "cli_objects.h"
#include "exit.h"
#include "fuzz_check.h"

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

// The error line names a word as the CLI prints it: escaped (exit.h), '' when empty.
bool names_something(std::string_view line, const std::vector<std::string>& words) {
  for (const char* name : {"stdin", "stdout", "--"}) {
    if (line.find(name) != std::string_view::npos) return true;
  }
  for (std::size_t i = 1; i < words.size(); ++i) {  // words[0] is the program name
    const std::string shown = words[i].empty() ? "''" : neffbar::cli::escape(words[i]);
    if (line.find(shown) != std::string_view::npos) return true;
  }
  return false;
}

// A stream buffer that takes nothing, like a file on a full disk.
struct FullBuf : std::streambuf {
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

// The folder behind @dir, made once per process and removed at exit (held by a pointer
// that is never freed, so the exit handler cannot outlive it).
const std::filesystem::path& scratch() {
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

// Expands the @ words (header comment); false: the input names a file it may not.
bool expand_objects(std::vector<std::string>& words, bool& stdout_full) {
  using neffbar::fuzz::CliObject;
  std::vector<std::string> out;
  for (const std::string& w : words) {
    const bool short_o = w.size() > 1 && w[0] == '-' && w[1] != '-' && w.find('o') != std::string::npos;
    if (short_o || w.starts_with("--output")) return false;
    const std::optional<CliObject> object = neffbar::parse_enum<CliObject>(w);
    if (!object) {
      out.push_back(w);
      continue;
    }
    switch (*object) {
      case CliObject::Dir: out.push_back(scratch().string()); break;
      case CliObject::Missing: out.push_back((scratch() / "missing").string()); break;
      case CliObject::Null:
      case CliObject::Zero: out.push_back("/dev/" + w.substr(1)); break;
      case CliObject::OutFull: out.insert(out.end(), {"-o", "/dev/full"}); break;
      case CliObject::OutDir: out.insert(out.end(), {"-o", scratch().string()}); break;
      case CliObject::OutFile: out.insert(out.end(), {"-o", (scratch() / "out").string()}); break;
      case CliObject::StdoutFull: stdout_full = true; break;
    }
  }
  words = std::move(out);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using neffbar::fuzz::require;
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
  bool small = false, full = false, hypotheses = false, bounded = false;
  for (const std::string& w : words) {
    if (w.size() > 64 || w.find('/') != std::string::npos) return 0;
    small = small || w == "--small";
    full = full || w == "--full";
    hypotheses = hypotheses || w == "hypotheses";
    bounded = bounded || w == "check" || w == "check-configs";
  }
  if (full || (hypotheses && !small)) return 0;
  static neffbar::fuzz::SlowOracleSample sample;
  const bool thorough = sample(std::span<const std::uint8_t>(data, size));
  if (hypotheses && !thorough) return 0;
  bool stdout_full = false;
  if (!expand_objects(words, stdout_full)) return 0;
  const bool to_file = std::find(words.begin(), words.end(), "-o") != words.end();
  const bool lint = std::find(words.begin(), words.end(), "lint") != words.end();
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

  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::istringstream in(stdin_bytes);
  std::ostringstream out, err;
  FullBuf full_disk;
  if (stdout_full) out.basic_ios<char>::rdbuf(&full_disk);
  int rc = 0;
  {
    const Redirect r(in, out, err);
    rc = neffbar::cli::run(static_cast<int>(words.size()), argv.data());
  }

  require(rc >= 0 && rc <= 4, "the exit code is one of the documented ones (0..4)");
  const std::string e = err.str();
  if (rc == 1 || rc == 2) {
    require(out.str().empty(), "nothing is written to stdout on error");
    require(e.starts_with("neffbar: ") && e.ends_with("\n") && e.find('\n') == e.size() - 1,
            "a failure prints exactly one error line");
    require(names_something(e, words), "the error line names an argv word, an option or stdin");
  } else if (!to_file && !(lint && rc == 0)) {
    require(!out.str().empty(), "a command that succeeds writes its result to stdout");
  }
  if (stdout_full && !to_file && rc != 2) {
    require(rc == 1 || (lint && rc == 0), "a result that cannot be written is an error, not exit 0");
  }
  return 0;
}
