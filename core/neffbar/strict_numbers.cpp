#include "neffbar/strict_numbers.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace neffbar {

Result<std::uint64_t> parse_count(std::string_view option, std::string_view text, std::uint64_t lo,
                                  std::uint64_t hi) {
  const std::string expected = "an integer " + std::to_string(lo) + ".." + std::to_string(hi);
  const Error bad{Errc::InvalidArgument, std::string(option), expected, "'" + std::string(text) + "'"};
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return bad;
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || ptr != text.data() + text.size() || v < lo || v > hi) return bad;
  return v;
}

Result<double> parse_seconds(std::string_view option, std::string_view text) {
  const Error bad{Errc::InvalidArgument, std::string(option), "a number of seconds > 0", "'" + std::string(text) + "'"};
  // strtod, not from_chars: libc++ 14 (the OSS-Fuzz build) has no floating from_chars.
  // Digits and one point only: no sign, exponent, hex float, inf or nan.
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string_view::npos) return bad;
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v) || v <= 0) return bad;
  return v;
}

}  // namespace neffbar
