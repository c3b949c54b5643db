// The two drivers of the properties draw the same inputs: bytes recorded from random
// choices (RecordingSource, what the property targets' seed corpora are) decode through
// a ByteSource into exactly the input the choices made; every input of bytes decodes;
// and the property fuzz targets are exactly the registry's properties.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "rc_driver.h"
#include "registry.h"

namespace neffbar::props {
namespace {

template <class In>
std::string text(const In& in) {
  std::ostringstream os;
  rc::show(in, os);
  return os.str();
}

TEST(Drivers, RecordedChoicesReplayFromBytes) {
  for_each_property([](const auto& p) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      RecordingSource rec(seed);
      const auto drawn = p.draw(rec);
      ByteSource bytes(rec.bytes());
      const auto replayed = p.draw(bytes);
      EXPECT_EQ(bytes.remaining(), 0u) << p.name << " seed " << seed;
      EXPECT_EQ(text(drawn), text(replayed)) << p.name << " seed " << seed;
    }
  });
}

// Any bytes decode (short, long, exhausted midway), and the bytes steer the input: no
// choice-free property, so all-zero choices (the empty input) and all-last choices
// (0xFF bytes) give different inputs.
TEST(Drivers, EveryByteStringDecodesAndTheBytesSteerIt) {
  for_each_property([](const auto& p) {
    const std::vector<std::uint8_t> seven(7, 0xFF), all(4096, 0xFF);  // (a ByteSource only views its bytes)
    ByteSource none({}), few(seven), ones(all);
    const std::string simplest = text(p.draw(none));
    (void)p.draw(few);
    EXPECT_NE(simplest, text(p.draw(ones))) << p.name;
  });
}

TEST(Drivers, ChoicesStayInRange) {
  const std::vector<std::uint8_t> ff(64, 0xFF);
  ByteSource s(ff);
  EXPECT_EQ(s.below(1), 0u);
  EXPECT_EQ(s.below(256), 255u);                // one byte
  EXPECT_EQ(s.below(257), 0xFFFFu % 257);       // two bytes
  EXPECT_EQ(s.in_range<std::int64_t>(-2, 10), -2 + 255 % 12);
  EXPECT_EQ(s.weighted({6, 1, 1}), 2u);         // 255 % 8 = 7: the last weight
  EXPECT_EQ(s.any64(), UINT64_MAX);
  ByteSource empty({});
  EXPECT_EQ(empty.in_range<std::int64_t>(-2, 10), -2);  // exhausted: the simplest choice
  EXPECT_EQ(bytes_for(1), 0u);
  EXPECT_EQ(bytes_for(256), 1u);
  EXPECT_EQ(bytes_for(257), 2u);
}

// NEFFBAR_PROPERTIES as props/properties.cmake read it from registry.h's source (fuzz/targets.cmake's
// prop_ targets), passed in by props/CMakeLists.txt: an entry the reading misses fails here.
TEST(Drivers, FuzzTargetsAreTheRegistry) {
  std::string listed = NEFFBAR_FUZZ_PROPERTY_LIST, registry;
  for (std::string_view n : property_names()) registry += (registry.empty() ? "" : ",") + std::string(n);
  EXPECT_EQ(listed, registry);
}

}  // namespace
}  // namespace neffbar::props
