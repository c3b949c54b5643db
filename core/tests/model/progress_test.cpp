// progress.h: the progress line names the unit of the engine that counted.
#include "neffbar/model/engines/common/progress.h"

#include <gtest/gtest.h>

namespace neffbar::model {
namespace {

TEST(Progress, TheLineNamesItsUnitAndWholeSeconds) {
  EXPECT_EQ(progress_text({1200, WorkUnit::States, 3.9}), "  ... 1200 states, 3 s");
  EXPECT_EQ(progress_text({7, WorkUnit::Instructions, 0.2}), "  ... 7 instructions, 0 s");
}

}  // namespace
}  // namespace neffbar::model
