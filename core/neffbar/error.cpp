#include "neffbar/error.h"

namespace neffbar {

std::string_view errc_name(Errc code) {
  switch (code) {
    case Errc::WrongLength: return "wrong length";
    case Errc::UnknownArch: return "unknown arch";
    case Errc::NoV5Decoder: return "no v5 decoder";
    case Errc::BadJson: return "bad JSON";
    case Errc::UnknownKey: return "unknown key";
    case Errc::MissingKey: return "missing key";
    case Errc::WrongType: return "wrong type";
    case Errc::OutOfRange: return "out of range";
    case Errc::BadHex: return "bad hex";
    case Errc::Conflict: return "conflict";
    case Errc::ShortContext: return "short context";
    case Errc::TooManyLeaders: return "too many leaders";
    case Errc::InvalidArgument: return "invalid argument";
    case Errc::Io: return "I/O error";
  }
  return "error";
}

std::string Error::message() const {
  std::string out(errc_name(code));
  if (!where.empty()) out += ": " + where;
  if (!expected.empty()) out += ": expected " + expected;
  if (!got.empty()) out += (expected.empty() ? ": got " : ", got ") + got;
  return out;
}

}  // namespace neffbar
