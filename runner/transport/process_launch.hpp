// Internal to the stdio transport: the parts of spawning that happen before
// and during fork/exec (program lookup, environment, pipes, the Boost.Process
// launch). Kept apart so Boost.Process's configuration macros stay in one
// translation unit.
#pragma once

#include <string>
#include <vector>

#include "runner/core/expected.hpp"
#include "runner/transport/stdio_process.hpp"

namespace a2a::transport::detail {

// Owns one file descriptor; closes it on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return fd_; }
  int release() { int fd = fd_; fd_ = -1; return fd; }
  void reset();

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read;
  Fd write;
};

// A close-on-exec pipe whose ends are both >= 3, so dup2 onto the child's
// 0/1/2 can never clobber another of its ends.
core::Expected<Pipe> make_pipe();

core::Expected<void> set_nonblocking(int fd);

// Resolves argv[0]: through PATH when it has no '/', else relative to
// opts.cwd. Returns an absolute path, or a kSpawn error that names the
// program precisely ("program 'foo' not found in PATH").
core::Expected<std::string> resolve_program(const SpawnOptions& opts);

// "KEY=VALUE" strings: inherited (when asked) minus env_unset, plus env_set.
std::vector<std::string> build_environment(const SpawnOptions& opts);

// Forks and execs `exe` with Boost.Process v2: own process group, the given
// fds as stdin/stdout/stderr, SIGPIPE and the signal mask reset to defaults.
// Returns the child's pid; the caller owns reaping it.
core::Expected<int> launch(const std::string& exe, const SpawnOptions& opts, int in_fd,
                           int out_fd, int err_fd);

}  // namespace a2a::transport::detail
