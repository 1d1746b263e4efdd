// Exit, shutdown escalation, process groups and reaping, against real
// /bin/sh and coreutils children (stdio-binding.md §8.5 L1, L2, L10).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <filesystem>
#include <thread>

#include "runner/transport/stdio_process.hpp"
#include "runner/transport/transport_test_util.hpp"

using namespace a2a::transport;
using namespace a2a::transport::testing;

namespace {

std::unique_ptr<StdioProcess> must_spawn(const SpawnOptions& o) {
  auto p = StdioProcess::spawn(o);
  if (!p.ok()) ADD_FAILURE() << p.error().str();
  return p.ok() ? std::move(*p) : nullptr;
}

bool has_note(const StdioProcess& p, const std::string& prefix) {
  for (const auto& e : p.transcript().entries()) {
    if (e.dir == Direction::kNote && e.bytes.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// Reads the first line (a pid printed by the child).
int read_pid_line(StdioProcess& p) {
  std::string line = read_until(p, "\n", Deadline::after(Millis(5000)));
  return line.empty() ? -1 : std::atoi(line.c_str());
}

}  // namespace

TEST(StdioLifecycle, ShutdownEscalatesToSigkillWhenTermIsIgnored) {
  auto p = must_spawn(sh("trap '' TERM; echo ready; sleep 60"));
  ASSERT_TRUE(p);
  ASSERT_EQ(read_until(*p, "\n", Deadline::after(Millis(5000))), "ready\n");
  auto t0 = std::chrono::steady_clock::now();
  auto st = p->shutdown(Millis(200), Millis(300));
  auto took = elapsed_ms(t0);
  EXPECT_EQ(st.str(), "signal 9 (SIGKILL)");
  EXPECT_GE(took, 480);
  EXPECT_LT(took, 200 + 300 + 1500);
  std::string group = " to group " + std::to_string(p->pid());
  EXPECT_TRUE(has_note(*p, "sent SIGTERM" + group));
  EXPECT_TRUE(has_note(*p, "sent SIGKILL" + group));
  EXPECT_TRUE(has_note(*p, "signal 9 (SIGKILL)"));
}

TEST(StdioLifecycle, ShutdownOfAWellBehavedChildNeedsNoSignal) {
  auto p = must_spawn(sh("cat >/dev/null; exit 7"));
  ASSERT_TRUE(p);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(p->shutdown(Millis(5000), Millis(2000)).str(), "exit 7");
  EXPECT_LT(elapsed_ms(t0), 2000);
  EXPECT_FALSE(has_note(*p, "sent SIG"));
  // Repeated shutdown is harmless and reports the same status.
  EXPECT_EQ(p->shutdown().str(), "exit 7");
  EXPECT_EQ(p->kill_now().str(), "exit 7");
}

TEST(StdioLifecycle, ShutdownLeavesNoGrandchildBehind) {
  auto p = must_spawn(sh("sleep 60 & echo $!; wait"));
  ASSERT_TRUE(p);
  int grandchild = read_pid_line(*p);
  ASSERT_GT(grandchild, 1);
  EXPECT_FALSE(process_gone(grandchild));
  auto st = p->shutdown(Millis(200), Millis(2000));
  EXPECT_EQ(st.str(), "signal 15 (SIGTERM)");
  EXPECT_TRUE(wait_gone(grandchild, Deadline::after(Millis(3000))));
}

TEST(StdioLifecycle, ShutdownKillsGrandchildrenOfAnExitedChild) {
  // The child exits at once; its grandchild keeps stdout and stderr open.
  auto p = must_spawn(sh("sleep 60 & echo $!"));
  ASSERT_TRUE(p);
  int grandchild = read_pid_line(*p);
  ASSERT_GT(grandchild, 1);
  auto exited = p->wait_exit(Deadline::after(Millis(5000)));
  ASSERT_TRUE(exited.has_value());
  EXPECT_EQ(exited->str(), "exit 0");
  EXPECT_EQ(p->read_some(Deadline::after(Millis(100))).status, ReadResult::Status::kTimeout);
  EXPECT_EQ(p->shutdown(Millis(200), Millis(200)).str(), "exit 0");
  EXPECT_TRUE(wait_gone(grandchild, Deadline::after(Millis(3000))));
  // With the grandchild gone, stdout finally ends.
  EXPECT_EQ(p->read_some(Deadline::after(Millis(3000))).status, ReadResult::Status::kEof);
}

TEST(StdioLifecycle, KillNowReportsSigkillAndReaps) {
  auto p = must_spawn(sh("exec sleep 60"));
  ASSERT_TRUE(p);
  int pid = p->pid();
  EXPECT_FALSE(p->poll_exit().has_value());
  EXPECT_EQ(p->kill_now().str(), "signal 9 (SIGKILL)");
  EXPECT_EQ(p->poll_exit()->str(), "signal 9 (SIGKILL)");
  EXPECT_EQ(::waitpid(pid, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

TEST(StdioLifecycle, WaitExitGivesUpAtTheDeadline) {
  auto p = must_spawn(sh("exec sleep 60"));
  ASSERT_TRUE(p);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(p->wait_exit(Deadline::after(Millis(150))).has_value());
  auto took = elapsed_ms(t0);
  EXPECT_GE(took, 140);
  EXPECT_LT(took, 1000);
}

TEST(StdioLifecycle, DestructorStopsARunningChildAndReapsIt) {
  int pid = -1;
  auto t0 = std::chrono::steady_clock::now();
  {
    auto p = must_spawn(sh("exec sleep 60"));
    ASSERT_TRUE(p);
    pid = p->pid();
  }
  EXPECT_LT(elapsed_ms(t0), 2000);
  EXPECT_EQ(::kill(pid, 0), -1);  // reaped by us: not even a zombie
  EXPECT_EQ(errno, ESRCH);
}

namespace {

size_t open_fd_count() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

}  // namespace

TEST(StdioLifecycle, ManySpawnShutdownCyclesLeaveNoZombiesNorFds) {
  size_t fds_before = open_fd_count();
  std::vector<int> pids;
  for (int i = 0; i < 50; ++i) {
    SpawnOptions o;
    o.argv = {"cat"};
    auto p = must_spawn(o);
    ASSERT_TRUE(p);
    pids.push_back(p->pid());
    ASSERT_EQ(p->shutdown(Millis(2000), Millis(1000)).str(), "exit 0");
  }
  for (int pid : pids) {
    EXPECT_EQ(::waitpid(pid, nullptr, WNOHANG), -1) << pid;
    EXPECT_EQ(errno, ECHILD) << pid;
  }
  int any = ::waitpid(-1, nullptr, WNOHANG);
  EXPECT_TRUE(any == 0 || (any == -1 && errno == ECHILD)) << "reaped a stray child " << any;
  EXPECT_EQ(open_fd_count(), fds_before);
}

TEST(StdioLifecycle, ConcurrentSpawnsDoNotHoldEachOthersPipes) {
  // If one child inherited another's stdin write end, that cat would never
  // see EOF and shutdown would have to signal it.
  std::vector<std::thread> threads;
  std::vector<std::string> statuses(8);
  for (size_t t = 0; t < 4; ++t) {
    threads.emplace_back([t, &statuses] {
      std::vector<std::unique_ptr<StdioProcess>> mine;
      for (int i = 0; i < 2; ++i) {
        SpawnOptions o;
        o.argv = {"cat"};
        auto p = StdioProcess::spawn(o);
        if (p.ok()) mine.push_back(std::move(*p));
      }
      for (size_t i = 0; i < mine.size(); ++i) {
        statuses[t * 2 + i] = mine[i]->shutdown(Millis(3000), Millis(1000)).str();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& s : statuses) EXPECT_EQ(s, "exit 0");
}

TEST(StdioLifecycle, ShutdownIsBoundedWhenAnEscapedProcessHoldsStderr) {
  if (::access("/usr/bin/setsid", X_OK) != 0) GTEST_SKIP() << "needs setsid(1)";
  // setsid leaves the process group, so the group kill cannot reach it.
  auto p = must_spawn(sh("setsid sleep 3 & sleep 0.3; exit 0"));
  ASSERT_TRUE(p);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(p->shutdown(Millis(2000), Millis(200)).str(), "exit 0");
  EXPECT_TRUE(has_note(*p, "stderr still open after exit"));
  p.reset();
  EXPECT_LT(elapsed_ms(t0), 2500);
}
