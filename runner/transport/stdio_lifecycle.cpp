// How a stdio peer ends (stdio-binding.md §8.5 L1, L2, L10): exit
// observation, the close-stdin / SIGTERM / SIGKILL escalation on its whole
// process group, and reaping. Every wait is bounded by a deadline.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>

#include "runner/core/interrupt.hpp"
#include "runner/transport/stdio_process.hpp"
#include "runner/transport/stdio_process_impl.hpp"

namespace a2a::transport {

namespace {

// A SIGKILLed process dies at once unless stuck in the kernel; past this we
// report the status as unknown rather than wait forever.
constexpr core::Millis kKillBound{5000};
constexpr core::Millis kStderrSettle{500};
// Without a pidfd, exits are noticed by polling this often.
constexpr int kPollSliceMs = 10;
// With a pidfd, still wake up now and then (e.g. if someone else reaped).
constexpr int kMaxSliceMs = 200;

ExitStatus from_siginfo(const siginfo_t& si) {
  ExitStatus st;
  if (si.si_code == CLD_EXITED) {
    st.exited = true;
    st.code = si.si_status;
  } else if (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED) {
    st.signaled = true;
    st.signal = si.si_status;
  }
  return st;
}

std::string ms(core::Millis d) { return std::to_string(d.count()) + " ms"; }

}  // namespace

std::optional<ExitStatus> StdioProcess::Impl::observe_exit_locked() {
  if (status) return status;
  siginfo_t si;
  ::memset(&si, 0, sizeof si);
  int r;
  do {
    r = ::waitid(P_PID, static_cast<id_t>(pid), &si, WEXITED | WNOHANG | WNOWAIT);
  } while (r == -1 && errno == EINTR);
  if (r == -1) {
    // ECHILD: someone else in this process reaped our child (a stray
    // waitpid(-1)). The pid is no longer ours to signal.
    status = ExitStatus{};
    reaped = true;
    core::untrack_process_group(pid);
    transcript.note("exit status lost: " + std::string(::strerror(errno)));
    return status;
  }
  if (si.si_pid == 0) return std::nullopt;
  status = from_siginfo(si);
  transcript.note(status->str());
  return status;
}

std::optional<ExitStatus> StdioProcess::Impl::wait_exit(core::Deadline deadline,
                                                         bool drain_stdout) {
  size_t drained = 0;
  bool stdout_open = drain_stdout;
  std::optional<ExitStatus> seen;
  for (;;) {
    {
      std::lock_guard lock(state_mu);
      seen = observe_exit_locked();
    }
    if (seen || deadline.expired()) break;
    int slice = deadline.poll_timeout_ms();
    int cap = pidfd.get() >= 0 ? kMaxSliceMs : kPollSliceMs;
    slice = slice < 0 ? cap : std::min(slice, cap);
    pollfd fds[2];
    nfds_t n = 0;
    if (pidfd.get() >= 0) fds[n++] = {pidfd.get(), POLLIN, 0};
    if (stdout_open) fds[n++] = {stdout_fd.get(), POLLIN, 0};
    int r = ::poll(fds, n, slice);
    // Reading stdout while waiting keeps a peer that is blocked on a full
    // stdout pipe from missing its chance to exit (MCP SDK practice).
    if (r > 0 && stdout_open && fds[n - 1].revents != 0) {
      stdout_open = drain_stdout_once(drained);
    }
  }
  if (drained > 0) {
    transcript.note("read " + std::to_string(drained) +
                    " bytes of stdout while waiting for exit (not delivered to any reader)");
  }
  return seen;
}

void StdioProcess::Impl::signal_group(int sig, const std::string& why) {
  {
    std::lock_guard lock(state_mu);
    if (reaped) return;
  }
  std::string name = std::string("SIG") + (::sigabbrev_np(sig) ? ::sigabbrev_np(sig) : "?");
  if (::kill(-pid, sig) == 0) {
    transcript.note("sent " + name + " to group " + std::to_string(pid) + " (" + why + ")");
  } else if (::kill(pid, sig) == 0) {  // no group (cannot happen after setpgid, kept as a net)
    transcript.note("sent " + name + " to pid " + std::to_string(pid) + " (" + why + ")");
  }
}

void StdioProcess::Impl::reap_and_clean_group() {
  std::lock_guard lock(state_mu);
  if (reaped) return;
  // The child is a zombie here, so group `pid` cannot be a recycled id.
  ::kill(-pid, SIGKILL);
  // Before the reap: once the id can be recycled, nobody signals it.
  core::untrack_process_group(pid);
  int st = 0;
  struct rusage ru{};
  int r;
  do {
    r = ::wait4(pid, &st, WNOHANG, &ru);
  } while (r == -1 && errno == EINTR);
  if (r == pid && status) status->max_rss_kib = ru.ru_maxrss;
  if (r == pid || r == -1) reaped = true;
}

ExitStatus StdioProcess::Impl::finish(const std::optional<ExitStatus>& seen) {
  if (!seen) {
    transcript.note("pid " + std::to_string(pid) + " still alive " + ms(kKillBound) +
                    " after SIGKILL; giving up on it");
    return ExitStatus{};
  }
  reap_and_clean_group();
  if (drain.joinable() && !wait_stderr_done(core::Deadline::after(kStderrSettle))) {
    transcript.note("stderr still open after exit: held by a process outside the group");
  }
  std::lock_guard lock(state_mu);
  return status.value_or(*seen);  // with the peak RSS the reap measured
}

std::optional<ExitStatus> StdioProcess::poll_exit() {
  std::lock_guard lock(impl_->state_mu);
  return impl_->observe_exit_locked();
}

std::optional<ExitStatus> StdioProcess::wait_exit(core::Deadline deadline) {
  return impl_->wait_exit(deadline, /*drain_stdout=*/false);
}

ExitStatus StdioProcess::shutdown(core::Millis grace, core::Millis term_grace) {
  Impl& m = *impl_;
  std::lock_guard life(m.life_mu);
  {
    std::lock_guard lock(m.state_mu);
    if (m.reaped) return m.status.value_or(ExitStatus{});
  }
  m.close_stdin();
  auto seen = m.wait_exit(core::Deadline::after(grace), true);
  if (!seen) {
    m.signal_group(SIGTERM, "no exit " + ms(grace) + " after stdin EOF");
    seen = m.wait_exit(core::Deadline::after(term_grace), true);
  }
  if (!seen) {
    m.signal_group(SIGKILL, "no exit " + ms(term_grace) + " after SIGTERM");
    seen = m.wait_exit(core::Deadline::after(kKillBound), true);
  }
  return m.finish(seen);
}

ExitStatus StdioProcess::kill_now() {
  Impl& m = *impl_;
  std::lock_guard life(m.life_mu);
  {
    std::lock_guard lock(m.state_mu);
    if (m.reaped) return m.status.value_or(ExitStatus{});
  }
  bool running;
  {
    std::lock_guard lock(m.state_mu);
    running = !m.observe_exit_locked();
  }
  if (running) m.signal_group(SIGKILL, "kill requested");
  m.close_stdin();
  return m.finish(m.wait_exit(core::Deadline::after(kKillBound), true));
}

}  // namespace a2a::transport
