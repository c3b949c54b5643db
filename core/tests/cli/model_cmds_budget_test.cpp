// --max-seconds bounds the whole command: check and check-configs run in process
// (neffbar::cli::run) with an injected clock cut at every read it makes, without timing
// anything.  At every cut the command answers the uncut verdict or BUDGET (exit 4,
// never exact), its JSON is whole, and it reads the clock at most a few times after the
// cut: no phase (composing and lowering, the decision, a re-check of fewer rounds)
// starts once the budget is spent.
//
// The memory the allocator refuses, the same way: this binary's operator new refuses
// the k-th allocation of a command, for every k it makes (below).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "app.h"
#include "run_in_process.h"
#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"

// Allocations counted while armed; the one numbered `refuse` (from 0) throws bad_alloc.
namespace refusal {
std::atomic<bool> armed{false};
std::atomic<std::uint64_t> count{0}, refuse{UINT64_MAX};

void* refusable_alloc(std::size_t n) {
  if (refusal::armed.load(std::memory_order_relaxed) && refusal::count.fetch_add(1) == refusal::refuse.load()) {
    throw std::bad_alloc();
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void plain_free(void* p) noexcept { std::free(p); }
}  // namespace refusal

void* operator new(std::size_t n) { return refusal::refusable_alloc(n); }
void* operator new[](std::size_t n) { return refusal::refusable_alloc(n); }
void operator delete(void* p) noexcept { refusal::plain_free(p); }
void operator delete[](void* p) noexcept { refusal::plain_free(p); }
void operator delete(void* p, std::size_t) noexcept { refusal::plain_free(p); }
void operator delete[](void* p, std::size_t) noexcept { refusal::plain_free(p); }
// The nothrow forms too (std::stable_sort's buffer, MemoryReserve::rearm): else they come
// from ASan's allocator and go back to free() above, an alloc-dealloc mismatch.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return refusal::refusable_alloc(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p, const std::nothrow_t&) noexcept { refusal::plain_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { refusal::plain_free(p); }

namespace neffbar::cli {
namespace {

// As main() does: check-configs without hints finds its symmetry with nauty.
[[maybe_unused]] const bool kNautyRegistered = (model::use_nauty_automorphisms(), true);

struct Answer {
  int code = 0;
  nlohmann::json out;
  std::uint64_t reads = 0;        // clock reads in all
  std::uint64_t after_cut = 0;    // of which after the first one past the budget
};

Answer run_cut(std::vector<std::string> words, std::uint64_t cut_at) {
  auto reads = std::make_shared<std::uint64_t>(0);
  auto past = std::make_shared<std::uint64_t>(0);
  const model::SecondsClock clock = [reads, past, cut_at] {
    if ((*reads)++ < cut_at) return 0.0;
    ++*past;
    return 1e9;
  };
  const in_process::Ran r = in_process::run_cli(std::move(words), clock);
  Answer a;
  a.code = r.code;
  a.out = nlohmann::json::parse(r.out, nullptr, false);
  a.reads = *reads;
  a.after_cut = *past > 0 ? *past - 1 : 0;
  return a;
}

std::uint64_t sweep(const std::vector<std::string>& words) {
  const Answer full = run_cut(words, UINT64_MAX);
  EXPECT_FALSE(full.out.is_discarded()) << "the uncut command's JSON";
  const std::string verdict = full.out.value("verdict", "?");
  std::uint64_t budgets = 0;
  for (std::uint64_t k = 0; k <= full.reads; ++k) {
    const Answer c = run_cut(words, k);
    const std::string what = words[0] + " cut at read " + std::to_string(k) + " of " + std::to_string(full.reads);
    EXPECT_FALSE(c.out.is_discarded()) << what << ": its JSON is whole";
    if (c.out.is_discarded()) continue;
    const std::string v = c.out.value("verdict", "?");
    EXPECT_TRUE(v == verdict || v == "BUDGET") << what << ": " << v << " (uncut " << verdict << ")";
    EXPECT_EQ(c.code, v == verdict ? full.code : 4) << what;
    if (v == "BUDGET") {
      ++budgets;
      EXPECT_FALSE(c.out.value("exact", true)) << what;
    }
    EXPECT_LE(c.after_cut, 3u) << what << ": the clock read " << c.after_cut << " more times after the cut";
  }
  EXPECT_GT(budgets, 0u) << words[0] << ": no cut changed the answer";
  return full.reads + 1;
}

TEST(ModelCmdsBudget, CheckWithItsReChecksAtEveryClockRead) {
  // The explicit search on a failing 2-round scenario: the decision, then a re-check of
  // 1 round, each reading the clock at every poll.
  EXPECT_GT(sweep({"check", "--chips", "1", "--leaders", "2", "--rounds", "2", "--engine", "explicit", "--json"}), 3u);
}

TEST(ModelCmdsBudget, CheckThroughThePersistentEngineAtEveryClockRead) {
  EXPECT_GT(sweep({"check", "--chips", "2", "--leaders", "2", "--host-cc", "--rounds", "3", "--json"}), 3u);
}

TEST(ModelCmdsBudget, RandomSchedulesAtEveryClockRead) {
  EXPECT_GT(sweep({"check", "--chips", "1", "--leaders", "2", "--random", "3", "--json"}), 3u);
}

TEST(ModelCmdsBudget, CheckConfigsAtEveryClockRead) {
  const std::string cfg = std::string(NEFFBAR_CORPUS_DIR) + "/examples/two_leaders_gate.json";
  // check-configs reads config images: encode the shipped example first.
  const std::string bin = ::testing::TempDir() + "/cli_budget_two_leaders.bin";
  std::vector<std::string> enc{"neffbar", "encode", cfg, "-o", bin};
  std::vector<char*> argv;
  for (std::string& w : enc) argv.push_back(w.data());
  argv.push_back(nullptr);
  ASSERT_EQ(run(static_cast<int>(enc.size()), argv.data()), 0);
  EXPECT_GT(sweep({"check-configs", bin, bin, "--engine", "explicit", "--json"}), 3u);
  // Four copies: the symmetry found by nauty, its search tree polled too.
  const std::vector<std::string> four{"check-configs", bin, bin, bin, bin, "--engine", "explicit", "--json"};
  EXPECT_EQ(run_cut(four, UINT64_MAX).out.value("symmetry_source", ""), model::nauty_automorphisms()->name());
  EXPECT_GT(sweep(four), 3u);
}

// The allocator refusing one allocation, for each allocation `encode ... -o FILE` makes
// (building the command line, parsing, encoding, copying the result out of the capture,
// handing it to the outputs, writing them), each in a child process: the command
// succeeds, or ends with exit 1 and one line; a line that says the memory ran out names
// the command (or the output), as a failure anywhere else names what failed; and once
// the command has started, no bad_alloc leaves run() (main() would abort).  Before it,
// building the options (CLI11) is not guarded; a refusal inside CLI11's or nlohmann's
// own noexcept functions terminates the child: both counted, not failed.
struct Refused {
  enum { Ran, Escaped, Aborted } how = Ran;
  int code = -1;
  std::string out, err;
};

Refused run_refusing(const std::vector<std::string>& words, std::uint64_t k) {
  int fd[2];
  if (pipe(fd) != 0) return {};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    // Descriptor 2 into a file: a line written there without std::cerr (as a line that
    // must not allocate may be) is read back after std::cerr's; std::terminate's own
    // words land there too, unread.
    char err_path[] = "/tmp/neffbar_refusal_err_XXXXXX";
    const int err_fd = mkstemp(err_path);
    if (err_fd >= 0) {
      unlink(err_path);
      dup2(err_fd, 2);
    }
    refusal::count = 0;
    refusal::refuse = k;
    refusal::armed = true;
    std::string report;
    try {
      const in_process::Ran r = in_process::run_cli(words);
      refusal::armed = false;
      std::string raw;
      char buf[4096];
      for (ssize_t got = pread(2, buf, sizeof buf, 0); got > 0; got = pread(2, buf, sizeof buf, static_cast<off_t>(raw.size()))) {
        raw.append(buf, static_cast<std::size_t>(got));
      }
      report = "R" + std::to_string(r.code) + "\n" + std::to_string(r.out.size()) + "\n" + r.out + r.err + raw;
    } catch (const std::bad_alloc&) {  // out of run(): main() would abort
      refusal::armed = false;
      report = "E";
    }
    for (std::size_t at = 0; at < report.size();) {
      const ssize_t w = write(fd[1], report.data() + at, report.size() - at);
      if (w <= 0) break;
      at += static_cast<std::size_t>(w);
    }
    _exit(0);
  }
  close(fd[1]);
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Refused r;
  if (!WIFEXITED(status) || got.empty()) {
    r.how = Refused::Aborted;
  } else if (got[0] == 'E') {
    r.how = Refused::Escaped;
  } else {
    const std::size_t a = got.find('\n'), b = got.find('\n', a + 1);
    r.code = std::stoi(got.substr(1, a - 1));
    const std::size_t n = std::stoul(got.substr(a + 1, b - a - 1));
    r.out = got.substr(b + 1, n);
    r.err = got.substr(b + 1 + n);
  }
  return r;
}

TEST(ModelCmdsBudget, EncodeWithEveryAllocationRefusedInTurn) {
  const std::string cfg = std::string(NEFFBAR_CORPUS_DIR) + "/examples/two_leaders_gate.json";
  const std::string out = ::testing::TempDir() + "/cli_budget_refused_allocation_output.bin";  // past the string's inline buffer
  const std::vector<std::string> words{"encode", cfg, "-o", out};
  refusal::count = 0;
  refusal::refuse = UINT64_MAX;
  refusal::armed = true;
  const in_process::Ran full = in_process::run_cli(words);
  refusal::armed = false;
  ASSERT_EQ(full.code, 0) << full.err;
  const std::uint64_t n = refusal::count;
  ASSERT_GT(n, 10u);
  const std::string oom = " out of memory (the allocator refused; a smaller topology, or more memory for this process)\n";
  std::uint64_t said = 0, escaped = 0, aborted = 0, first_line = UINT64_MAX;
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::string what = "allocation " + std::to_string(k) + " of " + std::to_string(n) + " refused";
    const Refused r = run_refusing(words, k);
    if (r.how == Refused::Escaped) {
      ++escaped;
      EXPECT_LT(k, first_line) << what << ": bad_alloc left run() after the command had started";
    }
    if (r.how == Refused::Ran && r.code != 0) first_line = std::min(first_line, k);

    if (r.how == Refused::Aborted) ++aborted;
    if (r.how != Refused::Ran || r.code == 0) continue;
    EXPECT_EQ(r.code, 1) << what << ": " << r.err;
    EXPECT_EQ(r.out, "") << what;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": " << r.err;
    if (r.err.find("out of memory") == std::string::npos) continue;
    ++said;
    EXPECT_TRUE(r.err == "neffbar: encode:" + oom || r.err == "neffbar: output: out of memory\n") << what << ": " << r.err;
  }
  std::cout << n << " allocations refused in turn: " << said << " said so in one line, " << escaped << " left run(), "
            << aborted << " terminated\n";
  EXPECT_GT(said, 0u);
}

}  // namespace
}  // namespace neffbar::cli
