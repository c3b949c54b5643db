// strict_json.h: the one strict reader refuses what nlohmann-json alone would take.
#include "neffbar/strict_json.h"

#include <gtest/gtest.h>

#include <string>

namespace neffbar {
namespace {

TEST(StrictJson, ReadsJson) {
  const Result<nlohmann::json> j = parse_strict_json(R"({"a": [1, {"b": "c"}], "d": null})");
  ASSERT_TRUE(j.ok()) << j.error().message();
  EXPECT_EQ((*j)["a"][1]["b"], "c");
}

TEST(StrictJson, RefusesADuplicateKeyNamingItsPath) {
  const Result<nlohmann::json> j = parse_strict_json(R"({"a": [1, {"b": 1, "b": 1}]})");
  ASSERT_FALSE(j.ok());
  EXPECT_EQ(j.error().where, "$.a[1].b");
  EXPECT_EQ(j.error().expected, "each key once");
  EXPECT_TRUE(parse_strict_json(R"({"b": {"b": 1}})").ok());  // one key in each of two objects
  EXPECT_TRUE(parse_strict_json(R"([{"b": 1}, {"b": 1}])").ok());
}

TEST(StrictJson, RefusesNestingPastTheBoundWithoutRecursing) {
  const auto nested = [](std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_TRUE(parse_strict_json(nested(kMaxJsonDepth)).ok());
  EXPECT_FALSE(parse_strict_json(nested(kMaxJsonDepth + 1)).ok());
  EXPECT_TRUE(parse_strict_json(nested(3), 3).ok());
  EXPECT_FALSE(parse_strict_json(nested(4), 3).ok());
  const Result<nlohmann::json> deep = parse_strict_json(nested(1'000'000));  // a stack overflow if it recursed
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.error().expected.find("nested at most 64 deep"), std::string::npos) << deep.error().message();
  EXPECT_FALSE(parse_strict_json(std::string(1'000'000, '[')).ok());  // unclosed, too
}

TEST(StrictJson, RefusesNulTrailingTextAndNonJson) {
  EXPECT_EQ(parse_strict_json(std::string("{}\0{}", 5)).error().where, "byte 2");
  EXPECT_FALSE(parse_strict_json("{} {}").ok());
  EXPECT_FALSE(parse_strict_json("{").ok());
  EXPECT_FALSE(parse_strict_json("").ok());
  EXPECT_FALSE(parse_strict_json("\"\xff\"").ok());  // not UTF-8
  EXPECT_TRUE(parse_strict_json(" {} \n").ok());
}

// A refusal names the byte where the parser stopped and says what it found in words,
// without the library's "[json.exception.parse_error.101]" tag.
TEST(StrictJson, ARefusalNamesItsByteWithoutTheLibrarysTag) {
  const Result<nlohmann::json> overflow = parse_strict_json(R"({"chips": 1e999999})");
  ASSERT_FALSE(overflow.ok());
  EXPECT_EQ(overflow.error().where, "byte 18") << overflow.error().message();  // where the number ends
  EXPECT_NE(overflow.error().got.find("number overflow"), std::string::npos) << overflow.error().message();
  const Result<nlohmann::json> syntax = parse_strict_json(R"({"a": x})");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.error().where, "byte 7") << syntax.error().message();
  for (const auto* r : {&overflow, &syntax}) {
    EXPECT_EQ(r->error().message().find("json.exception"), std::string::npos) << r->error().message();
  }
}

}  // namespace
}  // namespace neffbar
