// exit.h's out-of-memory line, in process: once a command, and straight to descriptor 2
// when std::cerr cannot take it (its buffer could not grow).  Written without allocating
// when the allocator refuses the escaped text: the sweep in model_cmds_budget_test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <streambuf>
#include <string>

#include "exit.h"

namespace neffbar::cli {
namespace {

// A stream buffer that takes nothing, as a string buffer does when it cannot grow.
class Refusing : public std::streambuf {
 protected:
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

// What `write` sends to descriptor 2 while std::cerr refuses everything.
template <class Write>
std::string descriptor_2_of(Write write) {
  char path[] = "/tmp/neffbar_exit_line_XXXXXX";
  const int fd = ::mkstemp(path);
  EXPECT_GE(fd, 0);
  const int saved = ::dup(2);
  ::dup2(fd, 2);
  Refusing refusing;
  std::streambuf* before = std::cerr.rdbuf(&refusing);
  write();
  std::cerr.rdbuf(before);
  std::cerr.clear();
  ::dup2(saved, 2);
  ::close(saved);
  ::close(fd);
  std::ifstream in(path, std::ios::binary);
  std::stringstream got;
  got << in.rdbuf();
  ::unlink(path);
  return got.str();
}

TEST(OutOfMemoryLine, GoesToDescriptor2WholeWhenCerrRefuses) {
  // Long, with bytes that are not printable ASCII: escaped as every error line is.
  const std::string name = std::string(300, 'c') + "\n\x1b" + "d\xc3\xa9";
  const std::string got = descriptor_2_of([&] {
    forget_error_lines();
    errno = EINTR;  // left over from before: only a write that failed says EINTR
    out_of_memory_line(name);
  });
  EXPECT_EQ(got, "neffbar: " + std::string(300, 'c') + "\\n\\x1Bd\xc3\xa9: " + std::string(kOutOfMemory) + "\n");
}

TEST(OutOfMemoryLine, OneLineACommand) {
  const std::string got = descriptor_2_of([] {
    forget_error_lines();
    out_of_memory_line("first");
    out_of_memory_line("second");  // the command's one line is written already
    forget_error_lines();          // the next command
    out_of_memory_line("third");
  });
  EXPECT_EQ(got, "neffbar: first: " + std::string(kOutOfMemory) + "\nneffbar: third: " + std::string(kOutOfMemory) + "\n");
}

TEST(OutOfMemoryLine, NothingAfterTheCommandsOwnErrorLine) {
  std::ostringstream captured;
  std::streambuf* before = std::cerr.rdbuf(captured.rdbuf());
  forget_error_lines();
  error_line("cmd", "its own reason");
  out_of_memory_line("cmd");
  std::cerr.rdbuf(before);
  EXPECT_EQ(captured.str(), "neffbar: cmd: its own reason\n");
}

TEST(OutOfMemoryLine, WithoutANameHasNoSeparator) {
  const std::string got = descriptor_2_of([] {
    forget_error_lines();
    out_of_memory_line("");
  });
  EXPECT_EQ(got, "neffbar: " + std::string(kOutOfMemory) + "\n");
}

}  // namespace
}  // namespace neffbar::cli
