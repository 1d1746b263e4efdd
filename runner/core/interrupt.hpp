// SIGINT, SIGTERM and SIGHUP during a run (docs/runner.md "Interrupted
// runs"). install_interrupt_handling() blocks the three signals in every
// thread and waits for them on a thread of its own, so everything that
// happens on a signal is ordinary code (locks, allocation), not a handler.
//
// While an InterruptScope exists (a run and its report writing), the first
// signal is graceful: interrupt_signal() turns non-zero, the hooks run (the
// engine stops scheduling scenarios), every tracked process group gets
// SIGTERM and, after the grace period, SIGKILL. The run writes its reports,
// marked interrupted, and exits 128 + the signal. A second signal kills every
// tracked group with SIGKILL and exits at once. Outside a scope (loading
// suites, parsing options) the first signal does that too.
#pragma once

#include <functional>
#include <string>

#include "runner/core/deadline.hpp"

namespace a2a::core {

// Call once, first thing in main, before any thread is started (threads
// inherit the blocked mask; children started by transport::StdioProcess
// get the default mask back). A second call does nothing.
void install_interrupt_handling(Millis grace = Millis(2000));

// The first signal received, or 0.
int interrupt_signal();
// "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
std::string signal_name(int sig);

// The first signal is graceful while at least one scope exists.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// Runs `fn` on the signal thread at the first signal (at once, on this
// thread, when the signal came already). Unregistered on destruction, which
// waits for a running `fn` to return: `fn` must not block.
class InterruptHook {
 public:
  explicit InterruptHook(std::function<void()> fn);
  ~InterruptHook();
  InterruptHook(const InterruptHook&) = delete;
  InterruptHook& operator=(const InterruptHook&) = delete;

 private:
  int id_ = 0;
};

// Process groups the run started (an agent and everything it forked). A
// group tracked after the signal gets SIGTERM at once. Untrack before
// reaping the group's leader: a group is never signalled after that.
void track_process_group(int pgid);
void untrack_process_group(int pgid);

}  // namespace a2a::core
