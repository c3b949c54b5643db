// engine_options.h: each engine option once, its default as the engines hold it, and
// who reads it (the CLI's refusals come from `readers`; cli_test checks them end to end).
#include "neffbar/model/engines/engine_options.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace neffbar::model {
namespace {

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
