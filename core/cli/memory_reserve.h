// Memory kept back for the moment the allocator first refuses.  While a MemoryReserve
// lives, the new-handler frees the reserve and throws std::bad_alloc: what runs while
// that exception unwinds (nlohmann::json's destructor allocates a stack for nested
// values; out of memory there it would terminate) has room, and the command's one error
// line is reached.  A search that catches the refusal and goes on (the explicit
// search's out-of-memory verdict) has used the reserve up: rearm() takes it back once
// that memory is free again (after each scenario).  One at a time in a process.
#pragma once

#include <new>

namespace neffbar::cli {

class MemoryReserve {
 public:
  MemoryReserve();
  ~MemoryReserve();
  MemoryReserve(const MemoryReserve&) = delete;
  MemoryReserve& operator=(const MemoryReserve&) = delete;

  // The reserve again, if it was used and the allocator now has it; no-op without a
  // live MemoryReserve.
  static void rearm() noexcept;

 private:
  std::new_handler before_ = nullptr;
};

}  // namespace neffbar::cli
