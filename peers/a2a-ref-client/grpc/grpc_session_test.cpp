// GrpcSession against the reference agent's real gRPC server, in-process on
// 127.0.0.1 (peers/a2a-ref-agent/grpc/grpc_test_support.hpp): every
// operation, the error mapping, the deadline and a dead port.
#include "peers/a2a-ref-client/grpc/grpc_session.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/grpc/grpc_test_support.hpp"
#include "runner/grpc/status.hpp"

namespace a2a::client {
namespace {

using model::Operation;
using core::Deadline;
using core::Millis;

SelectedInterface grpc_interface(const std::string& url) {
  return SelectedInterface{HttpBinding::kGrpc, CardInterface{url, "GRPC", "1.0", std::nullopt}, 0};
}

Json user_message(const std::string& id, const std::string& text) {
  return {{"messageId", id}, {"role", "ROLE_USER"}, {"parts", {{{"text", text}}}}};
}

Deadline soon() { return Deadline::after(Millis(8000)); }

class GrpcSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(f.server);
    auto s = GrpcSession::create(grpc_interface(f.server->address()), GrpcSessionOptions{"a2a-conform", nullptr});
    ASSERT_TRUE(s.ok()) << s.error().message;
    session = std::move(*s);
  }
  agent::testing::GrpcFixture f;
  std::unique_ptr<GrpcSession> session;
};

TEST_F(GrpcSessionTest, EveryUnaryOperationReachesTheAgent) {
  CallResult sent = session->call(Operation::kSendMessage, {{"message", user_message("m1", "tck-complete-task hi")}}, soon());
  ASSERT_TRUE(sent.ok()) << sent.error.str();
  std::string id = sent.result["task"]["id"];
  EXPECT_EQ(sent.result["task"]["status"]["state"], "TASK_STATE_COMPLETED");
  CallResult got = session->call(Operation::kGetTask, {{"id", id}, {"historyLength", 1}}, soon());
  ASSERT_TRUE(got.ok()) << got.error.str();
  EXPECT_EQ(got.result["id"], id);
  CallResult listed = session->call(Operation::kListTasks, {{"contextId", sent.result["task"]["contextId"]}}, soon());
  ASSERT_TRUE(listed.ok()) << listed.error.str();
  EXPECT_EQ(listed.result["tasks"].size(), 1u);
  EXPECT_EQ(listed.result["nextPageToken"], "");  // proto3's absent string, written as JSON-RPC does

  Json hold = {{"message", user_message("m2", "tck-cancel hold")}, {"configuration", {{"returnImmediately", true}}}};
  CallResult held = session->call(Operation::kSendMessage, hold, soon());
  ASSERT_TRUE(held.ok()) << held.error.str();
  std::string task = held.result["task"]["id"];
  Json cfg = {{"taskId", task}, {"url", "http://127.0.0.1:9/hook"}, {"token", "tok-1"}};
  CallResult created = session->call(Operation::kCreatePushConfig, cfg, soon());
  ASSERT_TRUE(created.ok()) << created.error.str();
  std::string config = created.result["id"];
  EXPECT_TRUE(session->call(Operation::kGetPushConfig, {{"taskId", task}, {"id", config}}, soon()).ok());
  CallResult configs = session->call(Operation::kListPushConfigs, {{"taskId", task}}, soon());
  ASSERT_TRUE(configs.ok()) << configs.error.str();
  EXPECT_EQ(configs.result["configs"].size(), 1u);
  CallResult deleted = session->call(Operation::kDeletePushConfig, {{"taskId", task}, {"id", config}}, soon());
  ASSERT_TRUE(deleted.ok()) << deleted.error.str();
  EXPECT_TRUE(deleted.result.is_null());  // google.protobuf.Empty, printed as JSON-RPC's null
  CallResult canceled = session->call(Operation::kCancelTask, {{"id", task}}, soon());
  ASSERT_TRUE(canceled.ok()) << canceled.error.str();
  EXPECT_EQ(canceled.result["status"]["state"], "TASK_STATE_CANCELED");
  CallResult card = session->call(Operation::kGetExtendedAgentCard, Json::object(), soon());
  ASSERT_TRUE(card.ok()) << card.error.str();
  EXPECT_TRUE(card.result.contains("name"));
}

TEST_F(GrpcSessionTest, StreamsYieldEveryEventThenEnd) {
  std::vector<Json> events;
  auto collect = [&](const StreamItem& i) {
    EXPECT_EQ(i.type, StreamItem::Type::kEvent);
    events.push_back(i.value);
  };
  CallResult r = session->stream(Operation::kSendStreamingMessage, {{"message", user_message("m3", "tck-stream-basic go")}},
                                 collect, soon());
  ASSERT_TRUE(r.ok()) << r.error.str();
  ASSERT_GE(events.size(), 2u);
  Json send = {{"message", user_message("m4", "tck-long-running delay=300")}, {"configuration", {{"returnImmediately", true}}}};
  CallResult lr = session->call(Operation::kSendMessage, send, soon());
  ASSERT_TRUE(lr.ok()) << lr.error.str();
  events.clear();
  r = session->stream(Operation::kSubscribeToTask, {{"id", lr.result["task"]["id"]}}, collect, soon());
  ASSERT_TRUE(r.ok()) << r.error.str();
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back()["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST_F(GrpcSessionTest, ErrorsCarryTheJsonRpcCodeOfTheirReason) {
  CallResult r = session->call(Operation::kGetTask, {{"id", "no-such-task"}}, soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kAgent);
  EXPECT_EQ(r.error.code(), -32001);
  EXPECT_EQ(r.error.to_json()["status"], "NOT_FOUND");
  // Before any event, a stream's error status is the operation's error.
  int items = 0;
  r = session->stream(Operation::kSubscribeToTask, {{"id", "no-such-task"}}, [&](const StreamItem&) { ++items; }, soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(items, 0);
  EXPECT_EQ(r.error.code(), -32001);
  // Params the request message cannot hold never leave the client.
  r = session->call(Operation::kGetTask, {{"id", "t"}, {"noSuchField", 1}}, soon());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kUsage);
}

TEST(GrpcErrorObject, MapsReasonsThenGenericStatuses) {
  auto st = grpcwire::status_from_error({{"code", -32004}, {"message", "unsupported"}, {"data", Json::array({
      {{"@type", "type.googleapis.com/google.rpc.ErrorInfo"}, {"reason", "UNSUPPORTED_OPERATION"},
       {"domain", "a2a-protocol.org"}}})}});
  Json e = grpc_error_object(st.code, st.message, st.details);
  EXPECT_EQ(e["code"], -32004);
  EXPECT_EQ(e["details"][0]["reason"], "UNSUPPORTED_OPERATION");
  EXPECT_EQ(grpc_error_object(grpcwire::kInvalidArgument, "bad", "")["code"], -32602);
  EXPECT_EQ(grpc_error_object(grpcwire::kUnimplemented, "no", "")["code"], -32601);
  EXPECT_EQ(grpc_error_object(grpcwire::kInternal, "oops", "")["code"], -32603);
  EXPECT_FALSE(grpc_error_object(grpcwire::kNotFound, "no details", "").contains("code"));
}

TEST(GrpcSession, DeadlineAndDeadPortAreTimeoutAndTransport) {
  // A listening socket that never speaks HTTP/2: the call waits for its deadline.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  std::string addr = "127.0.0.1:" + std::to_string(ntohs(a.sin_port));
  auto s = GrpcSession::create(grpc_interface(addr));
  ASSERT_TRUE(s.ok());
  auto t0 = std::chrono::steady_clock::now();
  CallResult r = (*s)->call(Operation::kGetTask, {{"id", "t"}}, Deadline::after(Millis(500)));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(4));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.error.kind == ClientErrorKind::kTimeout || r.error.kind == ClientErrorKind::kTransport) << r.error.str();
  ::close(fd);
  // Nobody listens there any more: UNAVAILABLE, a transport error.
  r = (*s)->call(Operation::kGetTask, {{"id", "t"}}, Deadline::after(Millis(3000)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kTransport) << r.error.str();
  EXPECT_FALSE(GrpcSession::create(grpc_interface("http://h:1/path")).ok());
}

}  // namespace
}  // namespace a2a::client
