// engine_options.h: each engine option once, its default as the engines hold it, its
// range, and who reads it (the CLI's parsing and refusals come from the rows; cli_test
// checks them end to end).
#include "neffbar/model/engines/engine_options.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include <optional>
#include <set>
#include <string>

namespace neffbar::model {
namespace {

// The row of `flag`; nullptr when no engine option has that flag.
const EngineOption* engine_option(std::string_view flag) {
  for (const EngineOption& o : kEngineOptions) {
    if (o.flag == flag) return &o;
  }
  return nullptr;
}

TEST(EngineOptions, EachFlagOnceAndFoundByName) {
  std::set<std::string_view> flags;
  for (const EngineOption& o : kEngineOptions) {
    EXPECT_TRUE(flags.insert(o.flag).second) << o.flag;
    EXPECT_EQ(engine_option(o.flag), &o);
    EXPECT_TRUE(o.flag.starts_with("--")) << o.flag;
    EXPECT_FALSE(o.help.empty()) << o.flag;
    EXPECT_EQ(o.type.empty(), o.default_text == nullptr) << o.flag << ": a value has a default, a flag has none";
  }
  EXPECT_EQ(engine_option("--engine"), nullptr) << "choosing the engine is not a tuning option";
  EXPECT_EQ(engine_option("--max-state"), nullptr);
}

TEST(EngineOptions, DefaultsAreTheEnginesOwn) {
  EXPECT_EQ(engine_option("--seed")->default_text(), std::to_string(EngineOptions{}.seed));
  EXPECT_EQ(engine_option("--max-states")->default_text(), std::to_string(CheckOptions{}.max_states));
  EXPECT_EQ(engine_option("--max-seconds")->default_text(), decimal_text(CommonOptions{}.max_seconds));
  EXPECT_EQ(decimal_text(300), "300");
  EXPECT_EQ(decimal_text(0.5), "0.5");
  EXPECT_EQ(decimal_text(1e6), "1000000");
  EXPECT_EQ(decimal_text(10.25), "10.25");
}

// A row's text read into the options: its default gives the engines' own default, its
// range's ends are taken and one past them refused, naming the flag.
TEST(EngineOptions, EachRowReadsItsTextWithinItsRange) {
  for (const EngineOption& o : kEngineOptions) {
    EngineOptions opt;
    ASSERT_TRUE(o.apply(o.flag, o.default_text ? o.default_text() : "", opt).ok()) << o.flag;
    if (o.default_text) {
      const EngineOptions plain;
      EXPECT_EQ(opt.seed, plain.seed) << o.flag;
      EXPECT_EQ(opt.check.max_states, plain.check.max_states) << o.flag;
      EXPECT_EQ(opt.check.max_seconds, plain.check.max_seconds) << o.flag;
    }
  }
  const auto read = [](std::string_view flag, std::string_view text) {
    EngineOptions opt;
    const Status st = engine_option(flag)->apply(flag, text, opt);
    if (!st) {
      EXPECT_EQ(st.error().where, flag) << text;
    }
    return st.ok() ? std::optional<EngineOptions>(opt) : std::nullopt;
  };
  EXPECT_EQ(read("--seed", "0")->seed, 0u);
  EXPECT_EQ(read("--seed", "18446744073709551615")->seed, ~std::uint64_t{0});
  EXPECT_FALSE(read("--seed", "18446744073709551616"));
  EXPECT_FALSE(read("--seed", "-1"));
  EXPECT_FALSE(read("--max-states", "0"));
  EXPECT_EQ(read("--max-states", "1")->check.max_states, 1u);
  EXPECT_FALSE(read("--max-seconds", "0"));
  EXPECT_EQ(read("--max-seconds", "0.5")->check.max_seconds, 0.5);
  EXPECT_EQ(read("--max-memory", "auto")->check.max_memory, default_max_memory());
  EXPECT_LE(default_max_memory(), kDefaultMaxMemory);
  EXPECT_EQ(read("--max-memory", "512")->check.max_memory, std::uint64_t{512} << 20);
  EXPECT_EQ(read("--max-memory", "3KiB")->check.max_memory, std::uint64_t{3} << 10);
  EXPECT_EQ(read("--max-memory", "2g")->check.max_memory, std::uint64_t{2} << 30);
  EXPECT_EQ(read("--max-memory", "1T")->check.max_memory, std::uint64_t{1} << 40);
  EXPECT_EQ(read("--max-memory", "8388608T")->check.max_memory, std::uint64_t{1} << 63);
  EXPECT_EQ(read("--max-memory", "100000000000")->check.max_memory, std::uint64_t{100000000000} << 20) << "12 digits";
  for (const char* bad : {"0", "0M", "8388609T", "1X", "M", "-1", "1 M", "1000000000000"}) EXPECT_FALSE(read("--max-memory", bad)) << bad;
  const EngineOptions plain;
  ASSERT_TRUE(plain.check.reduce && plain.check.symmetry && plain.check.por);
  EXPECT_FALSE(read("--no-reduce", "")->check.reduce);
  EXPECT_FALSE(read("--no-symmetry", "")->check.symmetry);
  EXPECT_FALSE(read("--no-por", "")->check.por);
  EXPECT_TRUE(read("--no-por", "")->check.reduce) << "each flag its own field";
}

// Under `ulimit -v` the memory default leaves a quarter of the address space free (a
// forked child sets the limit: the test's own process keeps its address space).
TEST(EngineOptions, TheMemoryDefaultKeepsAQuarterOfTheAddressSpaceFree) {
  int fd[2];
  ASSERT_EQ(pipe(fd), 0);
  rlimit lim{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &lim), 0);
  lim.rlim_cur = std::min<rlim_t>(lim.rlim_max, rlim_t{2} << 30);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::uint64_t m = setrlimit(RLIMIT_AS, &lim) == 0 ? default_max_memory() : 0;
    _exit(write(fd[1], &m, sizeof m) == sizeof m ? 0 : 1);
  }
  close(fd[1]);
  std::uint64_t got = 0;
  EXPECT_EQ(read(fd[0], &got, sizeof got), static_cast<ssize_t>(sizeof got));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::uint64_t quarter_of_ram = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE) / 4;
  EXPECT_EQ(got, std::min({kDefaultMaxMemory, quarter_of_ram, std::uint64_t{lim.rlim_cur} / 4 * 3}));
}

TEST(EngineOptions, WhoReadsWhat) {
  for (Engine e : {Engine::Auto, Engine::Explicit, Engine::Persistent, Engine::Random}) {
    EXPECT_TRUE(engine_option("--max-seconds")->readers.has(e)) << engine_name(e) << ": every engine keeps the time budget";
    EXPECT_EQ(engine_option("--seed")->readers.has(e), e == Engine::Random) << engine_name(e);
    for (const char* explicit_only : {"--max-states", "--max-memory", "--no-reduce", "--no-symmetry", "--no-por"}) {
      EXPECT_EQ(engine_option(explicit_only)->readers.has(e), e == Engine::Explicit || e == Engine::Auto)
          << explicit_only << " " << engine_name(e);
    }
  }
}

}  // namespace
}  // namespace neffbar::model
