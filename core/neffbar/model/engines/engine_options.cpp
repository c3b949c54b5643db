#include "neffbar/model/engines/engine_options.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

namespace neffbar::model {

std::string decimal_text(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.ends_with('.')) s.pop_back();
  return s;
}

std::uint64_t default_max_memory() {
  std::uint64_t m = kDefaultMaxMemory;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) m = std::min(m, static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 4);
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) m = std::min<std::uint64_t>(m, as.rlim_cur / 4 * 3);
  return m;
}

Result<std::uint64_t> parse_memory(std::string_view flag, std::string_view text) {
  const std::string v(text);
  const Error bad{Errc::InvalidArgument, std::string(flag), "auto, MiB, or a number with K|M|G|T (e.g. 512M, 4G)", "'" + v + "'"};
  if (v == "auto") return default_max_memory();
  std::size_t digits = 0;
  while (digits < v.size() && std::isdigit(static_cast<unsigned char>(v[digits]))) ++digits;
  if (digits == 0 || digits > 12) return bad;
  std::string unit = v.substr(digits);
  for (char& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (unit.size() == 3 && unit.substr(1) == "IB") unit.resize(1);
  int shift = 20;
  if (unit == "K") shift = 10;
  else if (unit == "G") shift = 30;
  else if (unit == "T") shift = 40;
  else if (!unit.empty() && unit != "M") return bad;
  const std::uint64_t n = std::stoull(v.substr(0, digits));
  if (n == 0 || n > (std::uint64_t{1} << (63 - shift))) return bad;
  return n << shift;
}

}  // namespace neffbar::model
