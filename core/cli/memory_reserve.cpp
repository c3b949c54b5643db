// The reserve the new-handler frees (memory_reserve.h).
#include "memory_reserve.h"

#include <cstddef>
#include <utility>

namespace neffbar::cli {
namespace {

constexpr std::size_t kReserve = std::size_t{1} << 20;  // the unwinding's room: 1 MiB
char* g_reserve = nullptr;
bool g_live = false;

void release_and_throw() { delete[] std::exchange(g_reserve, nullptr), throw std::bad_alloc(); }

}  // namespace

MemoryReserve::MemoryReserve() {
  g_reserve = new char[kReserve];  // first: a refusal here leaves no handler behind
  before_ = std::set_new_handler(release_and_throw);
  g_live = true;
}

MemoryReserve::~MemoryReserve() {
  std::set_new_handler(before_);
  delete[] g_reserve;
  g_reserve = nullptr;
  g_live = false;
}

void MemoryReserve::rearm() noexcept {
  if (g_live && g_reserve == nullptr) g_reserve = new (std::nothrow) char[kReserve];
}

}  // namespace neffbar::cli
