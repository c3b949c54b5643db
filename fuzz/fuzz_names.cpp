// names: the text a user types for an arch, a barrier type or a fabric (CLI options,
// props/README.md) -> a clear error naming the option and echoing the text, or a value whose
// canonical name parses back to the same value.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "neffbar/arch.h"
#include "neffbar/tables.h"

namespace {

using namespace neffbar;

// Every rejection is one of the documented codes, says where and what, and shows the text.
void require_clear(const Error& e, Errc code, std::string_view where, std::string_view text) {
  fuzz::require(e.code == code && e.where == where && !e.expected.empty(), "the error names the option");
  fuzz::require(e.got.find(text) != std::string::npos, "the error echoes the text");
  fuzz::require(e.message().find(e.where) != std::string::npos, "the message names the option");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  if (const Result<Arch> a = parse_arch(text)) {
    fuzz::require(*parse_arch(arch_name(*a)) == *a, "an arch name parses back");
    fuzz::require(*arch_from_id(static_cast<std::uint32_t>(*a)) == *a, "an arch id maps back");
  } else if (a.error().code == Errc::NoV5Decoder) {
    require_clear(a.error(), Errc::NoV5Decoder, "arch", text);
  } else if (a.error().where == "arch_id") {  // a number that is no arch_id: shown in hex
    fuzz::require(a.error().code == Errc::UnknownArch && a.error().got.starts_with("0x"), "an unknown arch_id");
  } else {
    require_clear(a.error(), Errc::UnknownArch, "arch", text);
  }

  if (const Result<BarrierType> t = parse_type(text)) {
    const auto v = static_cast<std::uint32_t>(*t);
    fuzz::require(v < kTypeCount && *parse_type(type_name(v)) == *t, "a barrier type name parses back");
    fuzz::require(*parse_type(std::string("BARRIER_") + std::string(type_name(v))) == *t, "BARRIER_ prefix accepted");
  } else {
    require_clear(t.error(), Errc::InvalidArgument, "TYPE", text);
  }

  if (const Result<Fabric> f = parse_fabric(text)) {
    fuzz::require(*parse_fabric(fabric_name(*f)) == *f, "a fabric name parses back");
  } else {
    require_clear(f.error(), Errc::InvalidArgument, "fabric", text);
  }
  return 0;
}
