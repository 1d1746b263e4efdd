// Spawning and the byte streams of a stdio peer: deadline-bounded writes to
// its stdin, reads from its stdout, and a thread that drains its stderr so
// the peer can never block on a full stderr pipe.
#include "runner/transport/stdio_process.hpp"

#include "runner/core/interrupt.hpp"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>

#include "runner/transport/stdio_process_impl.hpp"

namespace a2a::transport {

namespace {

using core::ErrorKind;

constexpr size_t kChunk = 64 * 1024;
constexpr size_t kMaxRead = 4 * 1024 * 1024;  // one read_some never allocates more
// After the child is gone its stderr reaches EOF almost at once, unless a
// process outside its group holds the pipe; then the drain is cut off.
constexpr core::Millis kProcessStderrSettle{200};

std::string os_error_text(int err) { return ::strerror(err); }

void ignore_sigpipe_once() {
  // A write to a peer that has exited must surface as EPIPE, not kill us.
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

int open_pidfd(int pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  return -1;
#endif
}

}  // namespace

StdioProcess::Impl::Impl(const SpawnOptions& opts)
    : transcript(opts.transcript_max_bytes), stderr_keep(opts.stderr_keep_bytes),
      drain_stderr_pipe(opts.drain_stderr) {}

StdioProcess::Impl::~Impl() {
  stdin_fd.reset();
  stdout_fd.reset();
  if (drain.joinable()) {
    wait_stderr_done(core::Deadline::after(kProcessStderrSettle));
    uint64_t one = 1;
    if (stop_fd.get() >= 0) (void)!::write(stop_fd.get(), &one, sizeof one);
    drain.join();
  }
}

void StdioProcess::Impl::drain_stderr() {
  char buf[kChunk];
  for (;;) {
    // Not draining: only the stop signal is watched (poll skips a negative fd).
    pollfd fds[2] = {{drain_stderr_pipe ? stderr_fd.get() : -1, POLLIN, 0}, {stop_fd.get(), POLLIN, 0}};
    // No timeout needed: ~Impl always signals stop_fd before joining.
    int r = ::poll(fds, 2, -1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 || fds[1].revents != 0) break;
    ssize_t n = ::read(stderr_fd.get(), buf, sizeof buf);
    if (n > 0) {
      std::string_view chunk(buf, static_cast<size_t>(n));
      {
        std::lock_guard lock(err_mu);
        if (err_head.size() < stderr_keep) {
          err_head.append(chunk.substr(0, stderr_keep - err_head.size()));
        }
      }
      err_total += chunk.size();
      transcript.add(Direction::kStderr, chunk);
      continue;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    break;  // EOF, or an error we cannot do anything about
  }
  std::lock_guard lock(err_mu);
  err_done = true;
  err_cv.notify_all();
}

bool StdioProcess::Impl::wait_stderr_done(core::Deadline deadline) {
  std::unique_lock lock(err_mu);
  return err_cv.wait_until(lock, deadline.time(), [&] { return err_done; });
}

void StdioProcess::Impl::close_stdin() {
  std::lock_guard lock(write_mu);
  if (stdin_is_closed) return;
  stdin_fd.reset();
  stdin_is_closed = true;
  transcript.note("closed stdin");
}

bool StdioProcess::Impl::drain_stdout_once(size_t& drained) {
  std::unique_lock lock(read_mu, std::try_to_lock);
  if (!lock.owns_lock() || stdout_eof) return false;
  char buf[kChunk];
  ssize_t n = ::read(stdout_fd.get(), buf, sizeof buf);
  if (n > 0) {
    transcript.add(Direction::kFromPeer, std::string_view(buf, static_cast<size_t>(n)));
    drained += static_cast<size_t>(n);
    return true;
  }
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  stdout_eof = true;
  transcript.note(n == 0 ? "stdout EOF" : "stdout read failed: " + os_error_text(errno));
  return false;
}

StdioProcess::StdioProcess(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StdioProcess::~StdioProcess() {
  if (!impl_) return;
  bool reaped;
  {
    std::lock_guard lock(impl_->state_mu);
    reaped = impl_->reaped;
  }
  if (!reaped) shutdown(core::Millis(100), core::Millis(100));
}

core::Expected<std::unique_ptr<StdioProcess>> StdioProcess::spawn(const SpawnOptions& opts) {
  ignore_sigpipe_once();
  auto exe = detail::resolve_program(opts);
  if (!exe) return core::fail(exe.error());
  if (!opts.cwd.empty() && ::access(opts.cwd.c_str(), X_OK) != 0) {
    return core::fail(ErrorKind::kSpawn,
                      "working directory '" + opts.cwd + "' is not usable: " + os_error_text(errno));
  }
  auto in = detail::make_pipe();
  if (!in) return core::fail(in.error());
  auto out = detail::make_pipe();
  if (!out) return core::fail(out.error());
  auto err = detail::make_pipe();
  if (!err) return core::fail(err.error());
  int stop = ::eventfd(0, EFD_CLOEXEC);
  if (stop < 0) return core::fail(ErrorKind::kSpawn, "eventfd: " + os_error_text(errno));

  auto impl = std::make_unique<Impl>(opts);
  impl->stop_fd = detail::Fd(stop);
  auto pid = detail::launch(*exe, opts, in->read.get(), out->write.get(), err->write.get());
  if (!pid) return core::fail(pid.error());
  impl->pid = *pid;
  // A signal to the runner ends this group too (runner/core/interrupt.hpp).
  core::track_process_group(*pid);
  impl->stdin_fd = std::move(in->write);
  impl->stdout_fd = std::move(out->read);
  impl->stderr_fd = std::move(err->read);
  // Only the child may hold its ends, so EOF and EPIPE reflect the child alone.
  in->read.reset();
  out->write.reset();
  err->write.reset();
  impl->pidfd = detail::Fd(open_pidfd(*pid));
  impl->transcript.note("spawned pid " + std::to_string(*pid) + ": " + join_command(opts.argv));
  // Owned by a StdioProcess from here on, so any failure below still shuts
  // the child down.
  std::unique_ptr<StdioProcess> proc(new StdioProcess(std::move(impl)));
  Impl& m = *proc->impl_;
  for (int fd : {m.stdin_fd.get(), m.stdout_fd.get(), m.stderr_fd.get()}) {
    auto nb = detail::set_nonblocking(fd);
    if (!nb) return core::fail(ErrorKind::kSpawn, nb.error().message);
  }
  try {
    m.drain = std::thread([&m] { m.drain_stderr(); });
  } catch (const std::system_error& e) {
    return core::fail(ErrorKind::kSpawn, std::string("cannot start the stderr thread: ") + e.what());
  }
  return proc;
}

int StdioProcess::pid() const { return impl_->pid; }

core::Expected<void> StdioProcess::write(std::string_view bytes, core::Deadline deadline) {
  Impl& m = *impl_;
  std::lock_guard lock(m.write_mu);
  if (m.stdin_is_closed) return core::fail(ErrorKind::kBrokenPipe, "stdin is already closed");
  size_t done = 0;
  auto progress = [&] { return std::to_string(done) + " of " + std::to_string(bytes.size()) + " bytes"; };
  while (done < bytes.size()) {
    ssize_t n = ::write(m.stdin_fd.get(), bytes.data() + done, bytes.size() - done);
    if (n > 0) {
      // Recorded per chunk so the transcript shows what really went out,
      // interleaved correctly with replies read meanwhile.
      m.transcript.add(Direction::kToPeer, bytes.substr(done, static_cast<size_t>(n)));
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EPIPE) {
      m.transcript.note("write failed: peer closed stdin (EPIPE) after " + progress());
      return core::fail(ErrorKind::kBrokenPipe,
                        "peer closed its stdin (EPIPE) after " + progress() + " were written");
    }
    if (n < 0 && errno != EAGAIN) {
      return core::fail(ErrorKind::kIo, "write to stdin: " + os_error_text(errno));
    }
    pollfd p{m.stdin_fd.get(), POLLOUT, 0};
    int r = ::poll(&p, 1, deadline.poll_timeout_ms());
    if (r == 0) {
      m.transcript.note("write timed out after " + progress() + " (peer not reading stdin)");
      return core::fail(ErrorKind::kTimeout, "write timed out after " + progress() +
                                                 ": the peer is not reading its stdin");
    }
    if (r < 0 && errno != EINTR) return core::fail(ErrorKind::kIo, "poll stdin: " + os_error_text(errno));
  }
  return {};
}

ReadResult StdioProcess::read_some(core::Deadline deadline, size_t max_bytes) {
  Impl& m = *impl_;
  std::lock_guard lock(m.read_mu);
  ReadResult result;
  if (m.stdout_eof) {
    result.status = ReadResult::Status::kEof;
    return result;
  }
  std::string buf(std::clamp<size_t>(max_bytes, 1, kMaxRead), '\0');
  for (;;) {
    ssize_t n = ::read(m.stdout_fd.get(), buf.data(), buf.size());
    if (n > 0) {
      buf.resize(static_cast<size_t>(n));
      m.transcript.add(Direction::kFromPeer, buf);
      result.data = std::move(buf);
      return result;
    }
    if (n == 0) {
      m.stdout_eof = true;
      m.transcript.note("stdout EOF");
      result.status = ReadResult::Status::kEof;
      return result;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) {
      result.status = ReadResult::Status::kError;
      result.error = "read stdout: " + os_error_text(errno);
      return result;
    }
    pollfd p{m.stdout_fd.get(), POLLIN, 0};
    int r = ::poll(&p, 1, deadline.poll_timeout_ms());
    if (r == 0) {
      result.status = ReadResult::Status::kTimeout;
      return result;
    }
    if (r < 0 && errno != EINTR) {
      result.status = ReadResult::Status::kError;
      result.error = "poll stdout: " + os_error_text(errno);
      return result;
    }
  }
}

void StdioProcess::close_stdin() { impl_->close_stdin(); }

bool StdioProcess::stdin_closed() const { return impl_->stdin_is_closed; }

std::string StdioProcess::stderr_text() const {
  std::lock_guard lock(impl_->err_mu);
  return impl_->err_head;
}

size_t StdioProcess::stderr_total_bytes() const { return impl_->err_total; }

Transcript& StdioProcess::transcript() { return impl_->transcript; }

const Transcript& StdioProcess::transcript() const { return impl_->transcript; }

}  // namespace a2a::transport
