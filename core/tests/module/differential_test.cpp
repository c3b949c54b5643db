// Differential: the reference agrees with itself on every operation; each way a module
// can be wrong is one disagreement line naming the path, offset, values and flag.
#include "neffbar/module/differential.h"

#include <gtest/gtest.h>

#include <cstring>

#include "neffbar/codec.h"
#include "neffbar/json_log.h"
#include "neffbar/module/facts.h"
#include "neffbar/module/reference_module.h"

namespace neffbar {
namespace {

// A module that is the reference except for one planted slip, chosen by `g_slip`.
enum class Slip { None, TotalDescN, GateAsBool, Overrun, LongLen, Status77, LaneOff, OpOff, WrapSema, DecByValue, TableByte };
Slip g_slip = Slip::None;
const neffbar_module& ref() { return reference_module(); }

std::int32_t decode(const std::uint8_t* b, std::size_t n, std::int32_t full, char* out, std::size_t cap, std::size_t* len) {
  std::vector<std::uint8_t> img(b, b + n);
  if (g_slip == Slip::TotalDescN && n == kConfigSize) img[0x120] = img[0x11C];  // a 0x124 mirror's bitmap
  const std::int32_t s = ref().decode_log(img.data(), n, full, out, cap, len);
  if (s != NEFFBAR_OK) return s;
  std::string t(out, *len);
  if (g_slip == Slip::GateAsBool) {
    const auto at = t.find("\"0x");
    t.replace(at, 5, t.substr(at + 3, 1));  // "0x1" -> 1
    std::memcpy(out, t.data(), t.size());
    *len = t.size();
  }
  if (g_slip == Slip::Overrun) std::memset(out + cap, 'x', 1);
  if (g_slip == Slip::LongLen) *len = cap + 1;
  return s;
}
std::int32_t search(std::uint32_t f, std::int64_t type, std::int64_t step, std::uint32_t* op, std::int32_t* lane) {
  const std::int32_t s = ref().search(f, type, step, op, lane);
  if (s == NEFFBAR_OK && g_slip == Slip::LaneOff) ++*lane;
  if (s == NEFFBAR_OK && g_slip == Slip::OpOff) *op ^= 1;
  return s;
}
std::int32_t table(std::uint32_t f, std::uint8_t* out) {
  if (g_slip == Slip::Status77) return 77;
  const std::int32_t s = ref().table_bytes(f, out);
  if (g_slip == Slip::TableByte) out[36] ^= 1;  // steps[1][0].op
  return s;
}
std::int32_t sema(std::int32_t* file, std::size_t n, const neffbar_sema_op* op, std::uint32_t cmp) {
  if (g_slip == Slip::WrapSema && op->prim == NEFFBAR_INC && op->sema < n) {
    file[op->sema] = static_cast<std::int32_t>(static_cast<std::uint32_t>(file[op->sema]) + 1u);
    return NEFFBAR_OK;
  }
  neffbar_sema_op o = *op;
  if (g_slip == Slip::DecByValue) o.dec = o.value;
  return ref().sema_apply(file, n, &o, cmp);
}
const neffbar_module kSlipped{NEFFBAR_MODULE_ABI_VERSION, "slipped", decode, nullptr, search, table, sema};

class DifferentialTest : public ::testing::Test {
 protected:
  void TearDown() override { g_slip = Slip::None; }
  Differential d{kSlipped};
  ConfigBytes image() const {
    ConfigBytes b{};
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::uint8_t>(i * 13 + 5);
    return b;
  }
};

TEST_F(DifferentialTest, TheReferenceAgreesWithItselfEverywhere) {
  const Differential self(reference_module());
  const ConfigBytes b = image();
  EXPECT_FALSE(self.decode_log(b, false));
  EXPECT_FALSE(self.decode_log(b, true));
  EXPECT_FALSE(self.encode_log(write_log(b, LogMode::Full)));
  EXPECT_FALSE(self.encode_log("not json"));
  for (std::uint32_t f : {0u, 1u, 2u}) {
    EXPECT_FALSE(self.table_bytes(f));
    for (std::int64_t s = -1; s <= 4; ++s)
      for (std::int64_t t = -1; t <= 8; ++t) EXPECT_FALSE(self.search(f, t, s));
  }
  EXPECT_FALSE(self.sema_apply(std::vector<std::int32_t>{INT32_MAX}, {NEFFBAR_INC, 0, 1, 1}, 0));
}

TEST_F(DifferentialTest, ASlipOfTheModuleIsOneLineNamingItsFieldAndFact) {
  const ConfigBytes b = image();
  EXPECT_FALSE(d.decode_log(b, false));  // no slip yet
  g_slip = Slip::TotalDescN;
  auto dis = d.decode_log(b, false);
  ASSERT_TRUE(dis);
  EXPECT_EQ(dis->path, "device_barrier.dma_engines_bitmap");
  EXPECT_EQ(dis->offset, 0x120u);
  EXPECT_EQ(dis->flag, "TotalDescNNotLogged");
  EXPECT_EQ(dis->line().substr(0, 55), "decode_log: device_barrier.dma_engines_bitmap at 0x120:");

  g_slip = Slip::GateAsBool;
  dis = d.decode_log(b, false);
  ASSERT_TRUE(dis);
  EXPECT_EQ(dis->path, "text line 2");
  EXPECT_EQ(dis->flag, "GatePrintedAsPointer");

  g_slip = Slip::LaneOff;
  dis = d.search(0, 2, 1);
  ASSERT_TRUE(dis);
  EXPECT_EQ(dis->line(), "search: lane: reference 1, module 2 [FirstMatchWins]");
  g_slip = Slip::OpOff;
  EXPECT_EQ(d.search(0, 2, 1)->line(), "search: op: reference 0, module 1 [Field1IsEntryExit]");
  EXPECT_FALSE(d.search(0, 7, 1));  // nothing found: nothing to slip

  g_slip = Slip::TableByte;
  EXPECT_EQ(d.table_bytes(0)->line(), "table_bytes: steps[1][0].op at 0x24: reference 0x0, module 0x1 [Field1IsEntryExit]");

  g_slip = Slip::WrapSema;
  EXPECT_EQ(d.sema_apply(std::vector<std::int32_t>{INT32_MAX}, {NEFFBAR_INC, 0, 1, 1}, 0)->line(),
            "sema_apply: status: reference OVERFLOW, module OK [SemaSigned32]");
  g_slip = Slip::DecByValue;
  EXPECT_EQ(d.sema_apply(std::vector<std::int32_t>{5}, {NEFFBAR_WAIT_GE_AND_DEC, 0, 3, 1}, 0)->line(),
            "sema_apply: file[0]: reference 4, module 2 [WaitGeAndDecByDec]");
}

TEST_F(DifferentialTest, ABreachOfTheAbiIsFlaggedAbi) {
  const ConfigBytes b = image();
  g_slip = Slip::Overrun;
  auto dis = d.decode_log(b, true);
  ASSERT_TRUE(dis);
  EXPECT_EQ(dis->path, "buffer");
  EXPECT_EQ(dis->flag, "ABI");
  g_slip = Slip::LongLen;
  EXPECT_EQ(d.decode_log(b, true)->path, "length");
  g_slip = Slip::Status77;
  EXPECT_EQ(d.table_bytes(0)->line(), "table_bytes: status: reference OK, module status 77 [ABI]");
}

TEST_F(DifferentialTest, AnOperationTheModuleLeavesOutIsNotADisagreement) {
  EXPECT_FALSE(d.encode_log("{}"));  // kSlipped has no encode_log
}

TEST(Facts, EachFlagIsOnceAndEveryByteOfATrapIsInTheImage) {
  for (std::size_t i = 0; i < kFacts.size(); ++i) {
    for (std::size_t j = i + 1; j < kFacts.size(); ++j) EXPECT_NE(kFacts[i].flag, kFacts[j].flag);
    if (kFacts[i].first <= kFacts[i].last) {
      EXPECT_LT(kFacts[i].last, kConfigSize) << kFacts[i].flag;
    }
    EXPECT_FALSE(kFacts[i].source.empty());
  }
  EXPECT_EQ(fact_at(0x11C)->flag, "TotalDescNNotLogged");
  EXPECT_EQ(fact_at(0x005)->flag, "OneBaseTwoViews");
  EXPECT_EQ(fact_at(0x040)->flag, "StepStride0x34");
  EXPECT_FALSE(fact_at(0x200));
}

}  // namespace
}  // namespace neffbar
