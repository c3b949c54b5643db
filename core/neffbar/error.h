// Typed errors and a small Result<T>: the public API of core/ never throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace neffbar {

enum class Errc {
  WrongLength,     // byte image is not 0x128 bytes
  UnknownArch,     // arch_id / name not one of the four NCFW generations
  NoV5Decoder,     // MAVERICK (v5): libncfw ships no barrier decoder for it
  BadJson,         // text is not JSON
  UnknownKey,      // a key the schema does not have
  MissingKey,      // a key the (default) log always prints is absent
  WrongType,       // JSON value of the wrong type
  OutOfRange,      // number / bits do not fit the field
  BadHex,          // soc_addr string is not 0x + 1..16 hex digits
  Conflict,        // two JSON fields describe the same bytes differently (overlay)
  ShortContext,    // driver-context blob too short for a read
  TooManyLeaders,  // leader count above MAX_LEADERS (4)
  InvalidArgument, // CLI / API argument outside its domain
  Io,              // a file could not be read
};

std::string_view errc_name(Errc code);

struct Error {
  Errc code{};
  std::string where;     // field name, JSON path ($.device_barrier...) or "offset 0x..."
  std::string expected;  // what was expected (may be empty)
  std::string got;       // what was found (may be empty)
  // One line, suitable for stderr: "<code>: <where>: expected <e>, got <g>".
  [[nodiscard]] std::string message() const;
};

// Either a T or an Error.  Deliberately tiny: C++20 has no std::expected.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}     // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  [[nodiscard]] const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Success, or an Error: for operations that produce nothing and can fail.
class [[nodiscard]] Status {
 public:
  Status() = default;                                       // success
  Status(Error error) : error_(std::move(error)) {}         // NOLINT(google-explicit-constructor)
  [[nodiscard]] bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  [[nodiscard]] const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

}  // namespace neffbar
