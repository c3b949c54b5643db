#include "exit.h"

#include <iostream>

#include "neffbar/hex.h"

namespace neffbar::cli {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += kHexDigits[c >> 4];
      out += kHexDigits[c & 0xF];
    } else {
      out += ch;
    }
  }
  return out;
}

void error_line(std::string_view name, std::string_view message) {
  std::cerr << "neffbar: " << escape(name) << (name.empty() ? "" : ": ") << escape(message) << '\n';
}

int fail_input(const Error& e, const std::string& input) {
  error_line(input == "-" ? "stdin" : input, e.message());
  return code(Exit::Invalid);
}

int fail_usage(const Error& e, std::string_view option) {
  error_line(option, e.message());
  return code(Exit::Usage);
}

}  // namespace neffbar::cli
