#include "exit.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>

#include "neffbar/hex.h"

namespace neffbar::cli {

namespace {

void put_hex(std::string& out, unsigned char c) {
  out += "\\x";
  out += kHexDigits[c >> 4];
  out += kHexDigits[c & 0xF];
}

// The length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629: no
// overlong form, no surrogate, nothing past U+10FFFF), or 0.
std::size_t utf8_length(std::string_view s) {
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto cont = [&](std::size_t i) { return i < s.size() && (at(i) & 0xC0) == 0x80; };
  const unsigned char c = at(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if ((c == 0xE0 && at(1) < 0xA0) || (c == 0xED && at(1) > 0x9F)) return 0;
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if ((c == 0xF0 && at(1) < 0x90) || (c == 0xF4 && at(1) > 0x8F)) return 0;
    return 4;
  }
  return 0;
}

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const auto c = static_cast<unsigned char>(text[0]);
    const std::size_t n = utf8_length(text);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (n == 0 || c < 0x20 || c == 0x7F) {
      put_hex(out, c);  // a control byte, or a byte that is not UTF-8
    } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[1]) < 0xA0) {
      put_hex(out, c);  // C1 controls, U+0080..U+009F (U+009B is CSI: a terminal's escape)
      put_hex(out, static_cast<unsigned char>(text[1]));
    } else {
      out.append(text.substr(0, n));
    }
    text.remove_prefix(std::max<std::size_t>(n, 1));
  }
  return out;
}

namespace {

bool g_error_written = false;  // an error line went to stderr: the process's one line

// Through std::cerr (wherever it was sent), else, when the stream cannot take it (its
// buffer could not grow, stderr is closed), straight to descriptor 2 in one write.
void write_stderr(std::string_view s) noexcept {
  std::cerr.write(s.data(), static_cast<std::streamsize>(s.size()));
  if (!std::cerr) std::cerr.clear(), static_cast<void>(::write(2, s.data(), s.size()));
}

}  // namespace

void error_line(std::string_view name, std::string_view message) noexcept {
  g_error_written = true;
  try {
    write_stderr("neffbar: " + escape(name) + (name.empty() ? "" : ": ") + escape(message) + '\n');
  } catch (...) {  // the allocator refused the escaped text: byte by byte, '?' for all but printable ASCII
    const auto put = [](std::string_view text) {
      for (const char c : text) write_stderr(c >= 0x20 && c < 0x7F ? std::string_view(&c, 1) : "?");
    };
    write_stderr("neffbar: ");
    if (!name.empty()) put(name), write_stderr(": ");
    put(message);
    write_stderr("\n");
  }
}

void forget_error_lines() noexcept { g_error_written = false; }

void out_of_memory_line(std::string_view command) noexcept {
  if (!g_error_written) error_line(command, kOutOfMemory);
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
