// The reference agent's gRPC server (spec §10) through a real gRPC client
// on 127.0.0.1: every reply decoded, every error's status and ErrorInfo read
// from grpc-status-details-bin.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "peers/a2a-ref-agent/grpc/grpc_test_support.hpp"
#include "peers/a2a-ref-agent/http_test_support.hpp"

namespace a2a::agent::testing {
namespace {

using grpc::StatusCode;

TEST(GrpcAgent, SendMessageAnswersATaskOrAMessage) {
  GrpcFixture f;
  auto task = f.client->call(Operation::kSendMessage, send_params("tck-complete-task hi"));
  ASSERT_EQ(task.code, StatusCode::OK) << task.message;
  ASSERT_TRUE(task.body.contains("task")) << task.body.dump();
  EXPECT_EQ(state_of(task.body["task"]), "TASK_STATE_COMPLETED");
  auto msg = f.client->call(Operation::kSendMessage, send_params("tck-message-response hi"));
  ASSERT_EQ(msg.code, StatusCode::OK) << msg.message;
  ASSERT_TRUE(msg.body.contains("message")) << msg.body.dump();
  EXPECT_EQ(msg.body["message"]["role"], "ROLE_AGENT");
  EXPECT_TRUE(msg.initial.find("a2a-version") == msg.initial.end()) << "the spec asks for no version label";
}

TEST(GrpcAgent, AStreamSendsTheEventsInOrderThenEndsOk) {
  GrpcFixture f;
  auto s = f.client->stream(Operation::kSendStreamingMessage, send_params("tck-stream-basic go"));
  ASSERT_EQ(s.code, StatusCode::OK) << s.message;
  ASSERT_EQ(s.events.size(), 4u) << Json(s.events).dump();
  EXPECT_TRUE(s.events[0].contains("task"));
  EXPECT_EQ(s.events[1]["statusUpdate"]["status"]["state"], "TASK_STATE_WORKING");
  EXPECT_TRUE(s.events[2].contains("artifactUpdate"));
  EXPECT_EQ(s.events[3]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST(GrpcAgent, SubscribeFollowsARunningTaskToItsEnd) {
  GrpcFixture f;
  auto sent = f.client->call(Operation::kSendMessage,
                             send_params("tck-long-running delay=300", Json{{"returnImmediately", true}}));
  ASSERT_EQ(sent.code, StatusCode::OK) << sent.message;
  std::string id = sent.body["task"]["id"];
  auto s = f.client->stream(Operation::kSubscribeToTask, Json{{"id", id}});
  ASSERT_EQ(s.code, StatusCode::OK) << s.message;
  ASSERT_GE(s.events.size(), 2u);
  EXPECT_EQ(s.events.front()["task"]["id"], id);
  EXPECT_EQ(s.events.back()["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST(GrpcAgent, AnUnknownTaskIsNotFoundWithErrorInfo) {
  GrpcFixture f;
  auto r = f.client->call(Operation::kGetTask, Json{{"id", "no-such-task"}});
  EXPECT_EQ(r.code, StatusCode::NOT_FOUND);
  ASSERT_TRUE(r.details.is_object()) << "no grpc-status-details-bin";
  EXPECT_EQ(r.details["code"], 5);
  EXPECT_EQ(reason_of(r), "TASK_NOT_FOUND");
  EXPECT_EQ(domain_of(r), "a2a-protocol.org");
  auto s = f.client->stream(Operation::kSubscribeToTask, Json{{"id", "no-such-task"}});
  EXPECT_EQ(s.code, StatusCode::NOT_FOUND);
  EXPECT_TRUE(s.events.empty());
}

TEST(GrpcAgent, CancelingACompletedTaskIsFailedPrecondition) {
  GrpcFixture f;
  Json task = send_task(*f.core, "tck-complete-task x");
  ASSERT_TRUE(task.is_object());
  auto r = f.client->call(Operation::kCancelTask, Json{{"id", task["id"]}});
  EXPECT_EQ(r.code, StatusCode::FAILED_PRECONDITION) << r.message;
  EXPECT_EQ(reason_of(r), "TASK_NOT_CANCELABLE");
}

TEST(GrpcAgent, ListTasksAndPushConfigsRoundTrip) {
  GrpcFixture f;
  Json task = send_task(*f.core, "tck-cancel x", Json{{"returnImmediately", true}});
  ASSERT_TRUE(task.is_object());
  std::string id = task["id"];
  auto list = f.client->call(Operation::kListTasks, Json{{"contextId", task["contextId"]}});
  ASSERT_EQ(list.code, StatusCode::OK) << list.message;
  ASSERT_EQ(list.body["tasks"].size(), 1u);
  auto created = f.client->call(Operation::kCreatePushConfig,
                                Json{{"taskId", id}, {"id", "c1"}, {"url", "http://127.0.0.1:9/hook"}});
  ASSERT_EQ(created.code, StatusCode::OK) << created.message;
  EXPECT_EQ(created.body["id"], "c1");
  auto deleted = f.client->call(Operation::kDeletePushConfig, Json{{"taskId", id}, {"id", "c1"}});
  EXPECT_EQ(deleted.code, StatusCode::OK) << deleted.message;
  EXPECT_EQ(deleted.body, Json::object());  // google.protobuf.Empty
  auto listed = f.client->call(Operation::kListPushConfigs, Json{{"taskId", id}});
  ASSERT_EQ(listed.code, StatusCode::OK);
  EXPECT_TRUE(listed.body.value("configs", Json::array()).empty()) << listed.body.dump();
  auto canceled = f.client->call(Operation::kCancelTask, Json{{"id", id}});
  ASSERT_EQ(canceled.code, StatusCode::OK) << canceled.message;
  EXPECT_EQ(state_of(canceled.body), "TASK_STATE_CANCELED");
}

TEST(GrpcAgent, VersionMetadataIsChecked) {
  GrpcFixture f;
  Json get = {{"id", "no-such-task"}};
  auto bad = f.client->call(Operation::kGetTask, get, {{"a2a-version", "9.9"}});
  EXPECT_EQ(bad.code, StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(reason_of(bad), "VERSION_NOT_SUPPORTED");
  auto old = f.client->call(Operation::kGetTask, get, {{"a2a-version", "0.3"}});
  EXPECT_EQ(reason_of(old), "VERSION_NOT_SUPPORTED");
  // 1.0.N (patch ignored) is served; no a2a-version at all is 0.3 (§3.6.2), refused.
  EXPECT_EQ(f.client->call(Operation::kGetTask, get, {{"a2a-version", "1.0.3"}}).code, StatusCode::NOT_FOUND);
  EXPECT_EQ(reason_of(f.client->call(Operation::kGetTask, get, {})), "VERSION_NOT_SUPPORTED");
}

TEST(GrpcAgent, AnUnknownMethodIsUnimplemented) {
  GrpcFixture f;
  EXPECT_EQ(f.client->raw("/lf.a2a.v1.A2AService/NoSuchMethod", "").code, StatusCode::UNIMPLEMENTED);
  EXPECT_EQ(f.client->raw("/a2a.v1.A2AService/SendMessage", "").code, StatusCode::UNIMPLEMENTED);
}

TEST(GrpcAgent, BytesThatAreNotTheRequestAreInvalidArgument) {
  GrpcFixture f;
  auto r = f.client->raw(grpcwire::method_path(Operation::kGetTask), std::string("\xff\xff\xff", 3));
  EXPECT_EQ(r.code, StatusCode::INVALID_ARGUMENT) << r.message;
  auto p = f.client->call(Operation::kSendMessage, Json::object());  // no message: the core's -32602
  EXPECT_EQ(p.code, StatusCode::INVALID_ARGUMENT) << p.message;
}

TEST(GrpcAgent, AnOversizedRequestIsResourceExhausted) {
  GrpcFixture f;
  auto r = f.client->call(Operation::kListTasks, Json{{"contextId", std::string(5u << 20, 'x')}});
  EXPECT_EQ(r.code, StatusCode::RESOURCE_EXHAUSTED) << r.message;
  EXPECT_EQ(f.client->call(Operation::kSendMessage, send_params("hi")).code, StatusCode::OK);
}

TEST(GrpcAgent, TheExtendedCardNeedsABearerToken) {
  GrpcFixture f;
  auto none = f.client->call(Operation::kGetExtendedAgentCard, Json::object());
  EXPECT_EQ(none.code, StatusCode::UNAUTHENTICATED);
  auto wrong = f.client->call(Operation::kGetExtendedAgentCard, Json::object(),
                              {{"a2a-version", "1.0"}, {"authorization", "Bearer nope"}});
  EXPECT_EQ(wrong.code, StatusCode::UNAUTHENTICATED);
  auto ok = f.client->call(Operation::kGetExtendedAgentCard, Json::object(),
                           {{"a2a-version", "1.0"}, {"authorization", "Bearer a2a-conform"}});
  ASSERT_EQ(ok.code, StatusCode::OK) << ok.message;
  EXPECT_EQ(ok.body["name"], "a2a-ref-agent");
}

TEST(GrpcAgent, AnExpiredDeadlineEndsABlockingCallAndTheServerStaysHealthy) {
  GrpcFixture f;  // max_block 3 s; tck-cancel never finishes
  auto t0 = std::chrono::steady_clock::now();
  auto r = f.client->call(Operation::kSendMessage, send_params("tck-cancel block"), kV1Md, core::Millis(300));
  EXPECT_EQ(r.code, StatusCode::DEADLINE_EXCEEDED);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(2500));
  auto s = f.client->stream(Operation::kSendStreamingMessage, send_params("tck-cancel stream"), kV1Md,
                            core::Millis(300));
  EXPECT_EQ(s.code, StatusCode::DEADLINE_EXCEEDED);
  EXPECT_FALSE(s.events.empty());  // the task came before the deadline
  auto t1 = std::chrono::steady_clock::now();
  EXPECT_EQ(f.client->call(Operation::kSendMessage, send_params("hi")).code, StatusCode::OK);
  EXPECT_LT(std::chrono::steady_clock::now() - t1, std::chrono::milliseconds(1000));
}

TEST(GrpcAgent, StopEndsOpenStreamsAndBlockedCalls) {
  GrpcFixture f;
  std::future<GrpcReply> open = std::async(std::launch::async, [&] {
    return f.client->stream(Operation::kSendStreamingMessage, send_params("tck-cancel open"), kV1Md,
                            core::Millis(8000));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto t0 = std::chrono::steady_clock::now();
  f.server->stop();
  ASSERT_EQ(open.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_NE(open.get().code, StatusCode::OK);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(3000));
}

TEST(GrpcAgent, ServesTheHttpAgentsTasksAndIsListedOnItsCard) {
  GrpcAgentOptions go;
  go.log_fd = -1;
  auto grpc_agent = GrpcAgent::start(go);
  ASSERT_TRUE(grpc_agent.ok());
  HttpAgentOptions ho;
  ho.extra_interfaces.push_back((*grpc_agent)->interface());
  auto http_agent = start_agent({}, ho);
  ASSERT_TRUE(http_agent);
  (*grpc_agent)->attach(http_agent->core());
  Json card = body_json(http(*http_agent, "GET", "/.well-known/agent-card.json"));
  ASSERT_EQ(card["supportedInterfaces"].size(), 3u) << card.dump();
  const Json& g = card["supportedInterfaces"][2];
  EXPECT_EQ(g["protocolBinding"], "GRPC");
  EXPECT_EQ(g["protocolVersion"], "1.0");
  EXPECT_EQ(g["url"], "127.0.0.1:" + std::to_string((*grpc_agent)->port()));
  Json sent = body_json(rpc(*http_agent, "SendMessage", send_params("tck-complete-task shared")));
  ASSERT_TRUE(sent.contains("result")) << sent.dump();
  std::string id = sent["result"]["task"]["id"];
  GrpcClient client((*grpc_agent)->port());
  auto got = client.call(Operation::kGetTask, Json{{"id", id}});
  ASSERT_EQ(got.code, StatusCode::OK) << got.message;
  EXPECT_EQ(got.body["id"], id);
  EXPECT_EQ(state_of(got.body), "TASK_STATE_COMPLETED");
  (*grpc_agent)->stop();
  http_agent->stop();
}

TEST(GrpcAgent, APushConfigCreatedOverGrpcIsDelivered) {
  // A webhook on the transport's HTTP server records the POSTed bodies.
  std::mutex mu;
  std::condition_variable cv;
  std::vector<Json> bodies;
  auto hook = transport::HttpServer::start({}, [&](std::shared_ptr<transport::HttpExchange> ex) {
    {
      std::lock_guard<std::mutex> lk(mu);
      bodies.push_back(Json::parse(ex->request().body, nullptr, false));
    }
    cv.notify_all();
    ex->reply(transport::ServerReply{200, {}, "", false});
  });
  ASSERT_TRUE(hook.ok());
  GrpcAgentOptions go;
  go.log_fd = -1;
  auto grpc_agent = GrpcAgent::start(go);
  ASSERT_TRUE(grpc_agent.ok());
  auto http_agent = start_agent();
  ASSERT_TRUE(http_agent);
  (*grpc_agent)->attach(http_agent->core());
  GrpcClient client((*grpc_agent)->port());
  auto sent = client.call(Operation::kSendMessage,
                          send_params("tck-long-running delay=400", Json{{"returnImmediately", true}}));
  ASSERT_EQ(sent.code, StatusCode::OK) << sent.message;
  std::string id = sent.body["task"]["id"];
  std::string url = "http://127.0.0.1:" + std::to_string((*hook)->port()) + "/hook";
  auto created = client.call(Operation::kCreatePushConfig, Json{{"taskId", id}, {"url", url}});
  ASSERT_EQ(created.code, StatusCode::OK) << created.message;
  {
    std::unique_lock<std::mutex> lk(mu);
    cv.wait_for(lk, std::chrono::seconds(8), [&] {
      for (const auto& b : bodies)
        if (b.is_object() && b.contains("statusUpdate") &&
            b["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED")
          return true;
      return false;
    });
    ASSERT_FALSE(bodies.empty()) << "no webhook POST";
    EXPECT_EQ(bodies.back()["statusUpdate"]["taskId"], id) << Json(bodies).dump();
    EXPECT_EQ(bodies.back()["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
  }
  (*grpc_agent)->stop();
  http_agent->stop();
  (*hook)->stop(core::Millis(1000));
}

TEST(GrpcAgent, CallsBeforeAttachAreUnavailable) {
  GrpcAgentOptions go;
  go.log_fd = -1;
  auto a = GrpcAgent::start(go);
  ASSERT_TRUE(a.ok());
  GrpcClient client((*a)->port());
  EXPECT_EQ(client.call(Operation::kGetTask, Json{{"id", "x"}}).code, StatusCode::UNAVAILABLE);
}

}  // namespace
}  // namespace a2a::agent::testing
