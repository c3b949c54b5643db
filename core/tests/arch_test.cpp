#include <gtest/gtest.h>

#include "neffbar/arch.h"

namespace neffbar {
namespace {

TEST(Arch, NamesAndIds) {
  EXPECT_EQ(*parse_arch("sunda"), Arch::Sunda);
  EXPECT_EQ(*parse_arch("CAYMAN"), Arch::Cayman);
  EXPECT_EQ(*parse_arch("0x14"), Arch::Mariana);
  EXPECT_EQ(*parse_arch("28"), Arch::MarianaPlus);
  EXPECT_EQ(*parse_arch("v4+"), Arch::MarianaPlus);
  EXPECT_EQ(arch_name(Arch::MarianaPlus), "mariana_plus");
}

TEST(Arch, V5HasItsOwnError) {
  for (const char* s : {"maverick", "MAVERICK", "v5"}) {
    const Result<Arch> r = parse_arch(s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::NoV5Decoder);
    EXPECT_NE(r.error().message().find("no NCFW barrier decoder exists for v5"), std::string::npos);
  }
}

TEST(Arch, UnknownIdsNameTheFourSupported) {
  for (std::uint32_t id = 0; id < 256; ++id) {
    const Result<Arch> r = arch_from_id(id);
    const bool known = id == 0x05 || id == 0x0C || id == 0x14 || id == 0x1C;
    ASSERT_EQ(r.ok(), known) << id;
    if (!known) {
      EXPECT_EQ(r.error().code, Errc::UnknownArch);
      EXPECT_NE(r.error().message().find("0x05 sunda (v2), 0x0C cayman (v3), 0x14 mariana (v4), 0x1C mariana_plus"),
                std::string::npos);
    }
  }
  EXPECT_EQ(parse_arch("banana").error().code, Errc::UnknownArch);
  EXPECT_EQ(parse_arch("").error().code, Errc::UnknownArch);
}

}  // namespace
}  // namespace neffbar
