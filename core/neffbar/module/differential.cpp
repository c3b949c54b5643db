#include "neffbar/module/differential.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "neffbar/config_diff.h"
#include "neffbar/hex.h"
#include "neffbar/json_log.h"
#include "neffbar/module/facts.h"
#include "neffbar/module/reference_module.h"
#include "neffbar/schema.h"
#include "neffbar/tables.h"

namespace neffbar {
namespace {

constexpr std::size_t kGuard = 64;         // bytes after every output buffer
constexpr std::uint8_t kGuardByte = 0xA5;
constexpr std::size_t kLogCap = 1 << 16;   // a log is about 4 KiB; a module may format it wider
constexpr std::size_t kLogMax = 1 << 22;   // a larger length asked for is a finding, not a retry

// An output buffer of `cap` bytes between guard bytes, checked after the call, and past
// the trailing ones an inaccessible page: a write just before or after the buffer is a
// finding (ABI), one further out a crash (conform's child dies, and names the call).
class Fenced {
 public:
  explicit Fenced(std::size_t cap, std::uint8_t fill = 0) : cap_(cap) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    rw_ = (kGuard + cap + kGuard + page - 1) / page * page;
    total_ = rw_ + page;
    void* m = ::mmap(nullptr, total_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    base_ = static_cast<std::uint8_t*>(m);
    ::mprotect(base_ + rw_, page, PROT_NONE);
    data_ = base_ + rw_ - kGuard - cap;
    std::memset(base_, kGuardByte, rw_);
    std::memset(data_, fill, cap);
  }
  ~Fenced() { ::munmap(base_, total_); }
  Fenced(const Fenced&) = delete;
  Fenced& operator=(const Fenced&) = delete;
  std::uint8_t* data() { return data_; }
  [[nodiscard]] const std::uint8_t* data() const { return data_; }
  [[nodiscard]] std::size_t cap() const { return cap_; }
  [[nodiscard]] bool intact() const {
    const auto guard = [](std::uint8_t b) { return b == kGuardByte; };
    return std::all_of(static_cast<const std::uint8_t*>(base_), static_cast<const std::uint8_t*>(data_), guard) &&
           std::all_of(static_cast<const std::uint8_t*>(data_ + cap_), static_cast<const std::uint8_t*>(base_ + rw_), guard);
  }

 private:
  std::size_t cap_, rw_ = 0, total_ = 0;
  std::uint8_t* base_ = nullptr;
  std::uint8_t* data_ = nullptr;
};

// A module's scalar out-parameter in a buffer of its own (Fenced), read back after the
// call: a write past it cannot reach the harness's own values.
template <class T>
T read_out(const Fenced& f, std::size_t at = 0) {
  T v;
  std::memcpy(&v, f.data() + at, sizeof v);
  return v;
}

bool known_status(std::int32_t s) { return s >= NEFFBAR_OK && s <= NEFFBAR_TOO_SMALL; }

std::string flag_of(std::string_view name) { return fact(name) ? std::string(name) : std::string(); }

// The flag of a breach of neffbar_module.h's own contract (a buffer, a length, a status
// outside the enum): no fact of the interface, the ABI.
constexpr std::string_view kAbiFlag = "ABI";

Disagreement overrun(std::string_view op, std::size_t cap) {
  return {std::string(op), "buffer", std::nullopt, "nothing past the buffer",
          "wrote past the " + std::to_string(cap) + "-byte buffer", std::string(kAbiFlag)};
}

Disagreement status_differs(std::string_view op, std::int32_t r, std::int32_t m, std::string flag = "") {
  if (!known_status(m)) flag = kAbiFlag;
  return {std::string(op), "status", std::nullopt, status_name(r), status_name(m), std::move(flag)};
}

// A field disagreement between two images: the first leaf that differs.
std::optional<Disagreement> field_differs(std::string_view op, const ConfigBytes& ref, const ConfigBytes& mod) {
  const auto diffs = diff_configs(ref, mod);
  if (diffs.empty()) return std::nullopt;
  const FieldDiff& d = diffs.front();
  std::optional<Fact> f = fact_at(d.leaf->offset);
  if (d.reserved() && d.leaf->offset >= kGateOffset) f = fact("ReservedAfterGate");
  return Disagreement{std::string(op), leaf_path(*d.leaf), d.leaf->offset, field_text(*d.leaf->field, d.a),
                      field_text(*d.leaf->field, d.b), f ? std::string(f->flag) : ""};
}

// The first line where two texts differ, 1-based, and the two lines.
Disagreement text_differs(std::string_view op, std::string_view ref, std::string_view mod) {
  std::size_t line = 1, i = 0;
  const std::size_t n = std::min(ref.size(), mod.size());
  std::size_t start = 0;
  for (; i < n && ref[i] == mod[i]; ++i)
    if (ref[i] == '\n') ++line, start = i + 1;
  auto line_at = [start](std::string_view t) {
    std::string_view rest = t.substr(std::min(start, t.size()));
    return std::string(rest.substr(0, std::min(rest.find('\n'), std::size_t{120})));
  };
  const std::string r = line_at(ref), m = line_at(mod);
  std::string flag;
  // The gate printed pointer-style but not as 0x0 or 0x1: the reserved bits went with it.
  const bool gate_byte = m.find("\"0x") != std::string::npos && m.find("\"0x0\"") == std::string::npos &&
                         m.find("\"0x1\"") == std::string::npos;
  if (r.find("execute_device_barrier") != std::string::npos) flag = gate_byte ? "ReservedAfterGate" : "GatePrintedAsPointer";
  else if (r.find("barrier_start") != std::string::npos || r.find("barrier_done") != std::string::npos)
    flag = "OneBaseTwoViews";
  else if (r.find("soc_addr") != std::string::npos) flag = "AddrPrintedAs016lX";
  return {std::string(op), "text line " + std::to_string(line), std::nullopt, "'" + r + "'", "'" + m + "'",
          flag_of(flag)};
}

ConfigBytes to_bytes(const std::uint8_t* p) {
  ConfigBytes b{};
  std::copy_n(p, kConfigSize, b.begin());
  return b;
}

std::string table_path(std::size_t i) {
  if (i >= kTableBytes) return "sizes[" + std::to_string(i - kTableBytes) + "]";
  return "steps[" + std::to_string(i / 32) + "][" + std::to_string(i % 32 / 8) + "]." + (i % 8 < 4 ? "type" : "op");
}

}  // namespace

std::string status_name(std::int32_t status) {
  switch (status) {
    case NEFFBAR_OK: return "OK";
    case NEFFBAR_NOT_FOUND: return "NOT_FOUND";
    case NEFFBAR_BLOCKED: return "BLOCKED";
    case NEFFBAR_OVERFLOW: return "OVERFLOW";
    case NEFFBAR_REFUSED: return "REFUSED";
    case NEFFBAR_TOO_SMALL: return "TOO_SMALL";
    default: return "status " + std::to_string(status);
  }
}

std::string Disagreement::line() const {
  std::string s = op + ": " + path;
  if (offset) s += " at " + hex(*offset);
  s += ": reference " + reference + ", module " + module;
  if (!flag.empty()) s += " [" + flag + "]";
  return s;
}

Differential::Differential(const neffbar_module& module) : Differential(module, reference_module()) {}
Differential::Differential(const neffbar_module& module, const neffbar_module& reference)
    : module_(module), reference_(reference) {}

std::optional<Disagreement> Differential::decode_log(std::span<const std::uint8_t> image, bool full) const {
  constexpr std::string_view op = "decode_log";
  if (!module_.decode_log || !reference_.decode_log) return std::nullopt;
  Fenced ref(kLogCap);
  auto mod = std::make_unique<Fenced>(kLogCap);  // replaced when the module asks for more
  Fenced len(sizeof(std::size_t));  // the module's *len
  std::size_t rlen = 0;
  const std::int32_t rs = reference_.decode_log(image.data(), image.size(), full ? 1 : 0,
                                                reinterpret_cast<char*>(ref.data()), ref.cap(), &rlen);
  std::int32_t ms = module_.decode_log(image.data(), image.size(), full ? 1 : 0, reinterpret_cast<char*>(mod->data()),
                                       mod->cap(), reinterpret_cast<std::size_t*>(len.data()));
  if (!mod->intact()) return overrun(op, mod->cap());
  if (!len.intact()) return overrun(op, len.cap());
  std::size_t mlen = read_out<std::size_t>(len);
  if (ms == NEFFBAR_TOO_SMALL && mlen > mod->cap() && mlen <= kLogMax) {  // the module may format wider
    mod = std::make_unique<Fenced>(mlen);
    ms = module_.decode_log(image.data(), image.size(), full ? 1 : 0, reinterpret_cast<char*>(mod->data()), mod->cap(),
                            reinterpret_cast<std::size_t*>(len.data()));
    if (!mod->intact()) return overrun(op, mod->cap());
    if (!len.intact()) return overrun(op, len.cap());
    mlen = read_out<std::size_t>(len);
  }
  if (rs != ms || !known_status(ms))
    return status_differs(op, rs, ms, image.size() != kConfigSize ? "LengthIs0x128" : "");
  if (rs != NEFFBAR_OK) return std::nullopt;
  if (mlen > mod->cap())
    return Disagreement{std::string(op), "length", std::nullopt, "at most the buffer",
                        std::to_string(mlen) + " past the " + std::to_string(mod->cap()) + "-byte buffer",
                        std::string(kAbiFlag)};
  const std::string_view rtext(reinterpret_cast<const char*>(ref.data()), rlen);
  const std::string_view mtext(reinterpret_cast<const char*>(mod->data()), mlen);
  if (rtext == mtext) return std::nullopt;
  const auto rbytes = read_log(rtext);
  const auto mbytes = read_log(mtext);
  if (rbytes && mbytes)
    if (auto d = field_differs(op, *rbytes, *mbytes)) return d;
  if (rbytes && !mbytes && mbytes.error().code == Errc::Conflict)  // its host view is not the step-0 bytes
    return Disagreement{std::string(op), "host_barrier", 0u, "the step-0 bytes it overlays",
                        "a host view that disagrees with " + mbytes.error().where, "OneBaseTwoViews"};
  return text_differs(op, rtext, mtext);
}

std::optional<Disagreement> Differential::encode_log(std::string_view log) const {
  constexpr std::string_view op = "encode_log";
  if (!module_.encode_log || !reference_.encode_log) return std::nullopt;
  Fenced ref(kConfigSize), mod(kConfigSize);
  const std::int32_t rs = reference_.encode_log(log.data(), log.size(), ref.data());
  const std::int32_t ms = module_.encode_log(log.data(), log.size(), mod.data());
  if (!mod.intact()) return overrun(op, mod.cap());
  if (rs != ms || !known_status(ms)) {
    const auto why = read_log(log);
    return status_differs(op, rs, ms, !why && why.error().code == Errc::Conflict ? "HostMustMatchOverlay" : "");
  }
  if (rs != NEFFBAR_OK) return std::nullopt;
  return field_differs(op, to_bytes(ref.data()), to_bytes(mod.data()));
}

std::optional<Disagreement> Differential::search(std::uint32_t fabric, std::int64_t type, std::int64_t step) const {
  constexpr std::string_view op = "search";
  if (!module_.search || !reference_.search) return std::nullopt;
  std::uint32_t rop = 0;
  std::int32_t rlane = 0;
  Fenced outs(sizeof(std::uint32_t) + sizeof(std::int32_t));  // the module's *op, then *lane
  const std::int32_t rs = reference_.search(fabric, type, step, &rop, &rlane);
  const std::int32_t ms = module_.search(fabric, type, step, reinterpret_cast<std::uint32_t*>(outs.data()),
                                         reinterpret_cast<std::int32_t*>(outs.data() + sizeof(std::uint32_t)));
  if (!outs.intact()) return overrun(op, outs.cap());
  const auto mop = read_out<std::uint32_t>(outs);
  const auto mlane = read_out<std::int32_t>(outs, sizeof(std::uint32_t));
  const bool in_range = type >= 0 && type < kTypeCount && step >= 0 && step < kSteps;
  if (rs != ms || !known_status(ms)) {
    // A (7,2) pad found: its op 2 read as a "nop" entry, not OP_TYPE_MAX.  Types 4 and 6
    // not found: the numbers of BARRIER_DMA_SYNC and HOST_BARRIER_ID0, which a port that
    // reads field 0 as a sema id does not take for barrier scopes.
    const char* flag = ms == NEFFBAR_OK && mop == static_cast<std::uint32_t>(BarrierOp::OpTypeMax) ? "Field1IsEntryExit"
                       : !in_range                                                          ? "SearchOutOfRange"
                       : rs == NEFFBAR_OK && (type == 4 || type == 6)                        ? "TypeIdsAreNotSemaIds"
                                                                                            : "ShippedTables";
    return status_differs(op, rs, ms, flag);
  }
  if (rs != NEFFBAR_OK) return std::nullopt;
  if (rop != mop) return Disagreement{std::string(op), "op", std::nullopt, std::to_string(rop), std::to_string(mop),
                                      "Field1IsEntryExit"};
  if (rlane != mlane) return Disagreement{std::string(op), "lane", std::nullopt, std::to_string(rlane),
                                          std::to_string(mlane), "FirstMatchWins"};
  return std::nullopt;
}

std::optional<Disagreement> Differential::table_bytes(std::uint32_t fabric) const {
  constexpr std::string_view op = "table_bytes";
  if (!module_.table_bytes || !reference_.table_bytes) return std::nullopt;
  Fenced ref(NEFFBAR_TABLE_SIZE), mod(NEFFBAR_TABLE_SIZE);
  const std::int32_t rs = reference_.table_bytes(fabric, ref.data());
  const std::int32_t ms = module_.table_bytes(fabric, mod.data());
  if (!mod.intact()) return overrun(op, mod.cap());
  if (rs != ms || !known_status(ms)) return status_differs(op, rs, ms);
  if (rs != NEFFBAR_OK) return std::nullopt;
  for (std::size_t i = 0; i < NEFFBAR_TABLE_SIZE; ++i)
    if (ref.data()[i] != mod.data()[i]) {
      const bool op_byte = i < kTableBytes && i % 8 >= 4;
      return Disagreement{std::string(op), table_path(i), static_cast<std::uint32_t>(i), hex(ref.data()[i]),
                          hex(mod.data()[i]), op_byte ? "Field1IsEntryExit" : "ShippedTables"};
    }
  return std::nullopt;
}

std::optional<Disagreement> Differential::sema_apply(std::span<const std::int32_t> file, const neffbar_sema_op& sop,
                                                     std::uint32_t compare) const {
  constexpr std::string_view op = "sema_apply";
  if (!module_.sema_apply || !reference_.sema_apply) return std::nullopt;
  std::vector<std::int32_t> ref(file.begin(), file.end());
  Fenced mod(file.size() * sizeof(std::int32_t));
  std::memcpy(mod.data(), file.data(), file.size_bytes());
  const neffbar_sema_op rop = sop;
  neffbar_sema_op mop = sop;  // its own copy: a module that writes it changes nothing of the harness's
  const std::int32_t rs = reference_.sema_apply(ref.data(), ref.size(), &rop, compare);
  const std::int32_t ms = module_.sema_apply(reinterpret_cast<std::int32_t*>(mod.data()), file.size(), &mop, compare);
  if (!mod.intact()) return overrun(op, mod.cap());
  const bool ge = sop.prim == NEFFBAR_WAIT_GE || sop.prim == NEFFBAR_WAIT_GE_AND_DEC;
  const bool at_threshold = sop.sema < file.size() && file[sop.sema] == sop.value;
  const bool overflow = rs == NEFFBAR_OVERFLOW || ms == NEFFBAR_OVERFLOW;
  if (rs != ms || !known_status(ms))  // released or not, overflowed or not
    return status_differs(op, rs, ms, overflow ? "SemaSigned32" : ge && at_threshold ? "WaitGeCompare" : "");
  for (std::size_t i = 0; i < file.size(); ++i) {  // both released: what they left
    std::int32_t m = 0;
    std::memcpy(&m, mod.data() + i * sizeof m, sizeof m);
    if (m != ref[i])
      return Disagreement{std::string(op), "file[" + std::to_string(i) + "]", std::nullopt, std::to_string(ref[i]),
                          std::to_string(m),
                          rs != NEFFBAR_OK ? "SemaSigned32" : sop.prim == NEFFBAR_WAIT_GE_AND_DEC ? "WaitGeAndDecByDec" : ""};
  }
  return std::nullopt;
}

}  // namespace neffbar
