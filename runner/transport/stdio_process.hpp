// A spawned peer with pipes on stdin/stdout and a continuously drained
// stderr (stdio-binding.md §8.5). All reads and writes take a deadline;
// failures are values, never exceptions or signals (SIGPIPE is ignored
// process-wide by spawn()). Shutdown closes stdin, waits, then signals the
// child's whole process group (TERM, then KILL) and reaps it: no zombies,
// no orphaned grandchildren.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::transport {

struct SpawnOptions {
  std::vector<std::string> argv;               // argv[0] is resolved through PATH if it has no '/'
  std::map<std::string, std::string> env_set;  // added to / overriding the inherited environment
  std::vector<std::string> env_unset;          // removed from the inherited environment
  bool inherit_env = true;
  std::string cwd;                             // empty = ours
  size_t stderr_keep_bytes = 256 * 1024;       // stderr kept (head); the rest is drained and counted
  bool drain_stderr = true;                    // false: the pipe is never read (a fault of a2a-ref-client)
  size_t transcript_max_bytes = 4 * 1024 * 1024;
};

struct ExitStatus {
  bool exited = false;     // normal exit
  int code = -1;           // when exited
  bool signaled = false;
  int signal = 0;          // when signaled
  long max_rss_kib = -1;   // the child's peak resident set (wait4) once reaped; -1 unknown
  std::string str() const; // "exit 0", "signal 9 (SIGKILL)"
};

struct ReadResult {
  enum class Status { kData, kEof, kTimeout, kError };
  Status status = Status::kData;
  std::string data;        // kData: at least one byte
  std::string error;       // kError: what failed
};

class StdioProcess {
 public:
  // Splits a command line the way a POSIX shell would for words and quotes
  // ('...', "...", backslash), without expansion. Error on an unclosed quote.
  static core::Expected<std::vector<std::string>> split_command(std::string_view cmd);
  // The inverse, for display and replay commands: words quoted so that
  // split_command (and sh) give back the same argv.
  static std::string join_command(const std::vector<std::string>& argv);

  // Starts the child in a new process group. kSpawn error when the program
  // cannot be found or executed (checked before fork so the message is precise).
  static core::Expected<std::unique_ptr<StdioProcess>> spawn(const SpawnOptions& opts);

  ~StdioProcess();  // shutdown with short grace periods if still running
  StdioProcess(const StdioProcess&) = delete;
  StdioProcess& operator=(const StdioProcess&) = delete;

  int pid() const;

  // Writes all bytes or fails: kTimeout when the child does not read in time
  // (pipe full), kBrokenPipe when it closed stdin / exited, kIo otherwise.
  core::Expected<void> write(std::string_view bytes, core::Deadline deadline);
  // Reads what is available (up to max_bytes), waiting until the deadline.
  ReadResult read_some(core::Deadline deadline, size_t max_bytes = 64 * 1024);
  void close_stdin();
  bool stdin_closed() const;

  // Non-blocking check; caches the status once the exit is observed (the
  // zombie is left for shutdown/kill_now/destructor to reap).
  std::optional<ExitStatus> poll_exit();
  // Waits until the child exits or the deadline passes (nullopt then).
  std::optional<ExitStatus> wait_exit(core::Deadline deadline);

  // close stdin -> wait `grace` -> SIGTERM group -> wait `term_grace` -> SIGKILL group -> reap.
  // Also kills the group if the child exited but left grandchildren holding the pipes.
  // While waiting it keeps reading stdout (into the transcript only) so a peer
  // blocked on a full stdout pipe can still exit; then it waits briefly for
  // stderr to end, so stderr_text() is complete afterwards. Idempotent.
  // poll_exit/wait_exit only observe the exit; reaping happens here, in
  // kill_now or in the destructor, so the group id cannot be recycled first.
  ExitStatus shutdown(core::Millis grace = core::Millis(5000),
                      core::Millis term_grace = core::Millis(2000));
  // Immediate SIGKILL of the whole group and reap.
  ExitStatus kill_now();

  std::string stderr_text() const;   // kept head of stderr
  size_t stderr_total_bytes() const; // all bytes drained
  Transcript& transcript();
  const Transcript& transcript() const;

 private:
  struct Impl;
  explicit StdioProcess(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace a2a::transport
