#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "neffbar/json_log.h"

namespace neffbar {
namespace {

std::string golden_path(const std::string& name) { return std::string(NEFFBAR_GOLDEN_DIR) + "/" + name; }

// Compares with a golden file; NEFFBAR_UPDATE_GOLDEN=1 rewrites it (then review the diff).
void expect_golden(const std::string& name, const std::string& text) {
  if (std::getenv("NEFFBAR_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(golden_path(name), std::ios::binary) << text;
  }
  std::ifstream in(golden_path(name), std::ios::binary);
  ASSERT_TRUE(in) << "missing golden " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(text, ss.str()) << "golden " << name << " differs";
}

// One config built by hand: two leaders, gate set, everything distinct.
BarrierConfigs hand_built() {
  BarrierConfigs c;
  auto& d = c.device_barrier;
  d.barrier_step_config[0].m2s_val = 1;
  d.barrier_step_config[0].s2m_val = 2;
  d.barrier_step_config[0].barrier_sema = {0x0000000000401820, 0x0000000000801820, 0, 0};
  d.barrier_step_config[0].target_sema_val = {1, 1, 0, 0};
  d.barrier_step_config[3].barrier_sema = {0x0000000000401020, 0x0000000000401024, 0, 0};
  d.barrier_step_config[3].target_sema_val = {1, 1, 0, 0};
  d.dma_sync_sema = {0x0000000000401010, 0, 0, 0xFFFFFFFFFFFFFFFF};
  d.dma_apb_bcast = {0x00000000DEADBEEF, 0x00000000CAFEF00D, 0x0000000F};
  d.start_network_proxy = 0x123456789ABCDEF0;
  d.dma_sync_sema_value = 4;
  d.tdrbp_low = 0x1000;
  d.tdrbp_high = 0x2;
  d.desc_count = 8;
  d.total_desc_n = 16;
  d.dma_engines_bitmap = 0x00FF;
  d.queue_id = 3;
  c.execute_device_barrier = 1;
  return c;
}

TEST(JsonLog, GoldenAllZeroDefault) { expect_golden("zero.default.json", write_log(ConfigBytes{}, LogMode::Default)); }
TEST(JsonLog, GoldenAllZeroFull) { expect_golden("zero.full.json", write_log(ConfigBytes{}, LogMode::Full)); }
TEST(JsonLog, GoldenHandBuiltDefault) { expect_golden("hand.default.json", write_log(encode(hand_built()))); }
TEST(JsonLog, GoldenHandBuiltFull) { expect_golden("hand.full.json", write_log(encode(hand_built()), LogMode::Full)); }

TEST(JsonLog, OutputIsValidJsonWithTheLoggerShape) {
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(write_log(encode(hand_built())));
  EXPECT_EQ(j["execute_device_barrier"], "0x1");
  EXPECT_EQ(j["host_barrier"]["barrier_start"]["addr"]["soc_addr"], "0x0040182000020001");
  EXPECT_EQ(j["device_barrier"]["dma_sync_sema"][3]["addr"]["soc_addr"], "0xFFFFFFFFFFFFFFFF");
  EXPECT_EQ(j["device_barrier"]["queue_id"], 3);
  EXPECT_FALSE(j["device_barrier"].contains("total_desc_n"));  // the logger skips it
  EXPECT_FALSE(j.contains("__reserved"));
  const auto keys = j.items().begin().key();
  EXPECT_EQ(keys, "execute_device_barrier");  // printed first
}

TEST(JsonLog, FullLogIsTheExactInverseOnRandomImages) {
  std::mt19937 rng(7);
  for (int n = 0; n < 300; ++n) {
    ConfigBytes b;
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    const Result<ConfigBytes> back = read_log(write_log(b, LogMode::Full));
    ASSERT_TRUE(back.ok()) << back.error().message();
    EXPECT_EQ(*back, b);
  }
}

TEST(JsonLog, DefaultLogReadsBackWithUnloggedFieldsZero) {
  ConfigBytes b = encode(hand_built());
  b[0x125] = 9;  // reserved, not in the default log
  const Result<ConfigBytes> back = read_log(write_log(b));
  ASSERT_TRUE(back.ok()) << back.error().message();
  ConfigBytes expect = b;
  expect[0x125] = 0;
  store_le(expect.data() + 0x11C, 4, 0);  // total_desc_n
  EXPECT_EQ(*back, expect);
}

// An overlay conflict names both paths that wrote the byte: the one read last and the
// one that wrote it first.
TEST(JsonLog, AConflictNamesBothPaths) {
  std::string text = write_log(encode(hand_built()));
  const auto at = text.find("\"m2s_val\": 1");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "\"m2s_val\": 7");
  const Result<ConfigBytes> r = read_log(text);
  ASSERT_FALSE(r.ok());
  const std::string msg = r.error().message();
  EXPECT_NE(msg.find("m2s_val"), std::string::npos) << msg;
  EXPECT_NE(msg.find("host_barrier"), std::string::npos) << msg;
}

TEST(JsonLog, GateAcceptsNil) {
  std::string text = write_log(ConfigBytes{});
  text.replace(text.find("\"0x0\""), 5, "\"(nil)\"");
  const Result<ConfigBytes> r = read_log(text);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ((*r)[0x124], 0);
}

struct BadCase {
  const char* name;
  std::string from, to;  // textual edit of the hand-built default log
  Errc code;
  const char* where;     // must appear in the message
};

TEST(JsonLog, EveryReaderErrorNamesThePath) {
  const std::string good = write_log(encode(hand_built()));
  const BadCase cases[] = {
      {"not json", "{", "[[", Errc::BadJson, "byte"},
      {"unknown key", "\"queue_id\"", "\"queue_idx\"", Errc::UnknownKey, "$.device_barrier.queue_idx"},
      {"missing key", "\"queue_id\": 3", "\"__pad\": 0", Errc::MissingKey, "$.device_barrier.queue_id"},
      {"wrong type", "\"queue_id\": 3", "\"queue_id\": \"3\"", Errc::WrongType, "$.device_barrier.queue_id"},
      {"float", "\"queue_id\": 3", "\"queue_id\": 3.5", Errc::WrongType, "$.device_barrier.queue_id"},
      {"too big", "\"queue_id\": 3", "\"queue_id\": 256", Errc::OutOfRange, "$.device_barrier.queue_id"},
      {"negative", "\"queue_id\": 3", "\"queue_id\": -1", Errc::OutOfRange, "$.device_barrier.queue_id"},
      {"bad hex", "0x123456789ABCDEF0", "0x12345678XABCDEF0", Errc::BadHex, "$.device_barrier.start_network_proxy"},
      {"hex too long", "0x123456789ABCDEF0", "0x123456789ABCDEF01", Errc::BadHex, "start_network_proxy"},
      // neffbar's limit, not the value's: 17 digits are refused even when they fit.
      {"17 hex digits", "0x123456789ABCDEF0", "0x00000000000000001", Errc::BadHex, "start_network_proxy"},
      {"no hex digits", "0x123456789ABCDEF0", "0x", Errc::BadHex, "start_network_proxy"},
      {"gate range", "\"0x1\"", "\"0x2\"", Errc::OutOfRange, "$.execute_device_barrier"},
      {"gate number", "\"0x1\"", "1", Errc::WrongType, "$.execute_device_barrier"},
      {"short array", "[1, 1, 0, 0]", "[1, 1, 0]", Errc::OutOfRange, "target_sema_val"},
      {"addr wrapper", "{ \"addr\": { \"soc_addr\": \"0x123456789ABCDEF0\" } }", "\"0x1\"", Errc::WrongType,
       "$.device_barrier.start_network_proxy"},
      {"overlay conflict", "\"m2s_val\": 1", "\"m2s_val\": 7", Errc::Conflict, "overlays"},
      // nlohmann-json keeps the last of two equal keys; the reader refuses, naming it.
      {"duplicate key", "\"queue_id\": 3", "\"queue_id\": 3, \"queue_id\": 4", Errc::BadJson,
       "$.device_barrier.queue_id: expected each key once"},
      {"duplicate in an array element", "\"m2s_val\": 1", "\"m2s_val\": 1, \"m2s_val\": 1", Errc::BadJson,
       "$.device_barrier.barrier_step_config[0].m2s_val"},
      {"duplicate top level", "\"execute_device_barrier\": \"0x1\"",
       "\"execute_device_barrier\": \"0x1\", \"execute_device_barrier\": \"0x1\"", Errc::BadJson,
       "$.execute_device_barrier"},
      // nlohmann-json ends its input at a NUL byte: what follows would never be read.
      {"NUL then garbage", "\"queue_id\": 3", std::string("\"queue_id\": 3\0garbage", 22), Errc::BadJson,
       "a NUL byte"},
  };
  for (const BadCase& c : cases) {
    std::string text = good;
    const auto at = text.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.name;
    text.replace(at, c.from.size(), c.to);
    const Result<ConfigBytes> r = read_log(text);
    ASSERT_FALSE(r.ok()) << c.name;
    EXPECT_EQ(r.error().code, c.code) << c.name << ": " << r.error().message();
    EXPECT_NE(r.error().message().find(c.where), std::string::npos) << c.name << ": " << r.error().message();
  }
}

// The path counts array elements: a duplicate key in each step's object names that
// step (the reader's element counter; mutation testing found that only step 0 was tried).
TEST(JsonLog, AnErrorInALaterArrayElementNamesItsIndex) {
  const std::string good = write_log(encode(hand_built()));
  const std::string key = "\"m2s_val\": ";
  std::size_t at = std::string::npos;
  for (std::size_t step = 0; step < 3; ++step) {
    at = good.find(key, at == std::string::npos ? 0 : at + 1);
    ASSERT_NE(at, std::string::npos) << "step " << step;
    std::string text = good;
    text.insert(at, key + "0, ");
    const Result<ConfigBytes> r = read_log(text);
    ASSERT_FALSE(r.ok()) << step;
    EXPECT_NE(r.error().message().find("$.device_barrier.barrier_step_config[" + std::to_string(step) + "].m2s_val"),
              std::string::npos)
        << r.error().message();
  }
}

}  // namespace
}  // namespace neffbar
