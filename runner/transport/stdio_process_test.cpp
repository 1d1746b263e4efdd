// Spawning and the byte streams, against real /bin/sh and coreutils children.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <thread>

#include "runner/transport/stdio_process.hpp"
#include "runner/transport/transport_test_util.hpp"

using namespace a2a::transport;
using namespace a2a::transport::testing;
using a2a::core::ErrorKind;

namespace {

std::unique_ptr<StdioProcess> must_spawn(const SpawnOptions& o) {
  auto p = StdioProcess::spawn(o);
  if (!p.ok()) ADD_FAILURE() << p.error().str();
  return p.ok() ? std::move(*p) : nullptr;
}

}  // namespace

TEST(StdioProcess, EchoesBytesThroughCat) {
  SpawnOptions o;
  o.argv = {"cat"};  // found through PATH
  auto p = must_spawn(o);
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->write("hello\n", Deadline::after(Millis(2000))).ok());
  EXPECT_EQ(read_until(*p, "\n", Deadline::after(Millis(5000))), "hello\n");
  auto st = p->shutdown(Millis(2000), Millis(1000));
  EXPECT_EQ(st.str(), "exit 0");
}

TEST(StdioProcess, ReadTimesOutOnASilentChildNearTheDeadline) {
  auto p = must_spawn(sh("exec sleep 5"));
  ASSERT_TRUE(p);
  auto t0 = std::chrono::steady_clock::now();
  auto r = p->read_some(Deadline::after(Millis(200)));
  auto took = elapsed_ms(t0);
  EXPECT_EQ(r.status, ReadResult::Status::kTimeout);
  EXPECT_GE(took, 190);
  EXPECT_LT(took, 1000);
  EXPECT_EQ(p->kill_now().str(), "signal 9 (SIGKILL)");
}

TEST(StdioProcess, DrainsMegabytesOfStderrWithoutBlocking) {
  auto p = must_spawn(sh("head -c 8388608 /dev/zero >&2; echo done"));
  ASSERT_TRUE(p);
  EXPECT_EQ(read_until(*p, "done\n", Deadline::after(Millis(20000))), "done\n");
  EXPECT_EQ(p->shutdown(Millis(2000), Millis(1000)).str(), "exit 0");
  EXPECT_EQ(p->stderr_total_bytes(), 8388608u);
  EXPECT_EQ(p->stderr_text().size(), SpawnOptions{}.stderr_keep_bytes);
  EXPECT_EQ(p->transcript().total_bytes(Direction::kStderr), 8388608u);
  EXPECT_GT(p->transcript().dropped_bytes(), 0u);
}

TEST(StdioProcess, WriteTimesOutWhenTheChildNeverReadsStdin) {
  auto p = must_spawn(sh("exec sleep 30"));
  ASSERT_TRUE(p);
  std::string body(1 << 20, 'x');
  auto t0 = std::chrono::steady_clock::now();
  auto w = p->write(body, Deadline::after(Millis(300)));
  auto took = elapsed_ms(t0);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, ErrorKind::kTimeout) << w.error().str();
  EXPECT_LT(took, 2000);
  // What went out before the pipe filled is recorded, and nothing more.
  size_t sent = p->transcript().total_bytes(Direction::kToPeer);
  EXPECT_GT(sent, 0u);
  EXPECT_LT(sent, body.size());
  p->kill_now();
}

TEST(StdioProcess, WriteToAnExitedChildIsBrokenPipeNotSigpipe) {
  auto p = must_spawn(sh("exit 3"));
  ASSERT_TRUE(p);
  auto st = p->wait_exit(Deadline::after(Millis(5000)));
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->str(), "exit 3");
  auto w = p->write("{}\n", Deadline::after(Millis(1000)));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, ErrorKind::kBrokenPipe) << w.error().str();
  EXPECT_EQ(p->shutdown().str(), "exit 3");
}

TEST(StdioProcess, ReadReportsEofAfterTheLastByte) {
  auto p = must_spawn(sh("printf hello"));
  ASSERT_TRUE(p);
  std::string got;
  EXPECT_TRUE(read_to_eof(*p, Deadline::after(Millis(5000)), got));
  EXPECT_EQ(got, "hello");
  // EOF is sticky and immediate.
  EXPECT_EQ(p->read_some(Deadline::after(Millis(5000))).status, ReadResult::Status::kEof);
}

TEST(StdioProcess, WriteAfterCloseStdinIsBrokenPipe) {
  auto p = must_spawn(sh("cat >/dev/null"));
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->stdin_closed());
  p->close_stdin();
  EXPECT_TRUE(p->stdin_closed());
  auto w = p->write("x", Deadline::after(Millis(100)));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, ErrorKind::kBrokenPipe);
  auto st = p->wait_exit(Deadline::after(Millis(5000)));
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->str(), "exit 0");
}

TEST(StdioSpawn, MissingProgramIsASpawnErrorNamingIt) {
  SpawnOptions o;
  o.argv = {"a2a-no-such-program-7f3e", "--stdio"};
  auto p = StdioProcess::spawn(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::kSpawn);
  EXPECT_EQ(p.error().message, "program 'a2a-no-such-program-7f3e' not found in PATH");
}

TEST(StdioSpawn, BadPathsAreSpawnErrorsSayingWhy) {
  struct Case {
    std::vector<std::string> argv;
    std::string message;
  };
  for (const auto& c : std::vector<Case>{
           {{"/nonexistent/agent"}, "'/nonexistent/agent' cannot be run: No such file or directory"},
           {{"/etc/passwd"}, "'/etc/passwd' is not executable"},
           {{"/tmp"}, "'/tmp' is a directory"},
           {{}, "empty command: no program to run"}}) {
    SpawnOptions o;
    o.argv = c.argv;
    auto p = StdioProcess::spawn(o);
    ASSERT_FALSE(p.ok()) << c.message;
    EXPECT_EQ(p.error().kind, ErrorKind::kSpawn);
    EXPECT_EQ(p.error().message, c.message);
  }
  SpawnOptions o = sh("true");
  o.cwd = "/nonexistent-dir";
  auto p = StdioProcess::spawn(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::kSpawn);
  EXPECT_NE(p.error().message.find("/nonexistent-dir"), std::string::npos);
}

TEST(StdioSpawn, KeepsArgvZeroAndWorkingDirectory) {
  SpawnOptions o;
  o.argv = {"sh", "-c", "echo \"$0\"; pwd"};
  o.cwd = "/tmp";
  auto p = must_spawn(o);
  ASSERT_TRUE(p);
  std::string got;
  EXPECT_TRUE(read_to_eof(*p, Deadline::after(Millis(5000)), got));
  EXPECT_EQ(got, "sh\n/tmp\n");
}

TEST(StdioSpawn, EnvironmentSetReachesTheChild) {
  SpawnOptions o = sh("echo \"$A2A_SESSION_ID\"");
  o.env_set["A2A_SESSION_ID"] = "sess-42";
  auto p = must_spawn(o);
  ASSERT_TRUE(p);
  EXPECT_EQ(read_until(*p, "\n", Deadline::after(Millis(5000))), "sess-42\n");
}

TEST(StdioSpawn, EnvironmentUnsetAndNoInheritanceAreHonoured) {
  ::setenv("A2A_TEST_INHERITED", "yes", 1);
  const char* script = "echo \"${A2A_TEST_INHERITED-unset} ${ONLY-unset}\"";
  struct Case {
    bool inherit;
    std::vector<std::string> unset;
    std::string expect;
  };
  for (const auto& c : std::vector<Case>{{true, {}, "yes 1\n"},
                                         {true, {"A2A_TEST_INHERITED"}, "unset 1\n"},
                                         {false, {}, "unset 1\n"}}) {
    SpawnOptions o = sh(script);
    o.inherit_env = c.inherit;
    o.env_unset = c.unset;
    o.env_set["ONLY"] = "1";
    auto p = must_spawn(o);
    ASSERT_TRUE(p);
    EXPECT_EQ(read_until(*p, "\n", Deadline::after(Millis(5000))), c.expect);
  }
  ::unsetenv("A2A_TEST_INHERITED");
}

TEST(StdioSpawn, ChildStartsWithSigpipeDefaultAndNoBlockedSignals) {
  // We ignore SIGPIPE ourselves; the agent must not inherit that. (Other
  // ignored signals pass through as from any launcher: a test run in the
  // background ignores SIGINT and SIGQUIT, and so do its children.)
  auto p = must_spawn(sh("exec grep -E '^Sig(Ign|Blk)' /proc/self/status"));
  ASSERT_TRUE(p);
  std::string got;
  EXPECT_TRUE(read_to_eof(*p, Deadline::after(Millis(5000)), got));
  ASSERT_EQ(got.substr(0, 25), "SigBlk:\t0000000000000000\n");
  auto ign_at = got.find("SigIgn:\t");
  ASSERT_NE(ign_at, std::string::npos) << got;
  unsigned long long ignored = std::stoull(got.substr(ign_at + 8, 16), nullptr, 16);
  EXPECT_EQ(ignored & (1ULL << (SIGPIPE - 1)), 0u) << got;
}

TEST(StdioSpawn, TranscriptRecordsBothDirectionsInOrderWithNotes) {
  SpawnOptions o;
  o.argv = {"cat"};
  auto p = must_spawn(o);
  ASSERT_TRUE(p);
  for (const char* msg : {"ping\n", "pong\n"}) {
    ASSERT_TRUE(p->write(msg, Deadline::after(Millis(2000))).ok());
    EXPECT_EQ(read_until(*p, "\n", Deadline::after(Millis(5000))), msg);
  }
  p->shutdown(Millis(2000), Millis(1000));
  std::vector<std::string> wire;
  std::vector<std::string> notes;
  auto entries = p->transcript().entries();
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    if (i > 0) {
      EXPECT_LE(entries[i - 1].at, e.at);
    }
    if (e.dir == Direction::kNote) {
      notes.push_back(e.bytes);
    } else {
      wire.push_back(std::string(to_string(e.dir)) + ":" + e.bytes);
    }
  }
  EXPECT_EQ(wire, (std::vector<std::string>{"to-peer:ping\n", "from-peer:ping\n", "to-peer:pong\n",
                                            "from-peer:pong\n"}));
  ASSERT_GE(notes.size(), 3u);
  EXPECT_EQ(notes.front(), "spawned pid " + std::to_string(p->pid()) + ": cat");
  EXPECT_EQ(notes[1], "closed stdin");
  EXPECT_EQ(notes.back(), "exit 0");
}

TEST(StdioProcess, CarriesMegabytesBothWaysAtOnce) {
  SpawnOptions o;
  o.argv = {"cat"};
  auto p = must_spawn(o);
  ASSERT_TRUE(p);
  std::string body(4 << 20, 'z');
  a2a::core::Expected<void> wrote;
  // cat only keeps reading if we keep reading its output: one write call
  // far larger than both pipe buffers needs a concurrent reader.
  std::thread writer([&] { wrote = p->write(body, Deadline::after(Millis(20000))); });
  size_t got = 0;
  auto deadline = Deadline::after(Millis(20000));
  while (got < body.size()) {
    auto r = p->read_some(deadline);
    if (r.status != ReadResult::Status::kData) break;
    got += r.data.size();
  }
  writer.join();
  EXPECT_TRUE(wrote.ok());
  EXPECT_EQ(got, body.size());
  EXPECT_EQ(p->transcript().total_bytes(Direction::kToPeer), body.size());
  EXPECT_EQ(p->transcript().total_bytes(Direction::kFromPeer), body.size());
  EXPECT_EQ(p->shutdown(Millis(2000), Millis(1000)).str(), "exit 0");
}

TEST(StdioSpawn, ChildInheritsNoDescriptorsBeyondStdio) {
  // An fd without close-on-exec, opened low (below anything the launcher
  // opens), is the case Boost 1.81's close_all misses.
  int leaky = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(leaky, 0);
  auto p = must_spawn(sh("exec ls /proc/self/fd"));
  ::close(leaky);
  ASSERT_TRUE(p);
  std::string got;
  EXPECT_TRUE(read_to_eof(*p, Deadline::after(Millis(5000)), got));
  EXPECT_EQ(got, "0\n1\n2\n3\n");  // 3 is ls's own directory handle
}
