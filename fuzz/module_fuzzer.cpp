#include "module_fuzzer.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "config_mutator.h"

namespace neffbar::fuzz {
namespace {

// Reads the input's bytes in order; past the end, zeros.
struct Bytes {
  std::span<const std::uint8_t> in;
  std::size_t at = 0;
  std::uint8_t u8() { return at < in.size() ? in[at++] : 0; }
  std::int32_t i32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t{u8()} << (8 * i);
    return static_cast<std::int32_t>(v);
  }
};

}  // namespace

std::optional<Disagreement> differ(const neffbar_module& module, std::span<const std::uint8_t> input) {
  if (input.empty()) return std::nullopt;
  const Differential d(module);
  const std::span<const std::uint8_t> rest = input.subspan(1);
  Bytes b{rest};
  switch ((input[0] & 0x7F) % 5) {
    case 0: return d.decode_log(rest, (input[0] & 0x80) != 0);
    case 1: return d.encode_log(std::string_view(reinterpret_cast<const char*>(rest.data()), rest.size()));
    case 2: {
      const std::uint32_t fabric = b.u8();
      const auto type = static_cast<std::int8_t>(b.u8());
      const auto step = static_cast<std::int8_t>(b.u8());
      return d.search(fabric, type, step);
    }
    case 3: return d.table_bytes(b.u8());
    default: {
      std::vector<std::int32_t> file(1 + b.u8() % 4);
      for (auto& v : file) v = b.i32();
      neffbar_sema_op op{b.u8(), b.u8(), 0, 0};
      op.value = b.i32();
      op.dec = b.i32();
      return d.sema_apply(file, op, b.u8());
    }
  }
}

namespace {
std::size_t g_disagreements = 0;
void fail_at_exit() {
  if (g_disagreements > 0) {
    std::fprintf(stderr, "neffbar module: %zu inputs disagreed\n", g_disagreements);
    std::_Exit(1);
  }
}
}  // namespace

int run_module(const neffbar_module& module, const std::uint8_t* data, std::size_t size) {
  if (const auto dis = differ(module, {data, size})) {
    std::fprintf(stderr, "neffbar module disagreement: %s (module %s)\n", dis->line().c_str(), module.name);
    // NEFFBAR_MODULE_KEEP_GOING=1 (the trap modules' ctest replay): every input's line,
    // then exit 1 at the end, instead of stopping at the first.
    static const bool keep_going = std::getenv("NEFFBAR_MODULE_KEEP_GOING") != nullptr;
    if (!keep_going) std::abort();
    if (g_disagreements++ == 0) std::atexit(fail_at_exit);
  }
  return 0;
}

const neffbar_module& checked_module(const neffbar_module* module) {
  if (!module || module->abi_version != NEFFBAR_MODULE_ABI_VERSION || !module->name) {
    std::fprintf(stderr, "neffbar module: %s\n",
                 !module ? "neffbar_module_v1() returned null"
                 : module->abi_version != NEFFBAR_MODULE_ABI_VERSION ? "another ABI version than neffbar_module.h's"
                                                                     : "the module has no name");
    std::abort();
  }
  return *module;
}

}  // namespace neffbar::fuzz

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size) __attribute__((weak));

std::size_t neffbar::fuzz::mutate_module_input(std::uint8_t* data, std::size_t size, std::size_t max_size, std::size_t at,
                                               unsigned int seed) {
  if (size > at && (data[at] & 0x7F) % 5 == 0) return mutate_config(data, size, max_size, at + 1, seed);
  return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
}
