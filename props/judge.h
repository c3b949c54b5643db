// How a property says what it found, whichever driver runs it: rapidcheck
// (rc_driver.h: a failure is RC_FAIL naming the check, a discard is RC_PRE) or
// libFuzzer (fuzz/property_fuzzer.cpp: a failure prints the check and aborts, so the
// input is kept as a crash; a discard returns).  No rapidcheck here.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

namespace neffbar::props {

class Judge {
 public:
  virtual ~Judge() = default;
  // Neither returns: the case stops where the property failed or gave up.
  [[noreturn]] virtual void fail(std::string_view what) = 0;
  [[noreturn]] virtual void discard() = 0;
  // Statistics on what the cases reached (rapidcheck prints them; the fuzzer ignores them).
  virtual void classify(bool, std::string_view) {}
  virtual void tag(std::string_view) {}
  // Whether this case runs the law's expensive cross-checks (the explicit search, the
  // reference checker).  rapidcheck and the ctest replay always do; the fuzz driver
  // samples them (fuzz/property_fuzzer.h) so every target keeps >= 1,000 exec/s.  A law
  // only ever skips a check here, never weakens one it runs.
  virtual bool thorough() const { return true; }

  // `what` names the check; the teeth tests (teeth_test.cpp) look for it in the failure.
  void require(bool ok, std::string_view what) {
    if (!ok) fail(what);
  }
  // The case is outside the property (rapidcheck's RC_PRE).
  void assume(bool ok) {
    if (!ok) discard();
  }
  template <class... T>
  void tags(const T&... parts) {
    std::string s;
    ((s += (s.empty() ? "" : ", "), s += to_text(parts)), ...);
    tag(s);
  }

 private:
  static std::string to_text(std::string_view v) { return std::string(v); }
  static std::string to_text(const char* v) { return v; }
  template <class N>
  static std::string to_text(N n) requires std::is_arithmetic_v<N> { return std::to_string(n); }
};

}  // namespace neffbar::props
