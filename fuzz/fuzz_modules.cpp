// modules: the differential driver of fuzz/module_fuzzer.h over the modules of
// fuzz/modules/, linked in: the C11 port and the port with each trap switched on
// (fuzz/modules/traps.cmake; fuzz_module_traps.h is generated from it).
//
// Input: byte 0 picks the module ((byte & 0x7F) % 16: 0 the reference itself (it agrees
// with itself, encode_log included), 1 the port, 2..9 the traps in traps.cmake's order,
// 10..15 the hostile ones; bit 7 also runs conform()), the rest is one operation's input in
// module_fuzzer.h's format.
// Oracle:
//  - the reference and the port agree with the reference on every input;
//  - a trap disagrees only in the operation its switch changes, and every line names a
//    fact of core/neffbar/module/facts.h (none of them breaks the ABI);
//  - a hostile module of modules/hostile_module.c that breaks the ABI in one operation
//    (writes past a buffer or out-parameter, a length past it, a status outside the
//    enum) disagrees on every input of that operation;
//  - bit 7 (sampled as fuzz_check.h's SlowOracleSample: one input in 1024 while fuzzing,
//    every one in the ctest replay): conform() on the module for 8 executions an
//    operation from the input's seed: the port agrees, a trap does not; its JSON reads
//    back to the same table; its page says the same verdict.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "module_fuzzer.h"
#include "neffbar/module/conformance.h"
#include "neffbar/module/facts.h"
#include "neffbar/module/reference_module.h"

extern "C" const neffbar_module* neffbar_port_c11(void);
#define NEFFBAR_TRAP(lower, flag, op) extern "C" const neffbar_module* neffbar_port_##lower(void);
#define NEFFBAR_HOSTILE(lower, op) extern "C" const neffbar_module* neffbar_hostile_##lower(void);
#include "fuzz_module_traps.h"
#undef NEFFBAR_TRAP
#undef NEFFBAR_HOSTILE

namespace {

struct Linked {
  const neffbar_module* module;
  std::string_view flag, op;  // a trap's; empty for the port
  bool hostile = false;       // breaks the ABI in `op` on every call
};

const std::vector<Linked>& linked() {
  static const std::vector<Linked> all = [] {
    std::vector<Linked> v{{&neffbar::reference_module(), "", ""}, {neffbar_port_c11(), "", ""}};
#define NEFFBAR_TRAP(lower, flag, op) v.push_back({neffbar_port_##lower(), flag, op});
#define NEFFBAR_HOSTILE(lower, op) v.push_back({neffbar_hostile_##lower(), "ABI", op, true});
#include "fuzz_module_traps.h"
#undef NEFFBAR_TRAP
#undef NEFFBAR_HOSTILE
    return v;
  }();
  return all;
}

const std::vector<nlohmann::ordered_json>& vectors() {  // made once a process: conform() would make them each call
  static const std::vector<nlohmann::ordered_json> v = [] {
    std::vector<nlohmann::ordered_json> files;
    for (const std::string_view op : neffbar::kOperations) files.push_back(neffbar::make_vectors(op));
    return files;
  }();
  return v;
}

[[noreturn]] void fail(const Linked& m, const std::string& what) {
  std::fprintf(stderr, "neffbar fuzz oracle failed: module %s: %s\n", m.module->name, what.c_str());
  std::abort();
}

constexpr std::string_view kOps[] = {"decode_log", "encode_log", "search", "table_bytes", "sema_apply"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Linked& m = linked()[(data[0] & 0x7F) % linked().size()];
  const std::span<const std::uint8_t> rest(data + 1, size - 1);
  const std::string_view op = rest.empty() ? "" : kOps[(rest[0] & 0x7F) % 5];
  const auto d = neffbar::fuzz::differ(*m.module, rest);
  if (d && m.flag.empty()) fail(m, "the port disagrees: " + d->line());
  if (d && op != m.op && !m.hostile)
    fail(m, "a disagreement outside its trap's operation " + std::string(m.op) + ": " + d->line());
  if (d && !m.hostile && !neffbar::fact(d->flag)) fail(m, "a line that names no fact: " + d->line());
  if (!d && m.hostile && op == m.op) fail(m, "the harness missed a module that breaks the ABI in " + std::string(op));
  static neffbar::fuzz::SlowOracleSample sample;
  if ((data[0] & 0x80) != 0 && sample({data, size})) {
    std::uint64_t seed = 0;
    for (const std::uint8_t b : rest) seed = seed * 131 + b;
    const neffbar::Conformance c = neffbar::conform(*m.module, {seed, 1e9, 8, vectors()});
    if (c.agrees() != m.flag.empty()) fail(m, "conform says " + std::string(c.agrees() ? "agrees" : "disagrees"));
    const neffbar::Conformance back = neffbar::Conformance::from_json(c.to_json());
    if (back.table() != c.table()) fail(m, "conform's JSON reads back to another table");
    const bool says_agrees = c.html().find("<p id=\"verdict\">agrees</p>") != std::string::npos;
    if (says_agrees != c.agrees()) fail(m, "conform's page says another verdict");
  }
  return 0;
}

// The config mutator for a decode_log input (the image after the module and operation
// bytes), libFuzzer's own for the rest.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return neffbar::fuzz::mutate_module_input(data, size, max_size, 1, seed);
}
