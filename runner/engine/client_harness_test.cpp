// The runner's side of `a2a-conform client` on real processes and sockets:
// ClientProcess (a shell script stands in for the client under test) and
// DoubleLink with the real a2a-agent-double, spawned here the way a client
// would spawn its agent.
#include "runner/engine/client_harness.hpp"

#include <gtest/gtest.h>

#include <sys/socket.h>

#include <chrono>
#include <thread>

#include "runner/wire/double_link.hpp"

namespace a2a::engine {
namespace {

using core::Deadline;
using core::Millis;

const std::string kDouble = std::string(A2A_BINARY_DIR) + "/bin/a2a-agent-double";

std::unique_ptr<ClientProcess> start_client(const std::string& script) {
  auto p = ClientProcess::spawn({"/bin/sh", "-c", script});
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  return p.ok() ? std::move(p.value()) : nullptr;
}

TEST(ClientProcess, ScriptLinesReachTheClientAndResultLinesComeBackInOrder) {
  auto c = start_client("while read -r l; do echo \"{\\\"got\\\":\\\"$l\\\"}\"; done; exit 5");
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->write_line("one", Deadline::after(Millis(5000))).ok());
  ASSERT_TRUE(c->write_line("two", Deadline::after(Millis(5000))).ok());
  EXPECT_EQ(c->next_line(Deadline::after(Millis(10000))).value_or("<none>"), "{\"got\":\"one\"}");
  EXPECT_EQ(c->next_line(Deadline::after(Millis(10000))).value_or("<none>"), "{\"got\":\"two\"}");
  c->close_input();
  auto st = c->process().wait_exit(Deadline::after(Millis(10000)));
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->exited);
  EXPECT_EQ(st->code, 5);
}

TEST(ClientProcess, CrlfAndAFinalLineWithoutNewlineAreWholeLines) {
  auto c = start_client("printf 'a\\r\\nb\\nlast'");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->next_line(Deadline::after(Millis(10000))).value_or("<none>"), "a");
  EXPECT_EQ(c->next_line(Deadline::after(Millis(10000))).value_or("<none>"), "b");
  EXPECT_EQ(c->next_line(Deadline::after(Millis(10000))).value_or("<none>"), "last");
  EXPECT_FALSE(c->next_line(Deadline::after(Millis(10000))).has_value());
  EXPECT_TRUE(c->ended());
}

TEST(ClientProcess, SilentClientGivesNoLineAtTheDeadline) {
  auto c = start_client("sleep 30");
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->next_line(Deadline::after(Millis(200))).has_value());
  EXPECT_FALSE(c->ended());
}

TEST(ClientProcess, ClientThatIgnoresStdinEofIsKilledAtTheShutdownDeadline) {
  auto c = start_client("trap '' TERM; while :; do sleep 1; done");
  ASSERT_TRUE(c);
  c->close_input();
  auto st = c->process().shutdown(Millis(200), Millis(200));
  EXPECT_TRUE(st.signaled) << st.str();
  EXPECT_EQ(st.signal, 9) << st.str();
}

TEST(ClientProcess, InterruptWakesAReaderWaitingForALine) {
  auto c = start_client("sleep 30");
  ASSERT_TRUE(c);
  c->interrupt();
  EXPECT_FALSE(c->next_line(Deadline::after(Millis(60000))).has_value());
}

// ---- DoubleLink with the real a2a-agent-double ----

struct Linked {
  std::unique_ptr<DoubleLink> link;
  std::unique_ptr<transport::StdioProcess> dbl;  // the double, as the client would spawn it
};

Linked start_double(transport::Transcript* tr, std::map<std::string, std::string> env = {}, bool drain = true) {
  Linked l;
  auto link = DoubleLink::listen(tr);
  EXPECT_TRUE(link.ok());
  if (!link.ok()) return l;
  l.link = std::move(link.value());
  auto argv = transport::StdioProcess::split_command(l.link->command_line(kDouble));
  EXPECT_TRUE(argv.ok());
  transport::SpawnOptions o;
  o.argv = *argv;
  o.env_set = std::move(env);
  o.drain_stderr = drain;
  auto p = transport::StdioProcess::spawn(o);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  if (p.ok()) l.dbl = std::move(p.value());
  return l;
}

std::string read_stdout(transport::StdioProcess& p, size_t want) {
  std::string out;
  auto d = Deadline::after(Millis(10000));
  while (out.size() < want && !d.expired()) {
    auto r = p.read_some(d);
    if (r.status != transport::ReadResult::Status::kData) break;
    out += r.data;
  }
  return out;
}

std::string read_input(DoubleLink& link, size_t want) {
  std::string in;
  auto d = Deadline::after(Millis(10000));
  while (in.size() < want && !d.expired()) {
    auto r = link.read_input(d);
    if (r.status != transport::ReadResult::Status::kData) break;
    in += r.data;
  }
  return in;
}

TEST(AgentDouble, ReportsItsArgvAndOnlyTheA2aEnvironment) {
  transport::Transcript tr;
  auto l = start_double(&tr, {{"A2A_SESSION_ID", "s-42"}, {"OTHER_SECRET", "x"}});
  ASSERT_TRUE(l.link && l.dbl);
  ASSERT_TRUE(l.link->wait_linked(Deadline::after(Millis(10000))));
  auto h = l.link->hello();
  EXPECT_EQ(h["env"].value("A2A_SESSION_ID", ""), "s-42");
  EXPECT_FALSE(h["env"].contains("OTHER_SECRET"));
  EXPECT_FALSE(h.contains("token")) << "the token is a secret of the link, not of the transcript";
  ASSERT_TRUE(h["argv"].is_array());
  EXPECT_EQ(h["argv"][0], kDouble);
  EXPECT_EQ(h["argv"][1], "--connect");
}

TEST(AgentDouble, RelaysRunnerBytesToItsStdoutAndItsStdinToTheRunner) {
  transport::Transcript tr;
  auto l = start_double(&tr);
  ASSERT_TRUE(l.link && l.dbl);
  const std::string out = "Content-Length: 2\r\n\r\n{}";
  ASSERT_TRUE(l.link->send_output(out, Deadline::after(Millis(10000))).ok());
  EXPECT_EQ(read_stdout(*l.dbl, out.size()), out);
  const std::string in = std::string("bytes\0with\r\nnul", 15);
  ASSERT_TRUE(l.dbl->write(in, Deadline::after(Millis(10000))).ok());
  EXPECT_EQ(read_input(*l.link, in.size()), in);
}

TEST(AgentDouble, ClosesItsStdoutWhenTold) {
  transport::Transcript tr;
  auto l = start_double(&tr);
  ASSERT_TRUE(l.link && l.dbl);
  ASSERT_TRUE(l.link->wait_linked(Deadline::after(Millis(10000))));
  l.link->close_output();
  auto r = l.dbl->read_some(Deadline::after(Millis(10000)));
  EXPECT_EQ(r.status, transport::ReadResult::Status::kEof);
}

TEST(AgentDouble, ExitsZeroOnStdinEof) {
  transport::Transcript tr;
  auto l = start_double(&tr);
  ASSERT_TRUE(l.link && l.dbl);
  ASSERT_TRUE(l.link->wait_linked(Deadline::after(Millis(10000))));
  l.dbl->close_stdin();
  auto r = l.link->read_input(Deadline::after(Millis(10000)));
  EXPECT_EQ(r.status, transport::ReadResult::Status::kEof);
  auto st = l.dbl->wait_exit(Deadline::after(Millis(10000)));
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->exited && st->code == 0) << st->str();
}

TEST(AgentDouble, ExitsWithTheCodeTheRunnerNames) {
  transport::Transcript tr;
  auto l = start_double(&tr);
  ASSERT_TRUE(l.link && l.dbl);
  ASSERT_TRUE(l.link->wait_linked(Deadline::after(Millis(10000))));
  l.link->exit_double(7);
  auto st = l.dbl->wait_exit(Deadline::after(Millis(10000)));
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->exited && st->code == 7) << st->str();
}

TEST(AgentDouble, WritesTheNamedStderrBytesThenRelaysLaterOutput) {
  transport::Transcript tr;
  auto l = start_double(&tr);
  ASSERT_TRUE(l.link && l.dbl);
  ASSERT_TRUE(l.link->wait_linked(Deadline::after(Millis(10000))));
  l.link->write_stderr(300000);
  const std::string out = "Content-Length: 2\r\n\r\n{}";
  ASSERT_TRUE(l.link->send_output(out, Deadline::after(Millis(10000))).ok());
  EXPECT_EQ(read_stdout(*l.dbl, out.size()), out);
  // The flood came before the output on the link, so it has been written.
  for (int i = 0; i < 200 && l.dbl->stderr_total_bytes() < 300000; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(l.dbl->stderr_total_bytes(), 300000u);
}

TEST(AgentDouble, AStderrFloodNobodyReadsHoldsBackLaterOutput) {
  transport::Transcript tr;
  auto l = start_double(&tr, {}, /*drain=*/false);
  ASSERT_TRUE(l.link && l.dbl);
  ASSERT_TRUE(l.link->wait_linked(Deadline::after(Millis(10000))));
  l.link->write_stderr(4 << 20);  // far above a pipe buffer
  ASSERT_TRUE(l.link->send_output("late", Deadline::after(Millis(10000))).ok());
  auto r = l.dbl->read_some(Deadline::after(Millis(1000)));
  EXPECT_EQ(r.status, transport::ReadResult::Status::kTimeout) << "the double was not blocked on its stderr";
}

TEST(AgentDouble, ExitsThreeWhenTheRunnerGoesAway) {
  transport::Transcript tr;
  auto l = start_double(&tr);
  ASSERT_TRUE(l.link && l.dbl);
  ASSERT_TRUE(l.link->wait_linked(Deadline::after(Millis(10000))));
  l.link.reset();
  auto st = l.dbl->wait_exit(Deadline::after(Millis(10000)));
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->exited && st->code == 3) << st->str();
}

TEST(AgentDouble, ExitsThreeWhenNoRunnerListens) {
  int port = 0;
  {
    auto link = DoubleLink::listen(nullptr);
    ASSERT_TRUE(link.ok());
    auto line = (*link)->command_line(kDouble);
    port = std::stoi(line.substr(line.find("127.0.0.1:") + 10));
  }  // closed: nobody listens there now
  transport::SpawnOptions o;
  o.argv = {kDouble, "--connect", "127.0.0.1:" + std::to_string(port), "--token", "t"};
  auto p = transport::StdioProcess::spawn(o);
  ASSERT_TRUE(p.ok());
  auto st = (*p)->wait_exit(Deadline::after(Millis(15000)));
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->exited && st->code == 3) << st->str();
}

TEST(AgentDouble, RefusesBadArgumentsWithAUsageStatus) {
  transport::SpawnOptions o;
  o.argv = {kDouble, "--connect", "127.0.0.1:1"};  // no token
  auto p = transport::StdioProcess::spawn(o);
  ASSERT_TRUE(p.ok());
  auto st = (*p)->wait_exit(Deadline::after(Millis(10000)));
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->exited && st->code == 64) << st->str();
}

TEST(AgentDouble, ASecondDoubleIsTurnedAwayAndNoted) {
  transport::Transcript tr;
  auto l = start_double(&tr);
  ASSERT_TRUE(l.link && l.dbl);
  ASSERT_TRUE(l.link->wait_linked(Deadline::after(Millis(10000))));
  auto argv = transport::StdioProcess::split_command(l.link->command_line(kDouble));
  transport::SpawnOptions o;
  o.argv = *argv;
  auto second = transport::StdioProcess::spawn(o);
  ASSERT_TRUE(second.ok());
  auto st = (*second)->wait_exit(Deadline::after(Millis(10000)));
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->exited && st->code == 3) << st->str();
  bool noted = false;
  for (const auto& e : tr.entries()) noted = noted || e.bytes.find("second time") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(AgentDouble, SendWithoutALinkedDoubleFailsAtTheDeadline) {
  auto link = DoubleLink::listen(nullptr);
  ASSERT_TRUE(link.ok());
  auto r = (*link)->send_output("x", Deadline::after(Millis(100)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::kTimeout);
}

}  // namespace
}  // namespace a2a::engine
