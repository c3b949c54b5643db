// conform(): its JSON reads back to the same judgement, and the table and the page say
// what the data says (read back, not only shaped).
#include "neffbar/module/conformance.h"

#include <gtest/gtest.h>

#include <regex>

#include "neffbar/module/reference_module.h"

namespace neffbar {
namespace {

std::int32_t bad_search(std::uint32_t, std::int64_t, std::int64_t, std::uint32_t*, std::int32_t*) { return NEFFBAR_NOT_FOUND; }
const neffbar_module kSearchOnly{NEFFBAR_MODULE_ABI_VERSION, "search only", nullptr, nullptr, bad_search, nullptr, nullptr};

TEST(Conformance, TheReferenceAgreesAndSaysSo) {
  const Conformance c = conform(reference_module(), {7, 0.0, 0, {}});
  EXPECT_TRUE(c.agrees());
  ASSERT_EQ(c.ops.size(), std::size(kOperations));
  for (const OpReport& r : c.ops) {
    EXPECT_TRUE(r.implemented);
    EXPECT_EQ(r.passed, r.vectors);
    EXPECT_GT(r.vectors, 0);
  }
  EXPECT_NE(c.table().find("verdict: the module agrees with the reference (seed 7)"), std::string::npos);
}

TEST(Conformance, ABrokenModuleIsJudgedOnWhatItImplementsAndReadsBack) {
  const Conformance c = conform(kSearchOnly, {3, 0.0, 50, {}});
  EXPECT_FALSE(c.agrees());
  const OpReport& search = c.ops[2];
  ASSERT_EQ(search.op, "search");
  EXPECT_TRUE(search.implemented);
  ASSERT_TRUE(search.first_failure);
  EXPECT_LT(search.passed, search.vectors);
  for (const OpReport& r : c.ops)
    if (r.op != "search") {
      EXPECT_FALSE(r.implemented) << r.op;
    }

  const Conformance back = Conformance::from_json(c.to_json());
  EXPECT_EQ(back.to_json(), c.to_json());
  EXPECT_EQ(back.table(), c.table());
  EXPECT_THROW(Conformance::from_json(nlohmann::ordered_json{{"module", 1}}), std::invalid_argument);

  // The page's rows, read back: one per operation, the counts and the verdict the data has.
  const std::string page = c.html();
  const std::regex row("<tr( class=\"bad\")?><td>([a-z_]+)</td><td>(yes|no)</td><td>([^<]*)</td>");
  int rows = 0;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), row); it != std::sregex_iterator(); ++it, ++rows) {
    const OpReport& r = c.ops[static_cast<std::size_t>(rows)];
    EXPECT_EQ((*it)[2], r.op);
    EXPECT_EQ((*it)[3], r.implemented ? "yes" : "no");
    if (r.implemented) {
      EXPECT_EQ((*it)[4], std::to_string(r.passed) + "/" + std::to_string(r.vectors));
    }
    EXPECT_EQ((*it)[1].matched, r.first_failure.has_value() || r.fuzz_disagreement.has_value());
  }
  EXPECT_EQ(rows, static_cast<int>(c.ops.size()));
  EXPECT_NE(page.find("<p id=\"verdict\">DISAGREES</p>"), std::string::npos);
  EXPECT_NE(c.table().find("verdict: DISAGREES (seed 3)"), std::string::npos);
}

TEST(Conformance, TheFuzzIsBoundedByItsRunsAndReproducible) {
  const Conformance a = conform(kSearchOnly, {11, 100.0, 40, {}});
  const Conformance b = conform(kSearchOnly, {11, 100.0, 40, {}});
  ASSERT_TRUE(a.ops[2].fuzz_disagreement);
  EXPECT_LE(a.ops[2].fuzz_runs, 40u);
  EXPECT_EQ(a.ops[2].fuzz_input, b.ops[2].fuzz_input);  // the seed decides the input
  EXPECT_NE(a.table().find("reproduce search: " + a.ops[2].fuzz_input), std::string::npos);
}

}  // namespace
}  // namespace neffbar
