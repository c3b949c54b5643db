// json: text -> read_log gives a clear error, or bytes whose full log reads back the same.
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "neffbar/json_log.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace neffbar;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Result<ConfigBytes> r = read_log(text);
  if (!r.ok()) {
    fuzz::require(!r.error().message().empty() && !r.error().where.empty(), "errors name what and where");
    return 0;
  }
  const Result<ConfigBytes> again = read_log(write_log(*r, LogMode::Full));
  fuzz::require(again.ok() && *again == *r, "accepted JSON round-trips through the full log");
  return 0;
}
