// JSON-RPC over HTTP (spec §9): every operation, streams, envelope errors,
// version rules, media types and limits, on a real agent on 127.0.0.1:0.
#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/http_test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

class HttpJsonRpc : public ::testing::Test {
 protected:
  void SetUp() override {
    agent = start_agent();
    ASSERT_TRUE(agent);
  }
  // The result of a successful call (fails the test otherwise).
  Json call(const std::string& method, const Json& params) {
    RawResponse r = rpc(*agent, method, params);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("Content-Type"), "application/json");
    Json j = body_json(r);
    EXPECT_TRUE(j.contains("result")) << r.body;
    EXPECT_EQ(j["id"], 1);
    return j.value("result", Json());
  }
  Json error_of(const RawResponse& r) {
    Json j = body_json(r);
    EXPECT_TRUE(j.contains("error")) << r.body;
    return j.value("error", Json());
  }
  std::unique_ptr<HttpAgent> agent;
};

TEST_F(HttpJsonRpc, EveryUnaryOperationAnswers) {
  Json sent = call("SendMessage", msg_params("hello"));
  ASSERT_TRUE(sent.contains("task"));
  std::string id = sent["task"]["id"];
  EXPECT_EQ(state_of(sent["task"]), "TASK_STATE_COMPLETED");
  EXPECT_EQ(call("GetTask", {{"id", id}, {"historyLength", 0}})["id"], id);
  Json list = call("ListTasks", {{"pageSize", 10}});
  EXPECT_GE(list["tasks"].size(), 1u);
  EXPECT_TRUE(list.contains("nextPageToken"));
  std::string working = call("SendMessage", msg_params("tck-cancel", {{"returnImmediately", true}}))["task"]["id"];
  EXPECT_EQ(state_of(call("CancelTask", {{"id", working}})), "TASK_STATE_CANCELED");
  Json cfg = call("CreateTaskPushNotificationConfig", {{"taskId", id}, {"url", "http://127.0.0.1:9/hook"}});
  ASSERT_TRUE(cfg.contains("id"));
  EXPECT_EQ(call("GetTaskPushNotificationConfig", {{"taskId", id}, {"id", cfg["id"]}})["url"], "http://127.0.0.1:9/hook");
  EXPECT_EQ(call("ListTaskPushNotificationConfigs", {{"taskId", id}})["configs"].size(), 1u);
  EXPECT_TRUE(call("DeleteTaskPushNotificationConfig", {{"taskId", id}, {"id", cfg["id"]}}).is_null());
  EXPECT_EQ(call("GetExtendedAgentCard", nullptr)["name"], "a2a-ref-agent");
}

TEST_F(HttpJsonRpc, StreamIsSseOfJsonRpcResponsesWithTheRequestId) {
  RawResponse r = rpc(*agent, "SendStreamingMessage", msg_params("tck-stream-basic"), "s-1");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Content-Type"), "text/event-stream");
  EXPECT_EQ(r.header("Cache-Control"), "no-cache");
  EXPECT_TRUE(r.complete) << "the body ends when the task is terminal";
  auto events = sse_data(r.body);
  ASSERT_EQ(events.size(), 4u) << r.body;
  std::vector<std::string> kinds;
  for (const auto& e : events) {
    EXPECT_EQ(e["jsonrpc"], "2.0");
    EXPECT_EQ(e["id"], "s-1");
    kinds.push_back(kind_of(e["result"]));
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"task", "statusUpdate", "artifactUpdate", "statusUpdate"}));
  EXPECT_EQ(events[3]["result"]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST_F(HttpJsonRpc, SubscribeStreamsTheTaskThenItsUpdates) {
  std::string id = call("SendMessage", msg_params("tck-cancel", {{"returnImmediately", true}}))["task"]["id"];
  std::thread canceler([&] {
    std::this_thread::sleep_for(core::Millis(300));
    rpc(*agent, "CancelTask", {{"id", id}});
  });
  RawResponse r = rpc(*agent, "SubscribeToTask", {{"id", id}}, 7);
  canceler.join();
  auto events = sse_data(r.body);
  ASSERT_GE(events.size(), 2u) << r.body;
  EXPECT_EQ(kind_of(events[0]["result"]), "task");
  EXPECT_EQ(events.back()["result"]["statusUpdate"]["status"]["state"], "TASK_STATE_CANCELED");
}

TEST_F(HttpJsonRpc, MidStreamErrorIsAnErrorEventWithTheSameIdAndEndsTheStream) {
  RawResponse r = rpc(*agent, "SendStreamingMessage", msg_params("tck-stream-error"), 3);
  auto events = sse_data(r.body);
  auto err = std::find_if(events.begin(), events.end(), [](const Json& e) { return e.contains("error"); });
  ASSERT_NE(err, events.end()) << r.body;
  EXPECT_EQ((*err)["id"], 3);
  EXPECT_EQ((*err)["error"]["code"], -32603);
  EXPECT_EQ(&*err, &events.back()) << "the error ends the stream: " << r.body;
  EXPECT_NE(r.body.find("event: error\n"), std::string::npos) << r.body;
}

TEST_F(HttpJsonRpc, ErrorBeforeTheFirstEventIsAPlainJsonError) {
  RawResponse r = rpc(*agent, "SubscribeToTask", {{"id", "no-such-task"}});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Content-Type"), "application/json");
  Json e = error_of(r);
  EXPECT_EQ(e["code"], -32001);
  EXPECT_EQ(e["data"][0]["reason"], "TASK_NOT_FOUND");
}

TEST_F(HttpJsonRpc, EnvelopeErrors) {
  RawResponse parse = http(*agent, "POST", "/", kJson, std::string("{nope"));
  EXPECT_EQ(parse.status, 200);
  EXPECT_EQ(error_of(parse)["code"], -32700);
  EXPECT_TRUE(body_json(parse)["id"].is_null());
  RawResponse batch = http(*agent, "POST", "/", kJson, std::string(R"([{"jsonrpc":"2.0","id":1,"method":"GetTask"}])"));
  EXPECT_EQ(error_of(batch)["code"], -32600);
  EXPECT_TRUE(body_json(batch)["id"].is_null());
  EXPECT_TRUE(body_json(batch).is_object()) << "one error, not an array";
  RawResponse bad_id = http(*agent, "POST", "/", kJson, std::string(R"({"jsonrpc":"2.0","id":{},"method":"GetTask"})"));
  EXPECT_EQ(error_of(bad_id)["code"], -32600);
  RawResponse unknown = rpc(*agent, "tasks/get", {{"id", "x"}});
  EXPECT_EQ(error_of(unknown)["code"], -32601);
  RawResponse bad_params = rpc(*agent, "GetTask", {{"historyLength", -1}, {"id", "x"}});
  EXPECT_EQ(error_of(bad_params)["code"], -32602);
}

TEST_F(HttpJsonRpc, NotificationGets204WithoutBody) {
  RawResponse r = http(*agent, "POST", "/", kJson, std::string(R"({"jsonrpc":"2.0","method":"GetTask","params":{}})"));
  EXPECT_EQ(r.status, 204);
  EXPECT_TRUE(r.body.empty());
}

TEST_F(HttpJsonRpc, WrongOrMissingContentTypeIs415WithAJsonRpcBody) {
  for (const HeaderList& h : {HeaderList{{"Content-Type", "text/plain"}, {"A2A-Version", "1.0"}},
                              HeaderList{{"A2A-Version", "1.0"}},
                              HeaderList{{"Content-Type", "application/a2a+json"}, {"A2A-Version", "1.0"}}}) {
    RawResponse r = rpc(*agent, "GetTask", {{"id", "x"}}, 1, h);
    EXPECT_EQ(r.status, 415);
    Json e = error_of(r);
    EXPECT_EQ(e["code"], -32600);
    EXPECT_NE(e["message"].get<std::string>().find("application/json"), std::string::npos);
  }
  RawResponse with_params =
      rpc(*agent, "GetExtendedAgentCard", nullptr, 1, {{"Content-Type", "Application/JSON; charset=utf-8"}, {"A2A-Version", "1.0"}});
  EXPECT_EQ(with_params.status, 200) << "parameters and case do not matter";
}

TEST_F(HttpJsonRpc, VersionRules) {
  RawResponse missing = rpc(*agent, "GetExtendedAgentCard", nullptr, 1, {{"Content-Type", "application/json"}});
  Json e = error_of(missing);
  EXPECT_EQ(e["code"], -32009);
  EXPECT_NE(e["message"].get<std::string>().find("0.3"), std::string::npos) << e;
  EXPECT_EQ(body_json(missing)["id"], 1);
  RawResponse two = rpc(*agent, "GetExtendedAgentCard", nullptr, 1, {{"Content-Type", "application/json"}, {"A2A-Version", "2.0"}});
  EXPECT_NE(error_of(two)["message"].get<std::string>().find("'2.0'"), std::string::npos);
  RawResponse empty = rpc(*agent, "GetExtendedAgentCard", nullptr, 1, {{"Content-Type", "application/json"}, {"A2A-Version", ""}});
  EXPECT_EQ(error_of(empty)["code"], -32009);
  RawResponse old = rpc(*agent, "GetExtendedAgentCard", nullptr, 1, {{"Content-Type", "application/json"}, {"A2A-Version", "0.3"}});
  EXPECT_EQ(error_of(old)["code"], -32009);
  RawResponse patch = rpc(*agent, "GetExtendedAgentCard", nullptr, 1, {{"Content-Type", "application/json"}, {"A2A-Version", "1.0.7"}});
  EXPECT_TRUE(body_json(patch).contains("result")) << "patch digits are ignored";
  EXPECT_EQ(patch.header("A2A-Version"), "1.0");
  RawResponse query = http(*agent, "POST", "/?A2A-Version=1.0", {{"Content-Type", "application/json"}},
                           std::string(R"({"jsonrpc":"2.0","id":2,"method":"GetExtendedAgentCard"})"));
  EXPECT_TRUE(body_json(query).contains("result")) << "R2: the version may be a query parameter";
}

TEST_F(HttpJsonRpc, LimitsAre413And414WithJsonRpcBodies) {
  Json big = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "GetTask"}, {"params", {{"id", std::string(5u << 20, 'x')}}}};
  RawResponse r413 = http(*agent, "POST", "/", kJson, big.dump());
  EXPECT_EQ(r413.status, 413);
  EXPECT_EQ(error_of(r413)["code"], -32600);
  RawResponse r414 = http(*agent, "POST", "/?q=" + std::string(5000, 'a'), kJson,
                          std::string(R"({"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard"})"));
  EXPECT_EQ(r414.status, 414);
  EXPECT_EQ(error_of(r414)["code"], -32600);
}

TEST(HttpJsonRpcOnly, RootAnswers405ToGetAndOtherPaths404) {
  HttpAgentOptions o;
  o.interfaces = {HttpBinding::kJsonRpc};
  auto agent = start_agent({}, o);
  ASSERT_TRUE(agent);
  EXPECT_EQ(http(*agent, "GET", "/").status, 405);
  EXPECT_EQ(http(*agent, "GET", "/tasks").status, 404);
  EXPECT_EQ(body_json(rpc(*agent, "GetExtendedAgentCard", nullptr))["result"]["supportedInterfaces"].size(), 1u);
}

}  // namespace
}  // namespace a2a::agent
