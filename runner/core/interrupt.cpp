#include "runner/core/interrupt.hpp"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <dirent.h>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace a2a::core {

namespace {

struct State {
  std::mutex mu;
  std::condition_variable hooks_idle;
  std::set<int> groups;
  std::map<int, std::function<void()>> hooks;
  int next_hook = 1;
  int running_hook = 0;  // id of the hook the signal thread runs now
  int scopes = 0;
  std::atomic<int> sig{0};
  bool installed = false;
  Millis grace{2000};
};

// Never destroyed: the signal thread uses it until the process ends.
State& state() {
  static State* s = new State;
  return *s;
}

void say(const std::string& text) {
  // The signal thread writes past any stream buffering; a short write is fine.
  ssize_t r = ::write(2, text.data(), text.size());
  (void)r;
}

// Direct children of this process (every thread's): the agents, and with
// the subreaper flag the orphans of their descendants.
std::set<int> children() {
  std::set<int> out;
  DIR* d = ::opendir("/proc/self/task");
  if (!d) return out;
  int tasks = 0;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.' || ++tasks > 4096) continue;
    std::ifstream f(std::string("/proc/self/task/") + e->d_name + "/children");
    int pid = 0;
    for (int n = 0; n < 65536 && (f >> pid); ++n) out.insert(pid);
  }
  ::closedir(d);
  return out;
}

bool is_zombie(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(f, line);
  auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}

// SIGKILL to every tracked group, then to every child this process has
// left, with its group, until none is alive: a descendant that left its
// agent's group (setsid) comes back to us as an orphan once its parent dies
// (PR_SET_CHILD_SUBREAPER), so the scan repeats. Bounded: 50 rounds, 10 ms
// apart. Under s.mu.
void kill_all_locked(State& s) {
  for (int g : s.groups) ::kill(-g, SIGKILL);
  for (int round = 0; round < 50; ++round) {
    bool alive = false;
    for (int pid : children()) {
      if (is_zombie(pid)) continue;
      alive = true;
      if (::kill(-pid, SIGKILL) != 0) ::kill(pid, SIGKILL);
    }
    if (!alive && round > 0) return;
    ::usleep(10000);
  }
}

// Kills everything this process started and exits 128 + sig at once; a
// report another thread is writing meanwhile appears whole or not at all
// (reports::write_text_file).
[[noreturn]] void kill_all_and_exit(int sig, const std::string& message) {
  auto& s = state();
  {
    std::lock_guard lk(s.mu);
    kill_all_locked(s);
  }
  if (!message.empty()) say(message);
  ::_exit(128 + sig);
}

[[noreturn]] void exit_now(int sig) {
  kill_all_and_exit(sig, "a2a-conform: " + signal_name(sig) + " again: the agents were killed; exiting at once\n");
}

int wait_signal(const sigset_t& set, const timespec* timeout) {
  for (;;) {
    siginfo_t si;
    int sig = timeout ? ::sigtimedwait(&set, &si, timeout) : ::sigwaitinfo(&set, &si);
    if (sig > 0) return sig;
    if (errno == EAGAIN) return 0;  // the timeout
    if (errno != EINTR) return -1;
  }
}

void run_hooks(State& s) {
  std::unique_lock lk(s.mu);
  std::set<int> done;
  for (;;) {
    auto it = s.hooks.begin();
    while (it != s.hooks.end() && done.count(it->first)) ++it;
    if (it == s.hooks.end()) break;
    int id = it->first;
    auto fn = it->second;
    done.insert(id);
    s.running_hook = id;
    lk.unlock();
    fn();
    lk.lock();
    s.running_hook = 0;
    s.hooks_idle.notify_all();
  }
}

void signal_loop(sigset_t set) {
  auto& s = state();
  int sig = wait_signal(set, nullptr);
  if (sig <= 0) return;
  bool graceful;
  {
    std::lock_guard lk(s.mu);
    graceful = s.scopes > 0;
    if (graceful) {
      s.sig.store(sig);
      for (int g : s.groups) ::kill(-g, SIGTERM);
    }
  }
  if (!graceful) kill_all_and_exit(sig, "");
  say("\na2a-conform: " + signal_name(sig) + ": stopping; no new scenario starts, the agents get SIGTERM, the "
      "reports are written with the results so far. A second signal exits at once.\n");
  run_hooks(s);
  auto ms = s.grace.count();
  timespec grace{static_cast<time_t>(ms / 1000), static_cast<long>(ms % 1000) * 1000000L};
  int again = wait_signal(set, &grace);
  if (again > 0) exit_now(again);
  {
    std::lock_guard lk(s.mu);
    kill_all_locked(s);
  }
  again = wait_signal(set, nullptr);
  if (again > 0) exit_now(again);
}

}  // namespace

void install_interrupt_handling(Millis grace) {
  auto& s = state();
  {
    std::lock_guard lk(s.mu);
    if (s.installed) return;
    s.installed = true;
    s.grace = grace;
  }
  // Orphaned descendants of the agents (a wrapper's setsid child) come back
  // to us instead of to init, so the teardown can reach them.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  sigset_t set;
  ::sigemptyset(&set);
  ::sigaddset(&set, SIGINT);
  ::sigaddset(&set, SIGTERM);
  ::sigaddset(&set, SIGHUP);
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(signal_loop, set).detach();
}

int interrupt_signal() { return state().sig.load(); }

std::string signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "signal " + std::to_string(sig);
  }
}

InterruptScope::InterruptScope() {
  std::lock_guard lk(state().mu);
  ++state().scopes;
}

InterruptScope::~InterruptScope() {
  std::lock_guard lk(state().mu);
  --state().scopes;
}

InterruptHook::InterruptHook(std::function<void()> fn) {
  auto& s = state();
  {
    std::lock_guard lk(s.mu);
    if (s.sig.load() == 0) {
      id_ = s.next_hook++;
      s.hooks.emplace(id_, std::move(fn));
      return;
    }
  }
  fn();  // already interrupted
}

InterruptHook::~InterruptHook() {
  if (id_ == 0) return;
  auto& s = state();
  std::unique_lock lk(s.mu);
  s.hooks.erase(id_);
  s.hooks_idle.wait(lk, [&] { return s.running_hook != id_; });
}

void track_process_group(int pgid) {
  auto& s = state();
  std::lock_guard lk(s.mu);
  s.groups.insert(pgid);
  if (s.sig.load() != 0) ::kill(-pgid, SIGTERM);
}

void untrack_process_group(int pgid) {
  auto& s = state();
  std::lock_guard lk(s.mu);
  s.groups.erase(pgid);
}

}  // namespace a2a::core
