// A2A 0.3 REST (v03_rest.hpp): 1.0 params -> /v1 route, verb, query and
// ProtoJSON 0.3 body; 0.3 REST error answers -> A2A error codes. Literal JSON
// from a2a-protocol.md §9.2 and the JS SDK's legacy REST router
// (tests/interop/js/README.md, agent-v03.mjs).
#include <gtest/gtest.h>

#include "runner/a2a/v03_rest.hpp"

using namespace a2a::model;
using namespace a2a::model::v03;
using Json = nlohmann::json;

namespace {

TEST(V03Rest, SendMessageIsAProtoJsonPostToMessageSend) {
  Json p = Json::parse(
      R"({"tenant":"acme","message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}})");
  auto c = rest_call_v03(Operation::kSendMessage, p);
  EXPECT_TRUE(c.notes.empty());
  EXPECT_EQ(c.call.method, "POST");
  EXPECT_EQ(c.call.target(), "/v1/message:send");
  ASSERT_TRUE(c.call.body);
  const Json& b = *c.call.body;
  EXPECT_FALSE(b.contains("tenant"));
  EXPECT_EQ(b["message"]["role"], "ROLE_USER");
  EXPECT_EQ(b["message"]["content"], Json::parse(R"([{"text":"hi"}])"));
  EXPECT_FALSE(b["message"].contains("parts"));
  EXPECT_EQ(b["configuration"]["blocking"], true);  // ProtoJSON's default would be false
}

TEST(V03Rest, StreamingMessageGoesToMessageStream) {
  auto c = rest_call_v03(Operation::kSendStreamingMessage,
                         Json::parse(R"({"message":{"messageId":"m1","role":"ROLE_USER","parts":[]}})"));
  EXPECT_EQ(c.call.method, "POST");
  EXPECT_EQ(c.call.path, "/v1/message:stream");
}

TEST(V03Rest, TaskRoutesPutTheIdInThePath) {
  auto get = rest_call_v03(Operation::kGetTask, Json::parse(R"({"id":"t 1/x","historyLength":2})"));
  EXPECT_EQ(get.call.method, "GET");
  EXPECT_EQ(get.call.target(), "/v1/tasks/t%201%2Fx?historyLength=2");
  EXPECT_FALSE(get.call.body);
  auto cancel = rest_call_v03(Operation::kCancelTask, Json::parse(R"({"id":"t1"})"));
  EXPECT_EQ(cancel.call.method, "POST");
  EXPECT_EQ(cancel.call.target(), "/v1/tasks/t1:cancel");
  ASSERT_TRUE(cancel.call.body);
  EXPECT_EQ(*cancel.call.body, Json::object());
  auto sub = rest_call_v03(Operation::kSubscribeToTask, Json::parse(R"({"id":"t1"})"));
  EXPECT_EQ(sub.call.method, "POST");
  EXPECT_EQ(sub.call.target(), "/v1/tasks/t1:subscribe");
}

TEST(V03Rest, AMissingIdIsANote) {
  auto c = rest_call_v03(Operation::kGetTask, Json::object());
  EXPECT_EQ(c.call.path, "/v1/tasks/");
  ASSERT_FALSE(c.notes.empty());
  EXPECT_NE(c.notes.back().find("params.id"), std::string::npos);
}

TEST(V03Rest, PushConfigRoutes) {
  auto create = rest_call_v03(
      Operation::kCreatePushConfig,
      Json::parse(R"({"taskId":"t1","id":"c1","url":"http://127.0.0.1:9/hook","token":"tok"})"));
  EXPECT_EQ(create.call.method, "POST");
  EXPECT_EQ(create.call.path, "/v1/tasks/t1/pushNotificationConfigs");
  ASSERT_TRUE(create.call.body);
  const Json& b = *create.call.body;
  EXPECT_EQ(b["name"], "tasks/t1/pushNotificationConfigs/c1");
  EXPECT_EQ(b["pushNotificationConfig"]["url"], "http://127.0.0.1:9/hook");
  EXPECT_FALSE(b.contains("parent"));

  auto get = rest_call_v03(Operation::kGetPushConfig, Json::parse(R"({"taskId":"t1","id":"c1"})"));
  EXPECT_EQ(get.call.method, "GET");
  EXPECT_EQ(get.call.path, "/v1/tasks/t1/pushNotificationConfigs/c1");
  auto del = rest_call_v03(Operation::kDeletePushConfig, Json::parse(R"({"taskId":"t1","id":"c1"})"));
  EXPECT_EQ(del.call.method, "DELETE");
  EXPECT_EQ(del.call.path, "/v1/tasks/t1/pushNotificationConfigs/c1");
  EXPECT_FALSE(del.call.body);
  auto list = rest_call_v03(Operation::kListPushConfigs, Json::parse(R"({"taskId":"t1"})"));
  EXPECT_EQ(list.call.method, "GET");
  EXPECT_EQ(list.call.target(), "/v1/tasks/t1/pushNotificationConfigs");
}

TEST(V03Rest, ExtendedCardAndListTasks) {
  auto card = rest_call_v03(Operation::kGetExtendedAgentCard, Json::object());
  EXPECT_EQ(card.call.method, "GET");
  EXPECT_EQ(card.call.path, "/v1/card");
  auto list = rest_call_v03(Operation::kListTasks, Json::object());
  EXPECT_TRUE(list.call.method.empty());
  EXPECT_FALSE(list.notes.empty());
}

TEST(V03Rest, ErrorCodeComesFromTheBodyFirst) {
  // JS SDK: bare {code, message}, the HTTP status beside it.
  auto e = rest_error_v03(404, Json::parse(R"({"code":-32001,"message":"Task not found: x"})"), "");
  EXPECT_EQ(e["code"], -32001);
  EXPECT_EQ(e["message"], "Task not found: x");
  // A 400 naming TaskNotCancelable is that, not InvalidParams.
  EXPECT_EQ(rest_error_v03(400, Json::parse(R"({"code":-32002,"message":"m"})"), "")["code"], -32002);
  // The same inside an {"error": ...} wrapper.
  EXPECT_EQ(rest_error_v03(400, Json::parse(R"({"error":{"code":-32004,"message":"m"}})"), "")["code"], -32004);
}

TEST(V03Rest, ErrorInfoReasonBeatsTheHttpStatus) {
  auto e = rest_error_v03(
      400,
      Json::parse(R"({"error":{"code":400,"status":"FAILED_PRECONDITION","message":"m","details":[
        {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE","domain":"a2a-protocol.org"}]}})"),
      "");
  EXPECT_EQ(e["code"], -32002);
}

TEST(V03Rest, WithoutACodeTheHttpStatusIsMapped) {
  auto e = rest_error_v03(404, Json(), "Cannot GET /v1/tasks/x");
  EXPECT_EQ(e["code"], -32001);
  EXPECT_EQ(e["message"], "Cannot GET /v1/tasks/x");
  EXPECT_EQ(rest_error_v03(409, Json::object(), "")["code"], -32002);
  EXPECT_EQ(rest_error_v03(415, Json::object(), "")["code"], -32005);
  EXPECT_EQ(rest_error_v03(400, Json::object(), "")["code"], -32602);
  EXPECT_EQ(rest_error_v03(501, Json::object(), "")["code"], -32004);
  EXPECT_EQ(rest_error_v03(500, Json::object(), "")["code"], -32603);
  // An HTTP-style positive code in an SSE error event is read as that status.
  EXPECT_EQ(rest_error_v03(0, Json::parse(R"({"code":404,"message":"m"})"), "")["code"], -32001);
}

}  // namespace
