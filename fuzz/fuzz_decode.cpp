// decode: bytes -> decode -> encode == input; the overlay laws hold; the log writer's
// output is the exact inverse of the JSON reader (full log), and the default log reads
// back with the unlogged fields zeroed; lint never misbehaves; any other length is the
// WrongLength error naming it.
//
// Writing and parsing JSON (and linting) run for one distinct input in 1024 while
// fuzzing (SlowOracleSample in fuzz_check.h) and for every input in the ctest replay;
// that keeps this target above 50k exec/s under ASan+UBSan.  The json target fuzzes
// the reader at full rate.
#include <cstdint>
#include <cstdlib>

#include "fuzz_check.h"
#include "neffbar/hex.h"
#include "neffbar/json_log.h"
#include "neffbar/lint.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace neffbar;
  const Result<BarrierConfigs> cfg = decode(std::span<const std::uint8_t>(data, size));
  if (size != kConfigSize) {
    fuzz::require(!cfg.ok() && cfg.error().code == Errc::WrongLength, "wrong length must be an error");
    fuzz::require(cfg.error().message().find(std::to_string(size) + " bytes") != std::string::npos,
                  "the error names the length");
    return 0;
  }
  ConfigBytes bytes;
  std::copy(data, data + size, bytes.begin());
  fuzz::require(cfg.ok() && encode(*cfg) == bytes, "encode(decode(b)) == b");
  fuzz::require(decode_host(bytes) == host_view_by_overlay(cfg->device_barrier), "overlay laws");
  static fuzz::SlowOracleSample slow;
  if (!slow(bytes)) return 0;
  for (const LintWarning& w : lint(bytes)) {
    const Leaf* at = leaf_at(w.offset);
    fuzz::require(at != nullptr && !w.message.empty(), "a lint warning points into the config");
    fuzz::require(at->offset == w.offset, "a lint warning points at the start of a field");
    fuzz::require(w.line().starts_with(hex(w.offset) + " " + w.field + ": "), "a lint line: offset, field, message");
  }
  const std::string log = write_log(bytes, LogMode::Full);
  const Result<ConfigBytes> full = read_log(log);
  fuzz::require(full.ok() && *full == bytes, "full log -> bytes is the exact inverse");
  const Result<ConfigBytes> dflt = read_log(write_log(bytes, LogMode::Default));
  fuzz::require(dflt.ok(), "the default log reads back");
  for (const Leaf& l : config_leaves()) {
    for (std::uint32_t i = 0; i < l.field->elem_size(); ++i) {
      const std::uint8_t want = l.field->logged ? bytes[l.offset + i] : 0;
      const std::uint8_t mask = l.field->kind == Kind::Bits ? static_cast<std::uint8_t>(l.field->max_value() << l.field->bit_shift) : 0xFF;
      fuzz::require(((*dflt)[l.offset + i] & mask) == (want & mask), "default log keeps logged fields, zeroes the rest");
    }
  }
  return 0;
}
