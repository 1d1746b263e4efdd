// StdioSession against /bin/sh fake agents over real pipes. Every case is
// bounded by deadlines of at most a few seconds.
#include "peers/a2a-ref-client/session.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <thread>

#include "peers/a2a-ref-client/fake_agent_test_util.hpp"

namespace a2a::client {
namespace {

using core::Deadline;
using core::Millis;
using Clock = std::chrono::steady_clock;

Deadline in_secs(int s) { return Deadline::after(Millis(s * 1000)); }

struct Diagnostics {
  std::mutex mu;
  std::vector<std::string> lines;
  bool has(std::string_view needle) {
    std::lock_guard lock(mu);
    for (const auto& l : lines) {
      if (l.find(needle) != std::string::npos) return true;
    }
    return false;
  }
};

SessionOptions quick_options(Diagnostics* d = nullptr) {
  SessionOptions o;
  o.handshake_timeout = Millis(3000);
  o.close_grace = Millis(2000);
  if (d) {
    o.on_diagnostic = [d](const std::string& s) {
      std::lock_guard lock(d->mu);
      d->lines.push_back(s);
    };
  }
  return o;
}

std::unique_ptr<StdioSession> connect_ok(const std::string& script, SessionOptions o = quick_options()) {
  auto s = StdioSession::connect(fake::argv(script), std::move(o));
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().str());
  return s.ok() ? std::move(*s) : nullptr;
}

const Json kGet = {{"id", "t-1"}};
const std::string kGetMethod = "tasks/get";

// ---- handshake failures (H7, H8, H10, H12, H13, L7, L9) ----

struct HandshakeFailure {
  std::string name;
  std::string script;  // after writing the pid file
  core::ErrorKind kind;
  std::string expect_in_message;
};

void PrintTo(const HandshakeFailure& c, std::ostream* os) { *os << c.name; }

class ConnectFails : public ::testing::TestWithParam<HandshakeFailure> {};

TEST_P(ConnectFails, PreciselyAndTheChildIsTerminated) {
  std::string pid_file = fake::temp_path(GetParam().name);
  auto start = Clock::now();
  auto s = StdioSession::connect(fake::argv(fake::write_pid(pid_file) + GetParam().script), quick_options());
  auto took = Clock::now() - start;
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, GetParam().kind) << s.error().str();
  EXPECT_NE(s.error().message.find(GetParam().expect_in_message), std::string::npos) << s.error().str();
  EXPECT_LT(took, std::chrono::seconds(5));
  EXPECT_TRUE(fake::pid_is_gone(pid_file)) << "agent still running after a failed handshake (H8)";
  std::remove(pid_file.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Session, ConnectFails,
    ::testing::Values(
        HandshakeFailure{"EmptyVariants", fake::handshake(R"("supportedVariants":[])") + "sleep 20",
                         core::ErrorKind::kProtocol, "empty"},
        HandshakeFailure{"WrongType", fake::emit(R"({"type":"hello","sessionId":"x","supportedVariants":["a2a/v1"]})") + "sleep 20",
                         core::ErrorKind::kProtocol, "expected type"},
        HandshakeFailure{"NotJson", fake::emit("hello there") + "sleep 20", core::ErrorKind::kProtocol, "not JSON"},
        HandshakeFailure{"SessionIdMismatch",
                         fake::emit(R"({"type":"handshake","sessionId":"other","supportedVariants":["a2a/v1"]})") + "sleep 20",
                         core::ErrorKind::kProtocol, "differs from A2A_SESSION_ID"},
        HandshakeFailure{"EofBeforeHandshakeReportsExitStatus", "exit 3", core::ErrorKind::kEof, "exit 3"},
        HandshakeFailure{"SilentAgentTimesOut", "sleep 20", core::ErrorKind::kTimeout, "timed out"},
        HandshakeFailure{"LogLineOnStdoutBeforeHandshake", "echo starting up; " + fake::handshake() + "sleep 20",
                         core::ErrorKind::kProtocol, "not a valid frame"}),
    [](const ::testing::TestParamInfo<HandshakeFailure>& info) { return info.param.name; });

TEST(Session, SilentHandshakeTimeoutIsConfigurable) {
  SessionOptions o = quick_options();
  o.handshake_timeout = Millis(200);
  auto start = Clock::now();
  auto s = StdioSession::connect(fake::argv("sleep 20"), o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, core::ErrorKind::kTimeout);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
}

TEST(Session, ProgramNotFoundIsASpawnError) {
  auto s = StdioSession::connect({"/nonexistent/agent-binary"}, quick_options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, core::ErrorKind::kSpawn);
}

TEST(Session, HandshakeEchoesTheGivenSessionIdAndCloseReapsCleanly) {
  SessionOptions o = quick_options();
  o.session_id = "session-under-test";
  auto s = connect_ok(fake::handshake() + fake::until_eof(), o);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->session_id(), "session-under-test");
  transport::ExitStatus st = s->close();
  EXPECT_TRUE(st.exited);
  EXPECT_EQ(st.code, 0);
}

TEST(Session, AgentGetsAMinimalEnvironmentByDefault) {
  ::setenv("A2A_CLIENT_TEST_SECRET", "leak", 1);
  std::string reply = R"({"jsonrpc":"2.0","id":1,"result":"'"${A2A_CLIENT_TEST_SECRET:-absent}"'"})";
  std::string script = fake::handshake() + fake::consume(fake::ack_bytes() + fake::request_bytes(1, kGetMethod, kGet)) +
                       fake::emit(reply) + fake::until_eof();
  auto s = connect_ok(script);
  ASSERT_TRUE(s);
  CallResult r = s->call(model::Operation::kGetTask, kGet, in_secs(3));
  ASSERT_TRUE(r.ok()) << r.error.str();
  EXPECT_EQ(r.result, "absent");
  ::unsetenv("A2A_CLIENT_TEST_SECRET");
}

// ---- correlation (C2, C3, C4) ----

TEST(Session, ResponsesOutOfOrderReachTheirOwnCallers) {
  size_t req = fake::request_bytes(1, kGetMethod, kGet);
  std::string script = fake::handshake() + fake::consume(fake::ack_bytes() + 2 * req) +
                       fake::emit(R"({"jsonrpc":"2.0","id":2,"result":{"for":2}})") +
                       fake::emit(R"({"jsonrpc":"2.0","id":1,"result":{"for":1}})") + fake::until_eof();
  auto s = connect_ok(script);
  ASSERT_TRUE(s);
  CallResult first, second;
  std::thread a([&] { first = s->call(model::Operation::kGetTask, kGet, in_secs(4)); });
  std::this_thread::sleep_for(Millis(200));  // id 1 is taken before thread b starts
  std::thread b([&] { second = s->call(model::Operation::kGetTask, kGet, in_secs(4)); });
  a.join();
  b.join();
  ASSERT_TRUE(first.ok()) << first.error.str();
  ASSERT_TRUE(second.ok()) << second.error.str();
  EXPECT_EQ(first.result["for"], 1);
  EXPECT_EQ(second.result["for"], 2);
}

TEST(Session, ResponseWithAnUnknownOrStringIdIsDroppedAndTheRealOneDelivered) {
  Diagnostics d;
  std::string script = fake::handshake() + fake::consume(fake::ack_bytes() + fake::request_bytes(1, kGetMethod, kGet)) +
                       fake::emit(R"({"jsonrpc":"2.0","id":99,"result":"stale"})") +
                       fake::emit(R"({"jsonrpc":"2.0","id":"1","result":"string id"})") +
                       fake::emit(R"({"jsonrpc":"2.0","method":"agent/log","params":{"x":1}})") +
                       fake::emit(R"({"jsonrpc":"2.0","id":1,"result":"mine"})") + fake::until_eof();
  auto s = connect_ok(script, quick_options(&d));
  ASSERT_TRUE(s);
  CallResult r = s->call(model::Operation::kGetTask, kGet, in_secs(3));
  ASSERT_TRUE(r.ok()) << r.error.str();
  EXPECT_EQ(r.result, "mine");
  s->close();
  EXPECT_TRUE(d.has("id 99"));
  EXPECT_TRUE(d.has("id \"1\""));
  EXPECT_TRUE(d.has("ignored notification agent/log"));
}

TEST(Session, AgentErrorObjectIsReturnedAsData) {
  std::string script = fake::handshake() + fake::consume(fake::ack_bytes() + fake::request_bytes(1, kGetMethod, kGet)) +
                       fake::emit(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"task not found"}})") +
                       fake::until_eof();
  auto s = connect_ok(script);
  ASSERT_TRUE(s);
  CallResult r = s->call(model::Operation::kGetTask, kGet, in_secs(3));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kAgent);
  EXPECT_EQ(r.error.code(), -32001);
  EXPECT_FALSE(s->dead().has_value());
}

// ---- timeouts and EOF (L3, L4, silent agent) ----

TEST(Session, SilentAgentCallTimesOutAndTheSessionStaysUsable) {
  auto s = connect_ok(fake::handshake() + fake::until_eof());
  ASSERT_TRUE(s);
  auto start = Clock::now();
  CallResult r = s->call(model::Operation::kGetTask, kGet, Deadline::after(Millis(300)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kTimeout);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
  EXPECT_FALSE(s->dead().has_value());
}

TEST(Session, EofWhileACallIsPendingFailsItWithTheExitStatus) {
  std::string script = fake::handshake() + fake::consume(fake::ack_bytes() + fake::request_bytes(1, kGetMethod, kGet)) + "exit 4";
  auto s = connect_ok(script);
  ASSERT_TRUE(s);
  CallResult r = s->call(model::Operation::kGetTask, kGet, in_secs(3));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kTransport);
  EXPECT_NE(r.error.message.find("exit 4"), std::string::npos) << r.error.message;
  CallResult after = s->call(model::Operation::kGetTask, kGet, in_secs(3));
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.error.kind, ClientErrorKind::kTransport);
}

TEST(Session, CallAfterTheAgentExitedFailsWithoutHanging) {
  auto s = connect_ok(fake::handshake() + fake::consume(fake::ack_bytes()) + "exit 0");
  ASSERT_TRUE(s);
  std::this_thread::sleep_for(Millis(300));
  auto start = Clock::now();
  CallResult r = s->call(model::Operation::kGetTask, kGet, in_secs(3));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kTransport);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
}

TEST(Session, FramingErrorFailsThePendingCall) {
  std::string script = fake::handshake() + fake::consume(fake::ack_bytes() + fake::request_bytes(1, kGetMethod, kGet)) +
                       "printf 'Content-Length: abc\\r\\n\\r\\n{}'; " + fake::until_eof();
  auto s = connect_ok(script);
  ASSERT_TRUE(s);
  CallResult r = s->call(model::Operation::kGetTask, kGet, in_secs(3));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kTransport);
  EXPECT_NE(r.error.message.find("framing error"), std::string::npos) << r.error.message;
}

TEST(Session, AgentIgnoringStdinEofIsKilled) {
  SessionOptions o = quick_options();
  o.close_grace = Millis(300);
  auto s = connect_ok(fake::handshake() + "trap '' TERM; sleep 30", o);
  ASSERT_TRUE(s);
  auto start = Clock::now();
  transport::ExitStatus st = s->close();
  EXPECT_TRUE(st.signaled) << st.str();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
}

TEST(Session, StderrFloodDoesNotBlockTheAgent) {
  std::string script = "head -c 1048576 /dev/zero >&2; " + fake::handshake() +
                       fake::consume(fake::ack_bytes() + fake::request_bytes(1, kGetMethod, kGet)) +
                       "head -c 1048576 /dev/zero >&2; " +
                       fake::emit(R"({"jsonrpc":"2.0","id":1,"result":"fine"})") + fake::until_eof();
  auto s = connect_ok(script);
  ASSERT_TRUE(s);
  CallResult r = s->call(model::Operation::kGetTask, kGet, in_secs(4));
  ASSERT_TRUE(r.ok()) << r.error.str();
  EXPECT_EQ(r.result, "fine");
}

TEST(Session, AgentThatNeverReadsStdinMakesALargeWriteTimeOut) {
  auto s = connect_ok(fake::handshake() + "sleep 30");
  ASSERT_TRUE(s);
  Json big = {{"id", std::string(256 * 1024, 'x')}};  // larger than the pipe buffer
  auto start = Clock::now();
  CallResult r = s->call(model::Operation::kGetTask, big, Deadline::after(Millis(500)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kTimeout);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  EXPECT_TRUE(s->dead().has_value()) << "a partial frame leaves the stream unusable";
}

TEST(Session, CloseKillsGrandchildrenThatHoldTheAgentsStdout) {
  std::string pid_file = fake::temp_path("grandchild");
  auto s = connect_ok(fake::handshake() + "sleep 30 & echo $! > " + pid_file + "; " + fake::until_eof());
  ASSERT_TRUE(s);
  std::this_thread::sleep_for(Millis(100));
  auto start = Clock::now();
  s->close();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(4));
  for (int i = 0; i < 50 && !fake::pid_is_gone(pid_file); ++i) std::this_thread::sleep_for(Millis(20));
  EXPECT_TRUE(fake::pid_is_gone(pid_file));
  std::remove(pid_file.c_str());
}

// ---- streams (C8-C11) ----

const Json kStreamParams = {{"message", {{"messageId", "m"}, {"role", "ROLE_USER"}, {"parts", {{{"text", "x"}}}}}}};

std::string after_stream_request() {
  return fake::handshake() +
         fake::consume(fake::ack_bytes() + fake::request_bytes(1, "message/stream", kStreamParams));
}

struct StreamRun {
  std::vector<StreamItem> items;
  CallResult end;
};

StreamRun run_stream(StdioSession& s) {
  StreamRun run;
  run.end = s.stream(model::Operation::kSendStreamingMessage, kStreamParams,
                     [&](const StreamItem& i) { run.items.push_back(i); }, in_secs(4));
  return run;
}

TEST(Session, StreamEndsOnlyOnItsOwnFinalResponse) {
  std::string script = after_stream_request() +
                       fake::emit(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"statusUpdate":{"n":1}}})") +
                       fake::emit(R"({"jsonrpc":"2.0","id":7,"result":null})") +
                       fake::emit(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"statusUpdate":{"n":2}}})") +
                       fake::emit(R"({"jsonrpc":"2.0","id":1,"result":null})") + fake::until_eof();
  auto s = connect_ok(script);
  ASSERT_TRUE(s);
  StreamRun run = run_stream(*s);
  ASSERT_TRUE(run.end.ok()) << run.end.error.str();
  ASSERT_EQ(run.items.size(), 2u);
  EXPECT_EQ(run.items[0].value["statusUpdate"]["n"], 1);
  EXPECT_EQ(run.items[1].value["statusUpdate"]["n"], 2);
}

TEST(Session, EofInTheMiddleOfAStreamIsAnError) {
  std::string script = after_stream_request() +
                       fake::emit(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"task":{"id":"t"}}})") +
                       "exit 5";
  auto s = connect_ok(script);
  ASSERT_TRUE(s);
  StreamRun run = run_stream(*s);
  EXPECT_EQ(run.items.size(), 1u);
  ASSERT_FALSE(run.end.ok());
  EXPECT_EQ(run.end.error.kind, ClientErrorKind::kTransport);
  EXPECT_NE(run.end.error.message.find("exit 5"), std::string::npos) << run.end.error.message;
}

TEST(Session, StreamErrorEventIsSurfacedWithItsCodeAndTheStreamContinues) {
  std::string script = after_stream_request() +
                       fake::emit(R"({"jsonrpc":"2.0","method":"event/streamError","params":{"code":-32603,"message":"boom"}})") +
                       fake::emit(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"task":{"id":"t"}}})") +
                       fake::emit(R"({"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"final":true}}})") + fake::until_eof();
  auto s = connect_ok(script);
  ASSERT_TRUE(s);
  StreamRun run = run_stream(*s);
  ASSERT_TRUE(run.end.ok()) << run.end.error.str();
  ASSERT_EQ(run.items.size(), 3u);
  EXPECT_EQ(run.items[0].type, StreamItem::Type::kStreamError);
  EXPECT_EQ(run.items[0].value["code"], -32603);
  EXPECT_EQ(run.items[1].type, StreamItem::Type::kEvent);
  EXPECT_EQ(run.items[2].value["statusUpdate"]["final"], true);  // C9: non-null final result yielded
}

TEST(Session, ErrorResponseToAStreamEndsItWithThatError) {
  std::string script = after_stream_request() +
                       fake::emit(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"unsupported"}})") +
                       fake::until_eof();
  auto s = connect_ok(script);
  ASSERT_TRUE(s);
  StreamRun run = run_stream(*s);
  ASSERT_FALSE(run.end.ok());
  EXPECT_EQ(run.end.error.kind, ClientErrorKind::kAgent);
  EXPECT_EQ(run.end.error.code(), -32004);
  EXPECT_TRUE(run.items.empty());
}

TEST(Session, StreamingOperationThroughCallIsAUsageError) {
  auto s = connect_ok(fake::handshake() + fake::until_eof());
  ASSERT_TRUE(s);
  CallResult r = s->call(model::Operation::kSubscribeToTask, kGet, in_secs(1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kUsage);
}

}  // namespace
}  // namespace a2a::client
