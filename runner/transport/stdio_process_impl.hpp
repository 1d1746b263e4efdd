// Internal to the stdio transport: the state behind StdioProcess, shared by
// stdio_process.cpp (spawn and I/O) and stdio_lifecycle.cpp (exit, shutdown).
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "runner/transport/process_launch.hpp"
#include "runner/transport/stdio_process.hpp"

namespace a2a::transport {

// Locking: write_mu guards stdin_fd, read_mu guards stdout_fd and
// stdout_eof, state_mu guards status/reaped, life_mu serialises
// shutdown/kill_now/destruction, err_mu guards the stderr head. Never hold
// state_mu while taking another of them.
struct StdioProcess::Impl {
  explicit Impl(const SpawnOptions& opts);
  ~Impl();  // closes the pipes and stops the stderr drain (bounded)

  int pid = -1;
  detail::Fd stdin_fd;
  detail::Fd stdout_fd;
  detail::Fd stderr_fd;
  detail::Fd pidfd;    // -1 when pidfd_open is unavailable; waits then poll by sleeping
  detail::Fd stop_fd;  // eventfd that wakes the stderr drain thread for good
  Transcript transcript;
  size_t stderr_keep;
  bool drain_stderr_pipe = true;

  std::mutex write_mu;
  std::atomic<bool> stdin_is_closed{false};

  std::mutex read_mu;
  bool stdout_eof = false;

  mutable std::mutex err_mu;
  std::condition_variable err_cv;
  std::string err_head;
  std::atomic<size_t> err_total{0};
  bool err_done = false;  // the drain thread has finished
  std::thread drain;

  std::mutex state_mu;
  std::optional<ExitStatus> status;  // set once the exit is observed
  bool reaped = false;

  std::mutex life_mu;

  void drain_stderr();
  bool wait_stderr_done(core::Deadline deadline);
  void close_stdin();
  // One non-blocking read of stdout into the transcript; false at EOF or when
  // another thread owns the reader.
  bool drain_stdout_once(size_t& drained);

  // Observes the exit without reaping (waitid WNOWAIT): the zombie keeps the
  // pid and the process-group id reserved, so signalling the group later can
  // never hit a recycled id. Caller holds state_mu.
  std::optional<ExitStatus> observe_exit_locked();
  std::optional<ExitStatus> wait_exit(core::Deadline deadline, bool drain_stdout);
  void signal_group(int sig, const std::string& why);
  // SIGKILLs what is left of the group (grandchildren holding our pipes)
  // while the zombie still pins the group id, then reaps the child.
  void reap_and_clean_group();
  ExitStatus finish(const std::optional<ExitStatus>& seen);
};

}  // namespace a2a::transport
