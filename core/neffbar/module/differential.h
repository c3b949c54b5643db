// One operation run in a module and in the reference on the same input, and their
// first disagreement as one line: the operation, the field path, the offset, both
// values, and the flag of the fact it breaks (facts.h).  What the differential fuzz
// targets, `neffbar conform` and the test vectors report.
//
// Every call passes the module output buffers fenced by guard bytes; a module that
// writes past one, returns a status outside neffbar_status or a length past its
// buffer disagrees ("buffer" / "status").  Crashes and hangs are the caller's to
// catch (conform runs the module in a child process; a fuzz target crashes).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "neffbar/module/neffbar_module.h"

namespace neffbar {

struct Disagreement {
  std::string op;     // "decode_log", "encode_log", "search", "table_bytes", "sema_apply"
  std::string path;   // the field path, "status", "text", "buffer", "file[i]", "op", "lane", "byte[i]"
  std::optional<std::uint32_t> offset;  // within the image or the table, when the path has one
  std::string reference, module;        // the two values as printed
  std::string flag;   // the fact it breaks (facts.h); "ABI" for a breach of neffbar_module.h's
                      // contract (a buffer overrun, a length past it, a status outside the enum)
  // "decode_log: device_barrier.total_desc_n at 0x11C: reference 7, module 0 [TotalDescNNotLogged]"
  [[nodiscard]] std::string line() const;
};

// Where a module call is about to happen, for a supervisor that names it if the module
// crashes or hangs there (`neffbar conform` runs the module in a child process).
class CallSite {
 public:
  virtual void at(std::string_view op, const std::string& input) = 0;

 protected:
  ~CallSite() = default;
};

// A status as its name ("OK", "NOT_FOUND", ...), or "status 17".
std::string status_name(std::int32_t status);

class Differential {
 public:
  // `module` is compared with `reference` (the reference module unless given).
  explicit Differential(const neffbar_module& module);
  Differential(const neffbar_module& module, const neffbar_module& reference);

  // Each: nullopt when the module agrees or does not implement the operation.
  std::optional<Disagreement> decode_log(std::span<const std::uint8_t> image, bool full) const;
  std::optional<Disagreement> encode_log(std::string_view log) const;
  std::optional<Disagreement> search(std::uint32_t fabric, std::int64_t type, std::int64_t step) const;
  std::optional<Disagreement> table_bytes(std::uint32_t fabric) const;
  std::optional<Disagreement> sema_apply(std::span<const std::int32_t> file, const neffbar_sema_op& op,
                                         std::uint32_t compare) const;

 private:
  const neffbar_module& module_;
  const neffbar_module& reference_;
};

}  // namespace neffbar
