// A2A 0.3 <-> 1.0 translation: method names, enums, parts, messages and tasks,
// on literal JSON written from a2a-protocol.md §3.1-3.7, §4.1 and §9.
#include "runner/a2a/v03.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "runner/a2a/v03_test_util.hpp"

using namespace a2a::model;
using namespace a2a::model::v03;
using namespace a2a::model::v03::testing;

namespace {

// --- method names ---------------------------------------------------------------

struct MethodCase {
  Operation op;
  const char* v03;
  const char* v1;
};
constexpr std::array<MethodCase, 10> kMethodCases = {{
    {Operation::kSendMessage, "message/send", "SendMessage"},
    {Operation::kSendStreamingMessage, "message/stream", "SendStreamingMessage"},
    {Operation::kGetTask, "tasks/get", "GetTask"},
    {Operation::kCancelTask, "tasks/cancel", "CancelTask"},
    {Operation::kSubscribeToTask, "tasks/resubscribe", "SubscribeToTask"},
    {Operation::kCreatePushConfig, "tasks/pushNotificationConfig/set", "CreateTaskPushNotificationConfig"},
    {Operation::kGetPushConfig, "tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig"},
    {Operation::kListPushConfigs, "tasks/pushNotificationConfig/list", "ListTaskPushNotificationConfigs"},
    {Operation::kDeletePushConfig, "tasks/pushNotificationConfig/delete", "DeleteTaskPushNotificationConfig"},
    {Operation::kGetExtendedAgentCard, "agent/getAuthenticatedExtendedCard", "GetExtendedAgentCard"},
}};

TEST(V03, MethodNamesMapBothWaysForEveryOperationExceptListTasks) {
  for (const auto& m : kMethodCases) {
    SCOPED_TRACE(m.v1);
    const auto by_op = v03_method(m.op);
    ASSERT_TRUE(by_op.ok());
    EXPECT_EQ(*by_op, m.v03);
    EXPECT_EQ(operation_from_v03_method(m.v03), m.op);
    const auto down = method_to_v03(m.v1);
    ASSERT_TRUE(down.ok());
    EXPECT_EQ(*down, m.v03);
    const auto up = method_to_v1(m.v03);
    ASSERT_TRUE(up.ok());
    EXPECT_EQ(*up, m.v1);
  }
}

TEST(V03, ListTasksHasNoV03MethodAndSaysSoAsAnErrorValue) {
  const auto by_op = v03_method(Operation::kListTasks);
  ASSERT_FALSE(by_op.ok());
  EXPECT_EQ(by_op.error().kind, a2a::core::ErrorKind::kNotFound);
  EXPECT_NE(by_op.error().message.find("ListTasks"), std::string::npos);
  EXPECT_FALSE(method_to_v03("ListTasks").ok());

  const Json params = J(R"({"contextId":"c-1","pageSize":5})");
  const Translation t = params_to_v03(Operation::kListTasks, params);
  EXPECT_TRUE(Noted(t, "params: ListTasks has no A2A 0.3 JSON-RPC method"));
  EXPECT_EQ(t.json, params) << "the input comes back unchanged";
  EXPECT_TRUE(Noted(result_to_v1(Operation::kListTasks, J(R"({"tasks":[]})")), "ListTasks"));
}

TEST(V03, UnknownMethodNamesAreErrorValues) {
  EXPECT_EQ(method_to_v1("tasks/list").error().kind, a2a::core::ErrorKind::kNotFound);
  EXPECT_EQ(method_to_v1("SendMessage").error().kind, a2a::core::ErrorKind::kNotFound) << "names do not mix";
  EXPECT_EQ(method_to_v03("message/send").error().kind, a2a::core::ErrorKind::kNotFound);
  EXPECT_EQ(operation_from_v03_method("tasks/subscribe"), std::nullopt) << "0.3 spelled it tasks/resubscribe";
}

// --- enums ----------------------------------------------------------------------


TEST(V03, EveryTaskStateMapsBothWaysInBothDialects) {
  for (const auto& s : kStateCases) {
    SCOPED_TRACE(s.rpc);
    EXPECT_EQ(task_state_name(s.state, Dialect::kJsonRpc), s.rpc);
    EXPECT_EQ(task_state_name(s.state, Dialect::kProtoJson), s.proto);
    EXPECT_EQ(task_state_from_v03(s.rpc, Dialect::kJsonRpc), s.state);
    EXPECT_EQ(task_state_from_v03(s.proto, Dialect::kProtoJson), s.state);

    const Json v03 = {{"kind", "task"}, {"id", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", s.rpc}}}};
    const Json v1 = {{"id", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", to_string(s.state)}}}};
    EXPECT_TRUE(Clean(task_to_v1(v03), v1));
    EXPECT_TRUE(Clean(task_to_v03(v1), v03));
    const Json proto = {{"id", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", s.proto}}}};
    EXPECT_TRUE(Clean(task_to_v1(proto, Dialect::kProtoJson), v1));
    EXPECT_TRUE(Clean(task_to_v03(v1, Dialect::kProtoJson), proto));
  }
}

TEST(V03, AStateInTheWrongSpellingIsReadButNoted) {
  const Translation t =
      task_to_v1(J(R"({"kind":"task","id":"t","contextId":"c","status":{"state":"TASK_STATE_CANCELLED"}})"));
  EXPECT_EQ(t.json["status"]["state"], "TASK_STATE_CANCELED");
  EXPECT_TRUE(Noted(t, "task.status.state: \"TASK_STATE_CANCELLED\" is the 0.3 ProtoJSON spelling"));
  const Translation v1_name =
      task_to_v1(J(R"({"id":"t","contextId":"c","status":{"state":"TASK_STATE_CANCELED"}})"), Dialect::kProtoJson);
  EXPECT_EQ(v1_name.json["status"]["state"], "TASK_STATE_CANCELED");
  EXPECT_TRUE(Noted(v1_name, "is a 1.0 name, not a 0.3 task state"));
}

TEST(V03, AnUnknownStateIsKeptAndNoted) {
  const Translation t = task_to_v1(J(R"({"kind":"task","id":"t","contextId":"c","status":{"state":"done"}})"));
  EXPECT_EQ(t.json["status"]["state"], "done");
  EXPECT_TRUE(Noted(t, "task.status.state: unknown 0.3 task state \"done\""));
  EXPECT_TRUE(Noted(task_to_v03(J(R"({"id":"t","status":{"state":"TASK_STATE_DONE"}})")), "unknown 1.0 task state"));
}

TEST(V03, RolesMapBothWaysAndUnspecifiedHasNoJsonRpcName) {
  EXPECT_EQ(role_name(Role::kUser), "user");
  EXPECT_EQ(role_name(Role::kAgent), "agent");
  EXPECT_EQ(role_name(Role::kUnspecified), "");
  EXPECT_EQ(role_name(Role::kAgent, Dialect::kProtoJson), "ROLE_AGENT");
  EXPECT_EQ(role_from_v03("agent"), Role::kAgent);
  EXPECT_EQ(role_from_v03("ROLE_USER", Dialect::kProtoJson), Role::kUser);
  EXPECT_EQ(role_from_v03("ROLE_USER"), std::nullopt);
  const Translation t = message_to_v03(J(R"({"messageId":"m","role":"ROLE_UNSPECIFIED","parts":[{"text":"x"}]})"));
  EXPECT_EQ(t.json["role"], "ROLE_UNSPECIFIED");
  EXPECT_TRUE(Noted(t, "message.role: no 0.3 role for \"ROLE_UNSPECIFIED\""));
}

// --- parts ----------------------------------------------------------------------

struct PartCase {
  const char* name;
  Dialect dialect;
  const char* v03;
  const char* v1;
};
const PartCase kPartCases[] = {
    {"text", Dialect::kJsonRpc, R"({"kind":"text","text":"hi","metadata":{"a":1}})",
     R"({"text":"hi","metadata":{"a":1}})"},
    {"file bytes", Dialect::kJsonRpc,
     R"({"kind":"file","file":{"name":"a.png","mimeType":"image/png","bytes":"aGk="}})",
     R"({"raw":"aGk=","filename":"a.png","mediaType":"image/png"})"},
    {"file uri", Dialect::kJsonRpc, R"({"kind":"file","file":{"uri":"https://f.example/a.pdf"},"metadata":{"m":true}})",
     R"({"url":"https://f.example/a.pdf","metadata":{"m":true}})"},
    {"data object", Dialect::kJsonRpc, R"({"kind":"data","data":{"city":"Oslo"}})", R"({"data":{"city":"Oslo"}})"},
    {"data array", Dialect::kJsonRpc, R"({"kind":"data","data":{"value":[1,2]},"metadata":{"data_part_compat":true}})",
     R"({"data":[1,2]})"},
    {"data string keeps metadata", Dialect::kJsonRpc,
     R"({"kind":"data","data":{"value":"s"},"metadata":{"x":1,"data_part_compat":true}})",
     R"({"data":"s","metadata":{"x":1}})"},
    {"text mediaType carried", Dialect::kJsonRpc, R"({"kind":"text","text":"hi","mediaType":"text/plain"})",
     R"({"text":"hi","mediaType":"text/plain"})"},
    {"proto text", Dialect::kProtoJson, R"({"text":"hi"})", R"({"text":"hi"})"},
    {"proto file uri", Dialect::kProtoJson,
     R"({"file":{"fileWithUri":"https://f.example/y.pdf","mimeType":"application/pdf","name":"y.pdf"}})",
     R"({"url":"https://f.example/y.pdf","mediaType":"application/pdf","filename":"y.pdf"})"},
    {"proto file bytes", Dialect::kProtoJson, R"({"file":{"fileWithBytes":"aGk="}})", R"({"raw":"aGk="})"},
    {"proto data", Dialect::kProtoJson, R"({"data":{"data":{"k":1}},"metadata":{"p":2}})",
     R"({"data":{"k":1},"metadata":{"p":2}})"},
};

TEST(V03, EveryPartKindMapsBothWaysInBothDialects) {
  for (const auto& p : kPartCases) {
    SCOPED_TRACE(p.name);
    EXPECT_TRUE(Clean(part_to_v1(J(p.v03), p.dialect), J(p.v1)));
    EXPECT_TRUE(Clean(part_to_v03(J(p.v1), p.dialect), J(p.v03)));
  }
}

struct BadPart {
  const char* input;
  const char* note;
};
const BadPart kBadParts[] = {
    {R"(5)", "part: must be an object, got 5"},
    {R"({"kind":"video","video":"x"})", "part.kind: unknown 0.3 part kind \"video\""},
    {R"({"kind":"file","file":"x"})", "part.file: must be an object, got \"x\""},
    {R"({"kind":"file","file":{"name":"a"}})", "part.file: exactly one of bytes, uri"},
    {R"({"kind":"file","file":{"bytes":"aGk=","uri":"https://x"}})", "part.file: exactly one of bytes, uri"},
    {R"({"text":"hi"})", "part.kind: missing; read as \"text\""},
    {R"({"kind":"text","text":7})", "part.text: must be a string, got 7"},
    {R"({"kind":"text"})", "part.text: missing for a part of kind \"text\""},
    {R"({"kind":"data","data":[1]})", "part.data: must be an object in 0.3"},
    {R"({"kind":"file","file":{"fileWithUri":"https://x"}})", "part.file.fileWithUri: is the 0.3 ProtoJSON name"},
};

TEST(V03, WrongPartShapesGiveNotesNotExceptions) {
  for (const auto& b : kBadParts) {
    SCOPED_TRACE(b.input);
    Translation t;
    EXPECT_NO_THROW(t = part_to_v1(J(b.input)));
    EXPECT_TRUE(Noted(t, b.note));
  }
  const Translation two = part_to_v03(J(R"({"text":"a","url":"https://x"})"));
  EXPECT_TRUE(Noted(two, "part: exactly one of text, raw, url, data"));
  EXPECT_EQ(two.json, J(R"({"text":"a","url":"https://x"})"));
}

TEST(V03, UnknownFileMembersAreCarriedOntoThePart) {
  const Translation t = part_to_v1(J(R"({"kind":"file","file":{"uri":"https://x","sha256":"ab"},"extra":1})"));
  EXPECT_TRUE(Clean(t, J(R"({"url":"https://x","sha256":"ab","extra":1})")));
}

// --- messages and tasks --------------------------------------------------------------


TEST(V03, MessageMapsKindRoleAndPartsBothWays) {
  EXPECT_TRUE(Clean(message_to_v1(J(kMessage03)), J(kMessage1)));
  EXPECT_TRUE(Clean(message_to_v03(J(kMessage1)), J(kMessage03)));
}

TEST(V03, ProtoJsonMessageKeepsItsPartsInContent) {
  const Json proto = J(R"({"messageId":"m","role":"ROLE_AGENT","content":[{"text":"hi"}]})");
  const Json v1 = J(R"({"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"hi"}]})");
  EXPECT_TRUE(Clean(message_to_v1(proto, Dialect::kProtoJson), v1));
  EXPECT_TRUE(Clean(message_to_v03(v1, Dialect::kProtoJson), proto));
}

TEST(V03, AMessageWithoutKindOrWithTheWrongKindIsNoted) {
  EXPECT_TRUE(Noted(message_to_v1(J(R"({"messageId":"m","role":"user","parts":[]})")),
                    "message.kind: missing; 0.3 JSON-RPC requires \"message\""));
  const Translation t = message_to_v1(J(R"({"kind":"task","messageId":"m","role":"user","parts":[]})"));
  EXPECT_TRUE(Noted(t, "message.kind: \"task\" where \"message\" was expected"));
  EXPECT_FALSE(t.json.contains("kind"));
}


TEST(V03, TaskWithStatusMessageArtifactsAndHistoryMapsBothWays) {
  EXPECT_TRUE(Clean(task_to_v1(J(kTask03)), J(kTask1)));
  EXPECT_TRUE(Clean(task_to_v03(J(kTask1)), J(kTask03)));
}

TEST(V03, ProtoJsonStatusAcceptsTheUpdateFieldName) {
  const Json proto = J(R"({"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING",
    "update":{"messageId":"m","role":"ROLE_AGENT","content":[{"text":"busy"}]}}})");
  const Json v1 = J(R"({"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING",
    "message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"busy"}]}}})");
  EXPECT_TRUE(Clean(task_to_v1(proto, Dialect::kProtoJson), v1));
}

TEST(V03, WrongShapesInsideATaskAreNotedWithTheirPath) {
  const Translation t = task_to_v1(J(R"({"kind":"task","id":"t","status":"x","artifacts":5,"history":[5]})"));
  EXPECT_TRUE(Noted(t, "task.status: must be an object, got \"x\""));
  EXPECT_TRUE(Noted(t, "task.artifacts: must be an array, got 5"));
  EXPECT_TRUE(Noted(t, "task.history[0]: must be an object, got 5"));
  EXPECT_EQ(t.json["artifacts"], 5) << "wrong shapes are carried over unchanged";
}

}  // namespace
