#include "neffbar/json_log.h"

#include <array>
#include <charconv>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "neffbar/bytes.h"
#include "neffbar/hex.h"
#include "neffbar/strict_json.h"

namespace neffbar {
namespace {

// The top level of the log, in the order the parent decoder prints it (libncfw parent @0x10f8b: gate
// @0x1121a, host_barrier @0x11313, device_barrier @0x11330), then the full-log extras.
constexpr Field kHostView = Field{"host_barrier", 0, kHostSchema.size, Kind::Struct, 1, true,
                                  Tag::Observed, &kHostSchema};
constexpr std::array<const Field*, 5> kTopLevel{&kConfigFields[1], &kHostView, &kConfigFields[0],
                                                &kConfigFields[2], &kConfigFields[3]};

bool shown(const Field& f, LogMode mode) { return f.logged || mode == LogMode::Full; }

// ---------------------------------------------------------------- writer ----------
// The log's shape depends only on the schema and the mode, so the schema is walked
// once per mode into a flat program: literal text, then one value to format, and so
// on.  Writing a log runs that program: a copy of each literal and a formatting of each
// value, straight into the output buffer (no iostreams, no snprintf).
struct LogOp {
  std::uint32_t lit_begin, lit_len;  // literal text before the value
  const Field* field;                // nullptr: the closing literal
  std::uint32_t offset;              // absolute offset of the value
};
struct LogProgram {
  std::string literals;
  std::vector<LogOp> ops;
  std::size_t max_size = 0;  // upper bound of the output
};

class Recorder {
 public:
  void text(std::string_view s) { pending_ += s; }
  void indent(int level) { pending_.append(static_cast<std::size_t>(level) * 2, ' '); }
  void value(const Field& f, std::uint32_t offset) { flush(&f, offset); }
  LogProgram finish() {
    flush(nullptr, 0);
    return std::move(prog_);
  }

 private:
  void flush(const Field* f, std::uint32_t offset) {
    prog_.ops.push_back(LogOp{static_cast<std::uint32_t>(prog_.literals.size()),
                              static_cast<std::uint32_t>(pending_.size()), f, offset});
    prog_.literals += pending_;
    prog_.max_size += pending_.size() + 24;  // a value is at most 20 digits / 18 hex chars
    pending_.clear();
  }
  std::string pending_;
  LogProgram prog_;
};

void record_struct(Recorder& r, const StructSchema& s, std::uint32_t base, int level, LogMode mode);

void record_elem(Recorder& r, const Field& f, std::uint32_t at, int level, LogMode mode) {
  switch (f.style()) {
    case Style::Addr:
      r.text("{ \"addr\": { \"soc_addr\": \"");
      r.value(f, at);
      r.text("\" } }");
      break;
    case Style::Object: record_struct(r, *f.sub, at, level, mode); break;
    case Style::Pointer:
    case Style::Number: r.value(f, at); break;
  }
}

void record_field(Recorder& r, const Field& f, std::uint32_t at, int level, LogMode mode) {
  r.indent(level);
  r.text("\"");
  r.text(f.name);
  r.text("\": ");
  if (!f.is_array()) return record_elem(r, f, at, level, mode);
  const bool multiline = f.kind == Kind::Struct || f.kind == Kind::Addr;
  r.text("[");
  for (std::uint32_t k = 0; k < f.count; ++k) {
    if (k > 0) r.text(",");
    if (multiline) {
      r.text("\n");
      r.indent(level + 1);
    } else if (k > 0) {
      r.text(" ");
    }
    record_elem(r, f, at + k * f.elem_size(), level + 1, mode);
  }
  if (multiline) {
    r.text("\n");
    r.indent(level);
  }
  r.text("]");
}

void record_struct(Recorder& r, const StructSchema& s, std::uint32_t base, int level, LogMode mode) {
  r.text("{\n");
  bool first = true;
  for (const Field& f : s.fields) {
    if (!shown(f, mode)) continue;
    if (!first) r.text(",\n");
    first = false;
    record_field(r, f, base + f.offset, level + 1, mode);
  }
  r.text("\n");
  r.indent(level);
  r.text("}");
}

LogProgram compile_log(LogMode mode) {
  Recorder r;
  r.text("{\n");
  bool first = true;
  for (const Field* f : kTopLevel) {
    if (!shown(*f, mode)) continue;
    if (!first) r.text(",\n");
    first = false;
    record_field(r, *f, f->offset, 1, mode);
  }
  r.text("\n}\n");
  return r.finish();
}

const LogProgram& log_program(LogMode mode) {
  static const LogProgram dflt = compile_log(LogMode::Default);
  static const LogProgram full = compile_log(LogMode::Full);
  return mode == LogMode::Full ? full : dflt;
}

char* format_value(char* p, const Field& f, const std::uint8_t* v) {
  switch (f.style()) {
    case Style::Addr: {
      const std::uint64_t x = load_le_as<std::uint64_t>(v);
      *p++ = '0';
      *p++ = 'x';
      for (int i = 0; i < 16; ++i) *p++ = kHexDigits[(x >> (60 - 4 * i)) & 0xF];
      return p;
    }
    case Style::Pointer: {
      const char* s = ((v[0] >> f.bit_shift) & 1) ? "\"0x1\"" : "\"0x0\"";
      std::memcpy(p, s, 5);
      return p + 5;
    }
    case Style::Number:
    case Style::Object: break;
  }
  const std::uint64_t x = field_value(v, f);
  return std::to_chars(p, p + 20, x).ptr;
}

// ---------------------------------------------------------------- reader ----------
using json = nlohmann::json;

// Accumulates bytes and remembers which JSON path wrote each bit, so the two views
// of the overlay are checked against each other instead of one silently winning.
class ByteSink {
 public:
  Status put(std::uint32_t offset, std::uint32_t size, std::uint64_t value, std::uint8_t bit_mask,
                   const std::string& path) {
    paths_.push_back(path);
    for (std::uint32_t i = 0; i < size; ++i) {
      const std::uint32_t at = offset + i;
      const std::uint8_t mask = size == 1 ? bit_mask : 0xFF;
      const auto byte = static_cast<std::uint8_t>(size == 1 && bit_mask != 0xFF ? value : value >> (8 * i));
      if ((written_[at] & mask) != 0 && ((bytes_[at] ^ byte) & written_[at] & mask) != 0) {
        return Error{Errc::Conflict, path + " @" + hex(offset),
                     "the same bytes as " + paths_[owner_[at]] +
                         " (the host view overlays barrier_step_config[0])",
                     "a different value"};
      }
      bytes_[at] = static_cast<std::uint8_t>((bytes_[at] & ~mask) | (byte & mask));
      written_[at] |= mask;
      owner_[at] = static_cast<std::uint16_t>(paths_.size() - 1);
    }
    return {};
  }
  [[nodiscard]] const ConfigBytes& bytes() const { return bytes_; }

 private:
  ConfigBytes bytes_{};
  std::array<std::uint8_t, kConfigSize> written_{};
  std::array<std::uint16_t, kConfigSize> owner_{};
  std::vector<std::string> paths_;
};

std::string type_of(const json& j) { return std::string(j.type_name()); }

Result<std::uint64_t> parse_hex(const json& j, const std::string& path, bool allow_nil) {
  if (!j.is_string()) return Error{Errc::WrongType, path, "a string \"0x...\"", type_of(j)};
  const std::string& s = j.get_ref<const std::string&>();
  if (allow_nil && s == "(nil)") return std::uint64_t{0};  // QUIRK: glibc %p of 0
  std::string_view d = s;
  if (!(d.starts_with("0x") || d.starts_with("0X")) || d.size() < 3 || d.size() > 18) {
    return Error{Errc::BadHex, path, allow_nil ? "\"0x1\", \"0x0\" or \"(nil)\"" : "\"0x\" + 1..16 hex digits",
                 "\"" + s + "\""};
  }
  d.remove_prefix(2);
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(d.data(), d.data() + d.size(), v, 16);
  if (ec != std::errc{} || ptr != d.data() + d.size()) {
    return Error{Errc::BadHex, path, "\"0x\" + 1..16 hex digits", "\"" + s + "\""};
  }
  return v;
}

Result<std::uint64_t> parse_number(const json& j, const Field& f, const std::string& path) {
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    if (v > f.max_value()) {
      return Error{Errc::OutOfRange, path, "0.." + std::to_string(f.max_value()), std::to_string(v)};
    }
    return v;
  }
  if (j.is_number_integer()) {
    return Error{Errc::OutOfRange, path, "0.." + std::to_string(f.max_value()), std::to_string(j.get<std::int64_t>())};
  }
  return Error{Errc::WrongType, path, "an unsigned integer", type_of(j)};
}

Status read_struct(const json& j, std::span<const Field* const> fields, std::uint32_t base,
                         const std::string& path, ByteSink& sink);

Status read_elem(const json& j, const Field& f, std::uint32_t at, const std::string& path, ByteSink& sink) {
  switch (f.style()) {
    case Style::Object: {
      std::vector<const Field*> sub;
      for (const Field& x : f.sub->fields) sub.push_back(&x);
      return read_struct(j, sub, at, path, sink);
    }
    case Style::Addr: {
      if (!j.is_object()) return Error{Errc::WrongType, path, "{ \"addr\": { \"soc_addr\": \"0x...\" } }", type_of(j)};
      for (const auto& [k, v] : j.items()) {
        if (k != "addr") return Error{Errc::UnknownKey, path + "." + k, "only \"addr\"", ""};
      }
      const auto a = j.find("addr");
      if (a == j.end()) return Error{Errc::MissingKey, path + ".addr", "", ""};
      if (!a->is_object()) return Error{Errc::WrongType, path + ".addr", "{ \"soc_addr\": \"0x...\" }", type_of(*a)};
      for (const auto& [k, v] : a->items()) {
        if (k != "soc_addr") return Error{Errc::UnknownKey, path + ".addr." + k, "only \"soc_addr\"", ""};
      }
      const auto s = a->find("soc_addr");
      if (s == a->end()) return Error{Errc::MissingKey, path + ".addr.soc_addr", "", ""};
      const Result<std::uint64_t> v = parse_hex(*s, path + ".addr.soc_addr", false);
      if (!v) return v.error();
      return sink.put(at, 8, *v, 0xFF, path);
    }
    case Style::Pointer: {
      const Result<std::uint64_t> v = parse_hex(j, path, true);
      if (!v) return v.error();
      if (*v > f.max_value()) return Error{Errc::OutOfRange, path, "\"0x0\" or \"0x1\" (a 1-bit flag)", hex(*v)};
      return sink.put(at, 1, *v << f.bit_shift, static_cast<std::uint8_t>(f.max_value() << f.bit_shift), path);
    }
    case Style::Number: {
      const Result<std::uint64_t> v = parse_number(j, f, path);
      if (!v) return v.error();
      if (f.kind == Kind::Bits) {
        return sink.put(at, 1, *v << f.bit_shift, static_cast<std::uint8_t>(f.max_value() << f.bit_shift), path);
      }
      return sink.put(at, f.elem_size(), *v, 0xFF, path);
    }
  }
  return {};
}

Status read_field(const json& j, const Field& f, std::uint32_t at, const std::string& path, ByteSink& sink) {
  if (!f.is_array()) return read_elem(j, f, at, path, sink);
  if (!j.is_array()) return Error{Errc::WrongType, path, "an array of " + std::to_string(f.count), type_of(j)};
  if (j.size() != f.count) {
    return Error{Errc::OutOfRange, path, std::to_string(f.count) + " elements", std::to_string(j.size())};
  }
  for (std::uint32_t k = 0; k < f.count; ++k) {
    const Status r = read_elem(j[k], f, at + k * f.elem_size(), path + "[" + std::to_string(k) + "]", sink);
    if (!r) return r.error();
  }
  return {};
}

Status read_struct(const json& j, std::span<const Field* const> fields, std::uint32_t base,
                         const std::string& path, ByteSink& sink) {
  if (!j.is_object()) return Error{Errc::WrongType, path, "an object", type_of(j)};
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const Field* f : fields) known = known || f->name == key;
    if (!known) return Error{Errc::UnknownKey, path + "." + key, "", ""};
  }
  for (const Field* f : fields) {
    const auto it = j.find(std::string(f->name));
    const std::string sub = path + "." + std::string(f->name);
    if (it == j.end()) {
      if (f->logged) return Error{Errc::MissingKey, sub, "", ""};
      continue;  // full-log-only field: absent -> 0
    }
    const Status r = read_field(*it, *f, base + f->offset, sub, sink);
    if (!r) return r.error();
  }
  return {};
}

}  // namespace

void write_log(const ConfigBytes& bytes, LogMode mode, std::string& out) {
  const LogProgram& prog = log_program(mode);
  const std::size_t start = out.size();
  out.resize(start + prog.max_size);
  char* p = out.data() + start;
  for (const LogOp& op : prog.ops) {
    std::memcpy(p, prog.literals.data() + op.lit_begin, op.lit_len);
    p += op.lit_len;
    if (op.field) p = format_value(p, *op.field, bytes.data() + op.offset);
  }
  out.resize(static_cast<std::size_t>(p - out.data()));
}

std::string write_log(const ConfigBytes& bytes, LogMode mode) {
  std::string out;
  write_log(bytes, mode, out);
  return out;
}

Result<ConfigBytes> read_log(std::string_view text) {
  const Result<json> j = parse_strict_json(text);
  if (!j) return j.error();
  try {
    ByteSink sink;
    const Status r = read_struct(*j, kTopLevel, 0, "$", sink);
    if (!r) return r.error();
    return sink.bytes();
  } catch (const std::exception& e) {  // e.g. bad_alloc: nothing escapes core/
    return Error{Errc::BadJson, "input", "", e.what()};
  }
}

}  // namespace neffbar
