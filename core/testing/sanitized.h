// Whether this build runs under AddressSanitizer (the second ctest pass): ulimit -v
// cannot work there (ASan reserves terabytes of address space) and everything is about
// 10x slower, so some tests skip or run a smaller sample.
#pragma once

#include "testing/testing_only.h"

namespace neffbar::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace neffbar::testing
