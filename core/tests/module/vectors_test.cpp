// The test vectors: the reference passes every one of its own; a module that falls into a
// trap fails the vectors flagged with it; a file that is not a vector file is refused.
#include "neffbar/module/vectors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "neffbar/module/facts.h"
#include "neffbar/module/reference_module.h"

namespace neffbar {
namespace {

TEST(Vectors, TheReferencePassesEveryVector) {
  for (const std::string_view op : kOperations) {
    const auto file = make_vectors(op);
    EXPECT_EQ(file["operation"], op);
    EXPECT_EQ(file["numberOfTests"], file["tests"].size());
    for (const VectorOutcome& o : run_vectors(reference_module(), file))
      EXPECT_FALSE(o.disagreement) << op << " tcId " << o.id << ": " << o.disagreement->line();
  }
}

TEST(Vectors, EveryTrapAndEveryFlagUsedHasItsNoteAndEveryTrapAVector) {
  std::set<std::string> used;
  for (const std::string_view op : kOperations) {
    const auto file = make_vectors(op);
    for (const auto& t : file["tests"])
      for (const auto& f : t["flags"]) {
        used.insert(f.get<std::string>());
        ASSERT_TRUE(file["notes"].contains(f.get<std::string>())) << f;
        EXPECT_EQ(file["notes"][f.get<std::string>()]["source"], std::string(fact(f.get<std::string>())->source));
      }
  }
  for (const Fact& f : kFacts) EXPECT_TRUE(used.count(std::string(f.flag))) << f.flag << " has no vector";
}

TEST(Vectors, AWrongExpectationFailsNamingTheVectorsFlag) {
  auto file = make_vectors("search");
  auto found = std::find_if(file["tests"].begin(), file["tests"].end(),
                            [](const auto& x) { return x["expected"]["status"] == "OK"; });
  ASSERT_NE(found, file["tests"].end());
  auto& t = *found;
  t["expected"]["lane"] = t["expected"]["lane"].get<int>() + 1;
  const auto out = run_vectors(reference_module(), file);
  int failed = 0;
  for (const auto& o : out)
    if (o.disagreement) {
      ++failed;
      EXPECT_EQ(o.id, t["tcId"].get<int>());
      EXPECT_EQ(o.disagreement->flag, "FirstMatchWins");
    }
  EXPECT_EQ(failed, 1);
}

TEST(Vectors, AFileThatIsNotOneIsRefusedNamingTheTest) {
  auto file = make_vectors("table_bytes");
  file["tests"][1]["input"].erase("fabric");
  EXPECT_THROW(run_vectors(reference_module(), file), std::invalid_argument);
  auto bad = make_vectors("table_bytes");
  bad["tests"][0]["expected"]["bytes"] = "zz";
  EXPECT_THROW(run_vectors(reference_module(), bad), std::invalid_argument);
  auto status = make_vectors("sema_apply");
  status["tests"][0]["expected"]["status"] = "MAYBE";
  EXPECT_THROW(run_vectors(reference_module(), status), std::invalid_argument);
  EXPECT_THROW(make_vectors("compose"), std::invalid_argument);
}

}  // namespace
}  // namespace neffbar
