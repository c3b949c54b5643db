// P1..P11 (props/README.md) against the real implementation: every property of the
// registry (registry.h) under rapidcheck, the driver CI runs.  The same entries run from
// bytes in the fuzz targets prop_<name>.  Budget: RC_PARAMS (max_success, seed);
// ./scripts/props --cases N --seed S for long runs.
#include <gtest/gtest.h>

#include <string>

#include "rc_driver.h"
#include "registry.h"

namespace neffbar::props {
namespace {

class Props : public ::testing::TestWithParam<std::string_view> {};

TEST_P(Props, Holds) {
  bool found = false;
  for_each_property([&](const auto& p) {
    if (p.name != GetParam()) return;
    found = true;
    EXPECT_TRUE(rc::check(std::string(p.name), [p] { rc_run(p.draw, p.law); }));
  });
  EXPECT_TRUE(found);
}

INSTANTIATE_TEST_SUITE_P(, Props, ::testing::ValuesIn(property_names()),
                         [](const ::testing::TestParamInfo<std::string_view>& i) { return std::string(i.param); });

}  // namespace
}  // namespace neffbar::props
