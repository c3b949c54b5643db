#include "neffbar/module/vectors.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>

#include "neffbar/bytes.h"
#include "neffbar/codec.h"
#include "neffbar/hex.h"
#include "neffbar/json_log.h"
#include "neffbar/model/frontend/composer.h"
#include "neffbar/module/facts.h"
#include "neffbar/module/reference_module.h"
#include "neffbar/schema.h"
#include "neffbar/tables.h"

namespace neffbar {
namespace {

using Json = nlohmann::ordered_json;
using Bytes = std::vector<std::uint8_t>;

Bytes from_hex(const std::string& s, const std::string& where) {
  auto nibble = [&](char c) -> std::uint8_t {
    if (c >= '0' && c <= '9') return static_cast<std::uint8_t>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<std::uint8_t>(c - 'a' + 10);
    throw std::invalid_argument(where + ": not lower-case hex");
  };
  if (s.size() % 2 != 0) throw std::invalid_argument(where + ": an odd number of hex digits");
  Bytes b(s.size() / 2);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::uint8_t>(nibble(s[2 * i]) << 4 | nibble(s[2 * i + 1]));
  return b;
}

// ---------------------------------------------------------------- the tests, written --

struct Writer {
  Json tests = Json::array();
  std::vector<std::string> used;  // every flag, for the file's notes

  void add(std::string comment, std::vector<std::string> flags, Json input, Json expected) {
    for (const auto& f : flags) {
      if (!fact(f)) throw std::logic_error("vectors: unknown flag " + f);
      if (std::find(used.begin(), used.end(), f) == used.end()) used.push_back(f);
    }
    tests.push_back(Json{{"tcId", tests.size() + 1}, {"comment", std::move(comment)}, {"flags", std::move(flags)},
                         {"input", std::move(input)}, {"expected", std::move(expected)}});
  }
};

Json decode_expected(const Bytes& image, bool full) {
  const neffbar_module& ref = reference_module();
  std::string out(1 << 16, '\0');
  std::size_t len = 0;
  const std::int32_t s = ref.decode_log(image.data(), image.size(), full ? 1 : 0, out.data(), out.size(), &len);
  Json e{{"status", status_name(s)}};
  if (s == NEFFBAR_OK) e["log"] = out.substr(0, len);
  return e;
}

Json encode_expected(const std::string& log) {
  Bytes out(kConfigSize);
  const std::int32_t s = reference_module().encode_log(log.data(), log.size(), out.data());
  Json e{{"status", status_name(s)}};
  if (s == NEFFBAR_OK) e["image"] = hex_bytes(out);
  return e;
}

ConfigBytes with(std::initializer_list<std::pair<std::uint32_t, std::uint8_t>> bytes) {
  ConfigBytes b{};
  for (auto [at, v] : bytes) b[at] = v;
  return b;
}

ConfigBytes patterned() {  // every byte its own value: any misplaced field shows
  ConfigBytes b{};
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::uint8_t>(i * 7 + 1);
  b[kGateOffset] = 0x01;
  return b;
}

// The images every decode and encode vector starts from, each with its comment and flags.
struct Image {
  std::string comment;
  std::vector<std::string> flags;
  ConfigBytes bytes;
};

std::vector<Image> images() {
  std::vector<Image> out;
  const auto composed = model::compose(model::Topology{2, 2, Fabric::Default, true, 1});
  if (composed)
    for (std::size_t i = 0; i < composed->configs.size(); ++i)
      out.push_back({"composed 2 chips x 2 leaders, host-CC, leader " + std::to_string(i),
                     {"OneBaseTwoViews", "AddrPrintedAs016lX", "GatePrintedAsPointer"}, composed->configs[i]});
  out.push_back({"all zero", {"GatePrintedAsPointer", "AddrPrintedAs016lX"}, ConfigBytes{}});
  ConfigBytes ones{};
  ones.fill(0xFF);
  out.push_back({"all ones: every address prints 16 upper-case hex digits, the gate 0x1",
                 {"AddrPrintedAs016lX", "GatePrintedAsPointer", "ReservedAfterGate"}, ones});
  ConfigBytes tdn{};
  store_le(tdn.data() + 0x11C, 4, 0x11223344);
  out.push_back({"only total_desc_n (+0x11C) set: the default log does not show it", {"TotalDescNNotLogged"}, tdn});
  ConfigBytes tail{};
  store_le(tail.data() + 0x118, 4, 0x0A0B0C0D);  // desc_count
  store_le(tail.data() + 0x11C, 4, 0x51525354);  // total_desc_n
  store_le(tail.data() + 0x120, 2, 0xBEEF);      // dma_engines_bitmap
  tail[0x122] = 0x7E;                            // queue_id
  out.push_back({"desc_count, total_desc_n, dma_engines_bitmap and queue_id distinct: a 0x124 mirror reads them "
                 "four bytes early",
                 {"TotalDescNNotLogged", "DeviceFieldsAfterSteps"}, tail});
  out.push_back({"the gate set, nothing else", {"GatePrintedAsPointer"}, with({{kGateOffset, 0x01}})});
  out.push_back({"the gate clear, its 7 reserved bits set: the log shows 0x0", {"GatePrintedAsPointer", "ReservedAfterGate"},
                 with({{kGateOffset, 0xFE}})});
  out.push_back({"the 3 reserved bytes after the gate byte set", {"ReservedAfterGate"},
                 with({{0x125, 0xA1}, {0x126, 0xB2}, {0x127, 0xC3}})});
  ConfigBytes overlay{};
  for (std::uint32_t i = 0; i < 16; ++i) overlay[i] = static_cast<std::uint8_t>(0x10 + i);
  out.push_back({"the first 16 bytes distinct: host_barrier and step 0 read the same bytes", {"OneBaseTwoViews"}, overlay});
  ConfigBytes steps{};
  for (std::uint32_t s = 0; s < 4; ++s) {
    store_le(steps.data() + s * 0x34, 2, 0x100 + s);               // m2s_val
    store_le(steps.data() + s * 0x34 + 4 + 3 * 8, 8, 0x2000 + s);  // barrier_sema[3]
    store_le(steps.data() + s * 0x34 + 0x24 + 3 * 4, 4, 40 + s);   // target_sema_val[3]
  }
  out.push_back({"each step's first and last fields distinct: the stride is 0x34, packed", {"StepStride0x34"}, steps});
  out.push_back({"every byte distinct", {"StepStride0x34", "DeviceFieldsAfterSteps", "TotalDescNNotLogged"}, patterned()});
  return out;
}

Json decode_vectors() {
  Writer w;
  for (const Image& im : images())
    for (const bool full : {false, true}) {
      auto flags = im.flags;
      if (full) flags.push_back("FullLogLossless");
      const Bytes b(im.bytes.begin(), im.bytes.end());
      w.add(im.comment + (full ? ", full log" : ", default log"), flags, Json{{"image", hex_bytes(b)}, {"full", full}},
            decode_expected(b, full));
    }
  for (const std::size_t n : {std::size_t{0}, std::size_t{0x124}, std::size_t{0x127}, std::size_t{0x129}}) {
    const Bytes b(n, 0);
    w.add("an image of " + std::to_string(n) + " bytes is refused", {"LengthIs0x128"},
          Json{{"image", hex_bytes(b)}, {"full", false}}, decode_expected(b, false));
  }
  return Json{{"tests", w.tests}, {"flags", w.used}};
}

Json encode_vectors() {
  Writer w;
  for (const Image& im : images())
    for (const LogMode mode : {LogMode::Default, LogMode::Full}) {
      auto flags = im.flags;
      if (mode == LogMode::Full) flags.push_back("FullLogLossless");
      const std::string log = write_log(im.bytes, mode);
      w.add(im.comment + (mode == LogMode::Full ? ", full log" : ", default log"), flags, Json{{"log", log}},
            encode_expected(log));
    }
  std::string nil = write_log(with({{kGateOffset, 0x00}}));
  nil.replace(nil.find("\"0x0\""), 5, "\"(nil)\"");
  w.add("the gate as glibc prints a null %p: (nil) reads as 0", {"GatePrintedAsPointer"}, Json{{"log", nil}},
        encode_expected(nil));
  std::string conflict = write_log(with({{0, 0x01}}));
  conflict.replace(conflict.find("0x0000000000000001"), 18, "0x0000000000000002");
  w.add("host_barrier.barrier_start disagrees with the step-0 bytes it overlays", {"HostMustMatchOverlay", "OneBaseTwoViews"},
        Json{{"log", conflict}}, encode_expected(conflict));
  std::string full = write_log(with({{0x11C, 0x2A}}), LogMode::Full);
  w.add("a full log's total_desc_n lands at +0x11C", {"TotalDescNNotLogged", "FullLogLossless"}, Json{{"log", full}},
        encode_expected(full));
  std::string missing = write_log(ConfigBytes{});
  missing.erase(missing.find("\"execute_device_barrier\""), std::string("\"execute_device_barrier\": \"0x0\",").size());
  w.add("a log without the gate is refused", {"GatePrintedAsPointer"}, Json{{"log", missing}}, encode_expected(missing));
  w.add("not JSON", {}, Json{{"log", "{\"execute_device_barrier\": "}}, encode_expected("{\"execute_device_barrier\": "));
  return Json{{"tests", w.tests}, {"flags", w.used}};
}

Json search_vectors() {
  Writer w;
  for (const std::uint32_t fabric : {0u, 1u})
    for (std::int64_t step = -1; step <= 4; ++step)
      for (std::int64_t type = -1; type <= 8; ++type) {
        std::uint32_t op = 0;
        std::int32_t lane = 0;
        const std::int32_t s = reference_module().search(fabric, type, step, &op, &lane);
        const bool in_range = step >= 0 && step < kSteps && type >= 0 && type < kTypeCount;
        std::vector<std::string> flags;
        // 4 and 6 are also BARRIER_DMA_SYNC and HOST_BARRIER_ID0; (7,2) is a pad, not a "nop" entry
        if (in_range && (type == 4 || type == 6)) flags.push_back("TypeIdsAreNotSemaIds");
        if (type == 7 && step >= 0 && step < kSteps) flags.push_back("Field1IsEntryExit");
        flags.push_back(in_range ? "ShippedTables" : "SearchOutOfRange");
        if (s == NEFFBAR_OK) flags.insert(flags.end(), {"Field1IsEntryExit", "FirstMatchWins"});
        Json e{{"status", status_name(s)}};
        if (s == NEFFBAR_OK) e.update(Json{{"op", op}, {"lane", lane}});
        w.add(std::string(fabric ? "switch" : "default") + " table, type " + std::to_string(type) + ", step " +
                  std::to_string(step),
              flags, Json{{"fabric", fabric}, {"type", type}, {"step", step}}, e);
      }
  std::uint32_t op = 0;
  std::int32_t lane = 0;
  w.add("a fabric that is neither default (0) nor switch (1) is refused", {},
        Json{{"fabric", 2}, {"type", 0}, {"step", 0}},
        Json{{"status", status_name(reference_module().search(2, 0, 0, &op, &lane))}});
  return Json{{"tests", w.tests}, {"flags", w.used}};
}

Json table_vectors() {
  Writer w;
  for (const std::uint32_t fabric : {0u, 1u, 2u}) {
    Bytes out(NEFFBAR_TABLE_SIZE);
    const std::int32_t s = reference_module().table_bytes(fabric, out.data());
    Json e{{"status", status_name(s)}};
    if (s == NEFFBAR_OK) e["bytes"] = hex_bytes(out);
    w.add(fabric == 2 ? "an unknown fabric is refused" : std::string(fabric ? "the switch" : "the default") + " table",
          fabric == 2 ? std::vector<std::string>{} : std::vector<std::string>{"ShippedTables", "Field1IsEntryExit"},
          Json{{"fabric", fabric}}, e);
  }
  return Json{{"tests", w.tests}, {"flags", w.used}};
}

Json sema_vectors() {
  Writer w;
  auto add = [&](std::string comment, std::vector<std::string> flags, std::vector<std::int32_t> file, neffbar_sema_op op,
                 std::uint32_t compare) {
    const Json input{{"file", file},
                     {"op", {{"prim", op.prim}, {"sema", op.sema}, {"value", op.value}, {"dec", op.dec}}},
                     {"compare", compare}};
    const std::int32_t s = reference_module().sema_apply(file.data(), file.size(), &op, compare);
    w.add(std::move(comment), std::move(flags), input, Json{{"status", status_name(s)}, {"file", file}});
  };
  const char* names[] = {"inc", "inc_val", "wait_ge_and_dec", "wait_ge", "wait_eq_and_inc", "wait_eq_and_clear"};
  for (std::uint32_t prim = 0; prim < 6; ++prim)
    for (const std::int32_t v : {2, 3, 4})
      for (const std::uint32_t cmp : {0u, 1u}) {
        const bool ge = prim == NEFFBAR_WAIT_GE || prim == NEFFBAR_WAIT_GE_AND_DEC;
        if (!ge && cmp == 1) continue;  // the compare is the GE waits' alone
        std::vector<std::string> flags;
        if (ge && v == 3) flags.push_back("WaitGeCompare");
        if (prim == NEFFBAR_WAIT_GE_AND_DEC) flags.push_back("WaitGeAndDecByDec");
        add(std::string(names[prim]) + " on a semaphore at " + std::to_string(v) + ", value 3, dec 2" +
                (ge ? (cmp ? ", compare >" : ", compare >=") : ""),
            flags, {7, v, -5}, neffbar_sema_op{prim, 1, 3, 2}, cmp);
      }
  add("inc at INT32_MAX overflows and changes nothing", {"SemaSigned32"}, {INT32_MAX}, {NEFFBAR_INC, 0, 1, 1}, 0);
  add("inc_val -1 at INT32_MIN overflows", {"SemaSigned32"}, {INT32_MIN}, {NEFFBAR_INC_VAL, 0, -1, 1}, 0);
  add("inc_val to INT32_MAX exactly", {"SemaSigned32"}, {INT32_MAX - 5}, {NEFFBAR_INC_VAL, 0, 5, 1}, 0);
  add("wait_ge_and_dec below INT32_MIN overflows", {"SemaSigned32", "WaitGeAndDecByDec"}, {INT32_MIN + 1},
      {NEFFBAR_WAIT_GE_AND_DEC, 0, INT32_MIN, 2}, 0);
  add("wait_eq_and_clear on a negative semaphore", {}, {0, -9}, {NEFFBAR_WAIT_EQ_AND_CLEAR, 1, -9, 1}, 0);
  add("a semaphore index past the file is refused", {}, {1, 2}, {NEFFBAR_INC, 2, 1, 1}, 0);
  add("an unknown primitive is refused", {}, {1}, {6, 0, 1, 1}, 0);
  add("an unknown compare is refused", {}, {1}, {NEFFBAR_WAIT_GE, 0, 1, 1}, 2);
  return Json{{"tests", w.tests}, {"flags", w.used}};
}

// ------------------------------------------------------ the tests, answered as written --
// The expected answers of one test served as a module, so that the vector runner is
// Differential itself: a test's failure reads as the fuzzer's disagreement does.
thread_local const Json* g_expected = nullptr;

std::int32_t status_of(const Json& e) {
  const std::string s = e.at("status").get<std::string>();
  for (std::int32_t i = NEFFBAR_OK; i <= NEFFBAR_TOO_SMALL; ++i)
    if (status_name(i) == s) return i;
  throw std::invalid_argument("expected.status: unknown status " + s);
}

std::int32_t recorded_decode(const std::uint8_t*, std::size_t, std::int32_t, char* out, std::size_t cap, std::size_t* len) {
  const std::int32_t s = status_of(*g_expected);
  if (s != NEFFBAR_OK) return s;
  const std::string& log = g_expected->at("log").get_ref<const std::string&>();
  *len = log.size();
  if (log.size() > cap) return NEFFBAR_TOO_SMALL;
  std::memcpy(out, log.data(), log.size());
  return s;
}
// The expected bytes under `key`, exactly `size` of them, into `out`.
std::int32_t recorded_bytes(const std::string& key, std::size_t size, std::uint8_t* out) {
  const std::int32_t s = status_of(*g_expected);
  if (s != NEFFBAR_OK) return s;
  const Bytes b = from_hex(g_expected->at(key).get<std::string>(), "expected." + key);
  if (b.size() != size) throw std::invalid_argument("expected." + key + ": not " + std::to_string(size) + " bytes");
  std::copy(b.begin(), b.end(), out);
  return s;
}
std::int32_t recorded_encode(const char*, std::size_t, std::uint8_t* out) { return recorded_bytes("image", kConfigSize, out); }
std::int32_t recorded_search(std::uint32_t, std::int64_t, std::int64_t, std::uint32_t* op, std::int32_t* lane) {
  const std::int32_t s = status_of(*g_expected);
  if (s != NEFFBAR_OK) return s;
  *op = g_expected->at("op").get<std::uint32_t>();
  *lane = g_expected->at("lane").get<std::int32_t>();
  return s;
}
std::int32_t recorded_table(std::uint32_t, std::uint8_t* out) { return recorded_bytes("bytes", NEFFBAR_TABLE_SIZE, out); }
std::int32_t recorded_sema(std::int32_t* file, std::size_t n, const neffbar_sema_op*, std::uint32_t) {
  const auto after = g_expected->at("file").get<std::vector<std::int32_t>>();
  if (after.size() != n) throw std::invalid_argument("expected.file: not the input's length");
  std::copy(after.begin(), after.end(), file);
  return status_of(*g_expected);
}
constexpr neffbar_module kRecorded{NEFFBAR_MODULE_ABI_VERSION, "the vectors", recorded_decode, recorded_encode,
                                   recorded_search, recorded_table, recorded_sema};

std::optional<Disagreement> run_one(const Differential& d, std::string_view op, const Json& in) {
  if (op == "decode_log") {
    const Bytes image = from_hex(in.at("image").get<std::string>(), "input.image");
    return d.decode_log(image, in.at("full").get<bool>());
  }
  if (op == "encode_log") return d.encode_log(in.at("log").get<std::string>());
  if (op == "search")
    return d.search(in.at("fabric").get<std::uint32_t>(), in.at("type").get<std::int64_t>(),
                    in.at("step").get<std::int64_t>());
  if (op == "table_bytes") return d.table_bytes(in.at("fabric").get<std::uint32_t>());
  if (op == "sema_apply") {
    const auto file = in.at("file").get<std::vector<std::int32_t>>();
    const Json& o = in.at("op");
    const neffbar_sema_op sop{o.at("prim").get<std::uint32_t>(), o.at("sema").get<std::uint32_t>(),
                              o.at("value").get<std::int64_t>(), o.at("dec").get<std::int64_t>()};
    return d.sema_apply(file, sop, in.at("compare").get<std::uint32_t>());
  }
  throw std::invalid_argument("operation: unknown operation " + std::string(op));
}

}  // namespace

bool implements(const neffbar_module& m, std::string_view op) {
  if (op == "decode_log") return m.decode_log != nullptr;
  if (op == "encode_log") return m.encode_log != nullptr;
  if (op == "search") return m.search != nullptr;
  if (op == "table_bytes") return m.table_bytes != nullptr;
  if (op == "sema_apply") return m.sema_apply != nullptr;
  return false;
}

Json make_vectors(std::string_view operation) {
  const Json body = operation == "decode_log"    ? decode_vectors()
                    : operation == "encode_log"  ? encode_vectors()
                    : operation == "search"      ? search_vectors()
                    : operation == "table_bytes" ? table_vectors()
                    : operation == "sema_apply"  ? sema_vectors()
                                                 : throw std::invalid_argument("no operation " + std::string(operation));
  Json notes = Json::object();
  for (const Fact& f : kFacts)
    for (const auto& used : body.at("flags"))
      if (used.get<std::string>() == f.flag)
        notes[std::string(f.flag)] = Json{{"tag", std::string(tag_name(f.tag))}, {"source", std::string(f.source)},
                                          {"description", std::string(f.statement)}, {"trap", f.trap}};
  return Json{{"operation", operation},
              {"schema", "vectors.schema.json"},
              {"generator", "fuzz/make_corpus (./scripts/make-corpus): the neffbar reference, neffbar_module.h ABI " +
                                std::to_string(NEFFBAR_MODULE_ABI_VERSION)},
              {"numberOfTests", body.at("tests").size()},
              {"notes", notes},
              {"tests", body.at("tests")}};
}

std::vector<VectorOutcome> run_vectors(const neffbar_module& module, const Json& file, CallSite* site) {
  const std::string op = file.at("operation").get<std::string>();
  std::vector<VectorOutcome> out;
  const Differential d(module, kRecorded);
  for (const Json& t : file.at("tests")) {
    VectorOutcome o{t.at("tcId").get<int>(), t.at("comment").get<std::string>(),
                    t.at("flags").get<std::vector<std::string>>(), std::nullopt};
    g_expected = &t.at("expected");
    if (site) site->at(op, "vector " + std::to_string(o.id) + " (" + o.comment + ")");
    try {
      o.disagreement = run_one(d, op, t.at("input"));
    } catch (const nlohmann::json::exception& e) {
      g_expected = nullptr;
      throw std::invalid_argument("test " + std::to_string(o.id) + ": " + e.what());
    }
    g_expected = nullptr;
    // The differential's evidence (the field, the line) names the fact; where it names
    // none, the test's first flag does.
    if (o.disagreement && o.disagreement->flag.empty() && !o.flags.empty()) o.disagreement->flag = o.flags.front();
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace neffbar
