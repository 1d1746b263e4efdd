// A2A 0.3 <-> 1.0 translation: request params and results per operation,
// stream events and errors, on literal JSON written from a2a-protocol.md §3.9-3.11,
// §4.1, §4.5, §6 and §9.
#include <gtest/gtest.h>

#include <string>

#include "runner/a2a/v03.hpp"
#include "runner/a2a/v03_test_util.hpp"

using namespace a2a::model;
using namespace a2a::model::v03;
using namespace a2a::model::v03::testing;

namespace {

// --- request params ------------------------------------------------------------------

TEST(V03, SendMessageParamsMapBlockingAndThePushConfig) {
  const Json v03 =
      J(R"({"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hi"}]},
    "configuration":{"blocking":false,"acceptedOutputModes":["text/plain"],"historyLength":2,
      "pushNotificationConfig":{"url":"https://h.example/hook","token":"tok",
                                "authentication":{"schemes":["Bearer"],"credentials":"s3"}}},
    "metadata":{"trace":"1"}})");
  const Json v1 = J(R"({"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]},
    "configuration":{"returnImmediately":true,"acceptedOutputModes":["text/plain"],"historyLength":2,
      "taskPushNotificationConfig":{"url":"https://h.example/hook","token":"tok",
                                    "authentication":{"scheme":"Bearer","credentials":"s3"}}},
    "metadata":{"trace":"1"}})");
  for (Operation op : {Operation::kSendMessage, Operation::kSendStreamingMessage}) {
    EXPECT_TRUE(Clean(params_to_v1(op, v03), v1));
    EXPECT_TRUE(Clean(params_to_v03(op, v1), v03));
  }
}

TEST(V03, BlockingTrueOrAbsentIsTheOneZeroDefault) {
  const Json msg03 = J(R"({"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"x"}]})");
  const Json msg1 = J(R"({"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]})");
  const auto up = [&](const Json& cfg) {
    return params_to_v1(Operation::kSendMessage, {{"message", msg03}, {"configuration", cfg}});
  };
  EXPECT_TRUE(Clean(up(J(R"({"blocking":true})")), {{"message", msg1}, {"configuration", Json::object()}}));
  EXPECT_TRUE(Clean(up(Json::object()), {{"message", msg1}, {"configuration", Json::object()}}));
  // 1.0 -> 0.3 always says blocking explicitly: the JS SDK reads a missing one as non-blocking.
  EXPECT_TRUE(Clean(params_to_v03(Operation::kSendMessage, {{"message", msg1}, {"configuration", Json::object()}}),
                    {{"message", msg03}, {"configuration", {{"blocking", true}}}}));
  EXPECT_TRUE(Clean(params_to_v03(Operation::kSendMessage, {{"message", msg1}}), {{"message", msg03}}));
  EXPECT_TRUE(Noted(up(J(R"({"blocking":"yes"})")), "params.configuration.blocking: must be a boolean"));
}

TEST(V03, ProtoJsonSendRequestWithoutBlockingReturnsImmediately) {
  const Json msg1 = J(R"({"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]})");
  const Json msg_proto = J(R"({"messageId":"m","role":"ROLE_USER","content":[{"text":"x"}]})");
  // proto3 `bool blocking` defaults to false (§9.2): the Python 0.3 REST server returns at once.
  EXPECT_TRUE(Clean(params_to_v1(Operation::kSendMessage, {{"request", msg_proto}}, Dialect::kProtoJson),
                    {{"message", msg1}, {"configuration", {{"returnImmediately", true}}}}));
  EXPECT_TRUE(
      Clean(params_to_v1(Operation::kSendMessage, {{"message", msg_proto}, {"configuration", {{"blocking", true}}}},
                         Dialect::kProtoJson),
            {{"message", msg1}}));
  EXPECT_TRUE(Clean(params_to_v03(Operation::kSendMessage, {{"message", msg1}}, Dialect::kProtoJson),
                    {{"message", msg_proto}, {"configuration", {{"blocking", true}}}}));
  const Json push1 = {{"configuration", {{"taskPushNotificationConfig", {{"url", "https://h"}}}}}};
  EXPECT_TRUE(Clean(params_to_v03(Operation::kSendMessage, push1, Dialect::kProtoJson),
                    {{"configuration", {{"blocking", true}, {"pushNotification", {{"url", "https://h"}}}}}}));
}

TEST(V03, TaskIdParamsPassThroughInJsonRpcAndBecomeResourceNamesInProtoJson) {
  const Json get1 = J(R"({"id":"t-1","historyLength":3})");
  EXPECT_TRUE(Clean(params_to_v03(Operation::kGetTask, get1), get1));
  EXPECT_TRUE(Clean(params_to_v1(Operation::kGetTask, get1), get1));
  const Json get_proto = J(R"({"name":"tasks/t-1","historyLength":3})");
  EXPECT_TRUE(Clean(params_to_v03(Operation::kGetTask, get1, Dialect::kProtoJson), get_proto));
  EXPECT_TRUE(Clean(params_to_v1(Operation::kGetTask, get_proto, Dialect::kProtoJson), get1));
  const Json cancel1 = J(R"({"id":"t-1","metadata":{"why":"bored"}})");
  EXPECT_TRUE(Clean(params_to_v1(Operation::kCancelTask, cancel1), cancel1));
  EXPECT_TRUE(Clean(params_to_v03(Operation::kSubscribeToTask, J(R"({"id":"t-1"})"), Dialect::kProtoJson),
                    J(R"({"name":"tasks/t-1"})")));
  EXPECT_TRUE(Noted(params_to_v1(Operation::kCancelTask, J(R"({"name":"task/t-1"})"), Dialect::kProtoJson),
                    "params.name: must be a \"tasks/{id}\" resource name, got \"task/t-1\""));
}

TEST(V03, CreatePushConfigParamsFlattenTheNestedConfig) {
  const Json v03 = J(R"({"taskId":"t-1","pushNotificationConfig":{"id":"c-1","url":"https://h/x","token":"tok",
    "authentication":{"schemes":["Bearer"],"credentials":"s"}}})");
  const Json v1 = J(R"({"taskId":"t-1","id":"c-1","url":"https://h/x","token":"tok",
    "authentication":{"scheme":"Bearer","credentials":"s"}})");
  EXPECT_TRUE(Clean(params_to_v1(Operation::kCreatePushConfig, v03), v1));
  EXPECT_TRUE(Clean(params_to_v03(Operation::kCreatePushConfig, v1), v03));
  const Json proto =
      J(R"({"parent":"tasks/t-1","configId":"c-1","config":{"name":"tasks/t-1/pushNotificationConfigs/c-1",
    "pushNotificationConfig":{"id":"c-1","url":"https://h/x","token":"tok","authentication":{"schemes":["Bearer"],"credentials":"s"}}}})");
  EXPECT_TRUE(Clean(params_to_v03(Operation::kCreatePushConfig, v1, Dialect::kProtoJson), proto));
  EXPECT_TRUE(Clean(params_to_v1(Operation::kCreatePushConfig, proto, Dialect::kProtoJson), v1));
}

TEST(V03, SeveralPushAuthSchemesKeepTheFirstWithANote) {
  const Translation t = params_to_v1(
      Operation::kCreatePushConfig,
      J(R"({"taskId":"t","pushNotificationConfig":{"url":"https://h","authentication":{"schemes":["Bearer","Basic"]}}})"));
  EXPECT_EQ(t.json["authentication"], J(R"({"scheme":"Bearer"})"));
  EXPECT_TRUE(Noted(t, "params.pushNotificationConfig.authentication.schemes: 1.0 holds one scheme; kept \"Bearer\""));
  EXPECT_TRUE(Noted(params_to_v1(Operation::kCreatePushConfig, J(R"({"taskId":"t"})")),
                    "params.pushNotificationConfig: must be an object, got null"));
}

TEST(V03, GetAndDeletePushConfigParamsSwapTheIdNames) {
  const Json v03 = J(R"({"id":"t-1","pushNotificationConfigId":"c-1"})");
  const Json v1 = J(R"({"taskId":"t-1","id":"c-1"})");
  const Json proto = J(R"({"name":"tasks/t-1/pushNotificationConfigs/c-1"})");
  for (Operation op : {Operation::kGetPushConfig, Operation::kDeletePushConfig}) {
    EXPECT_TRUE(Clean(params_to_v1(op, v03), v1));
    EXPECT_TRUE(Clean(params_to_v03(op, v1), v03));
    EXPECT_TRUE(Clean(params_to_v03(op, v1, Dialect::kProtoJson), proto));
    EXPECT_TRUE(Clean(params_to_v1(op, proto, Dialect::kProtoJson), v1));
  }
}

TEST(V03, ListPushConfigParamsRenameTheTaskId) {
  EXPECT_TRUE(Clean(params_to_v1(Operation::kListPushConfigs, J(R"({"id":"t-1"})")), J(R"({"taskId":"t-1"})")));
  EXPECT_TRUE(Clean(params_to_v03(Operation::kListPushConfigs, J(R"({"taskId":"t-1","pageSize":5})")),
                    J(R"({"id":"t-1","pageSize":5})")));
  EXPECT_TRUE(Clean(params_to_v03(Operation::kListPushConfigs, J(R"({"taskId":"t-1"})"), Dialect::kProtoJson),
                    J(R"({"parent":"tasks/t-1"})")));
  EXPECT_TRUE(Clean(
      params_to_v1(Operation::kListPushConfigs, J(R"({"parent":"tasks/t-1","pageToken":"p"})"), Dialect::kProtoJson),
      J(R"({"taskId":"t-1","pageToken":"p"})")));
}

TEST(V03, ExtendedCardParamsPassThrough) {
  EXPECT_TRUE(Clean(params_to_v03(Operation::kGetExtendedAgentCard, nullptr), nullptr));
  EXPECT_TRUE(Clean(params_to_v1(Operation::kGetExtendedAgentCard, Json::object()), Json::object()));
}

// --- results ------------------------------------------------------------------------

TEST(V03, SendMessageResultIsABareTaskOrMessageIn03AndAWrapperIn10) {
  EXPECT_TRUE(Clean(result_to_v1(Operation::kSendMessage, J(kTask03)), {{"task", J(kTask1)}}));
  EXPECT_TRUE(Clean(result_to_v03(Operation::kSendMessage, {{"task", J(kTask1)}}), J(kTask03)));
  EXPECT_TRUE(Clean(result_to_v1(Operation::kSendMessage, J(kMessage03)), {{"message", J(kMessage1)}}));
  EXPECT_TRUE(Clean(result_to_v03(Operation::kSendMessage, {{"message", J(kMessage1)}}), J(kMessage03)));
  const Json proto_task = J(R"({"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_CANCELLED"}}})");
  const Json v1_task = J(R"({"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_CANCELED"}}})");
  EXPECT_TRUE(Clean(result_to_v1(Operation::kSendMessage, proto_task, Dialect::kProtoJson), v1_task));
  EXPECT_TRUE(Clean(result_to_v03(Operation::kSendMessage, v1_task, Dialect::kProtoJson), proto_task));
}

TEST(V03, SendMessageResultShapeErrorsAreNoted) {
  const Translation no_kind =
      result_to_v1(Operation::kSendMessage, J(R"({"id":"t","contextId":"c","status":{"state":"working"}})"));
  EXPECT_TRUE(Noted(no_kind, "result.kind: missing; read as task"));
  EXPECT_TRUE(no_kind.json.contains("task"));
  EXPECT_TRUE(Noted(
      result_to_v1(
          Operation::kSendMessage,
          J(R"({"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working"},"final":false})")),
      "result: must be a Task or a Message, got statusUpdate"));
  EXPECT_TRUE(Noted(result_to_v1(Operation::kSendMessage, J(R"({"task":{"id":"t"}})")),
                    "result: a StreamResponse wrapper; 0.3 JSON-RPC sends the bare object"));
  EXPECT_TRUE(Noted(result_to_v03(Operation::kSendMessage, J(kTask1)), "result: must be a SendMessageResponse"));
}

TEST(V03, GetTaskAndCancelTaskResultsAreBareTasksInBothVersions) {
  for (Operation op : {Operation::kGetTask, Operation::kCancelTask}) {
    EXPECT_TRUE(Clean(result_to_v1(op, J(kTask03)), J(kTask1)));
    EXPECT_TRUE(Clean(result_to_v03(op, J(kTask1)), J(kTask03)));
  }
}

TEST(V03, PushConfigResultsNestIn03AndFlattenIn10) {
  const Json v03 = J(R"({"taskId":"t-1","pushNotificationConfig":{"id":"c-1","url":"https://h/x"}})");
  const Json v1 = J(R"({"taskId":"t-1","id":"c-1","url":"https://h/x"})");
  const Json proto = J(
      R"({"name":"tasks/t-1/pushNotificationConfigs/c-1","pushNotificationConfig":{"id":"c-1","url":"https://h/x"}})");
  for (Operation op : {Operation::kCreatePushConfig, Operation::kGetPushConfig}) {
    EXPECT_TRUE(Clean(result_to_v1(op, v03), v1));
    EXPECT_TRUE(Clean(result_to_v03(op, v1), v03));
    EXPECT_TRUE(Clean(result_to_v03(op, v1, Dialect::kProtoJson), proto));
    EXPECT_TRUE(Clean(result_to_v1(op, proto, Dialect::kProtoJson), v1));
  }
}

TEST(V03, PushConfigListIsABareArrayIn03) {
  const Json v03 = J(R"([{"taskId":"t-1","pushNotificationConfig":{"id":"c-1","url":"https://h/x"}}])");
  const Json v1 = J(R"({"configs":[{"taskId":"t-1","id":"c-1","url":"https://h/x"}]})");
  EXPECT_TRUE(Clean(result_to_v1(Operation::kListPushConfigs, v03), v1));
  EXPECT_TRUE(Clean(result_to_v03(Operation::kListPushConfigs, v1), v03));
  EXPECT_TRUE(
      Clean(result_to_v03(Operation::kListPushConfigs, J(R"({"configs":[],"nextPageToken":""})")), Json::array()));
  const Translation paged = result_to_v03(Operation::kListPushConfigs, J(R"({"configs":[],"nextPageToken":"p2"})"));
  EXPECT_TRUE(Noted(paged, "result.nextPageToken: 0.3 has no paging"));
  EXPECT_TRUE(Noted(result_to_v1(Operation::kListPushConfigs, J(R"({"configs":[]})")), "result: must be an array"));
  const Json proto = J(
      R"({"configs":[{"name":"tasks/t-1/pushNotificationConfigs/c-1","pushNotificationConfig":{"id":"c-1","url":"https://h/x"}}],"nextPageToken":"p"})");
  const Json v1_paged = J(R"({"configs":[{"taskId":"t-1","id":"c-1","url":"https://h/x"}],"nextPageToken":"p"})");
  EXPECT_TRUE(Clean(result_to_v1(Operation::kListPushConfigs, proto, Dialect::kProtoJson), v1_paged));
  EXPECT_TRUE(Clean(result_to_v03(Operation::kListPushConfigs, v1_paged, Dialect::kProtoJson), proto));
}

TEST(V03, DeletePushConfigResultIsNull) {
  EXPECT_TRUE(Clean(result_to_v1(Operation::kDeletePushConfig, nullptr), nullptr));
  EXPECT_TRUE(Clean(result_to_v03(Operation::kDeletePushConfig, nullptr), nullptr));
  EXPECT_TRUE(Clean(result_to_v1(Operation::kDeletePushConfig, Json::object(), Dialect::kProtoJson), nullptr));
  EXPECT_TRUE(Noted(result_to_v1(Operation::kDeletePushConfig, 5), "result: must be null, got 5"));
}

// --- stream events ------------------------------------------------------------------

TEST(V03, AStatusUpdateWithFinalTrueReportsFinal) {
  const Json v03 =
      J(R"({"kind":"status-update","taskId":"t-1","contextId":"c-1","status":{"state":"completed"},"final":true})");
  const Json v1 = J(R"({"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"}}})");
  const Translation up = event_to_v1(v03);
  EXPECT_TRUE(Clean(up, v1));
  EXPECT_TRUE(up.final);
  const Translation working = event_to_v1(
      J(R"({"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working"},"final":false})"));
  EXPECT_TRUE(working.ok());
  EXPECT_FALSE(working.final);
  const Translation no_final =
      event_to_v1(J(R"({"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working"}})"));
  EXPECT_TRUE(Noted(no_final, "event.final: missing; 0.3 requires a boolean"));
  EXPECT_FALSE(no_final.final);
}

TEST(V03, TerminalAndInterruptedStatesSetFinalGoingTo03) {
  for (const auto& s : kStateCases) {
    SCOPED_TRACE(s.rpc);
    const bool want = is_terminal(s.state) || is_interrupted(s.state);
    const Json v1 = {
        {"statusUpdate", {{"taskId", "t"}, {"contextId", "c"}, {"status", {{"state", to_string(s.state)}}}}}};
    const Translation rpc = event_to_v03(v1);
    EXPECT_TRUE(Clean(rpc, {{"kind", "status-update"},
                            {"taskId", "t"},
                            {"contextId", "c"},
                            {"status", {{"state", s.rpc}}},
                            {"final", want}}));
    EXPECT_EQ(rpc.final, want);
    const Translation proto = event_to_v03(v1, Dialect::kProtoJson);
    EXPECT_EQ(proto.final, want);
    EXPECT_EQ(proto.json["statusUpdate"].contains("final"), want) << "ProtoJSON omits final:false";
  }
}

TEST(V03, StreamItemsOfEveryKindMapBothWays) {
  const Json art03 = J(R"({"kind":"artifact-update","taskId":"t","contextId":"c","append":true,"lastChunk":true,
    "artifact":{"artifactId":"a","parts":[{"kind":"text","text":"two"}]}})");
  const Json art1 = J(R"({"artifactUpdate":{"taskId":"t","contextId":"c","append":true,"lastChunk":true,
    "artifact":{"artifactId":"a","parts":[{"text":"two"}]}}})");
  EXPECT_TRUE(Clean(event_to_v1(art03), art1));
  EXPECT_TRUE(Clean(event_to_v03(art1), art03));
  EXPECT_TRUE(Clean(event_to_v1(J(kTask03)), {{"task", J(kTask1)}}));
  EXPECT_TRUE(Clean(event_to_v03({{"task", J(kTask1)}}), J(kTask03)));
  EXPECT_TRUE(Clean(event_to_v1(J(kMessage03)), {{"message", J(kMessage1)}}));
  EXPECT_FALSE(event_to_v1(J(kMessage03)).final) << "final is the status-update flag only";
  for (Operation op : {Operation::kSendStreamingMessage, Operation::kSubscribeToTask}) {
    EXPECT_TRUE(Clean(result_to_v1(op, art03), art1));
    EXPECT_TRUE(Clean(result_to_v03(op, art1), art03));
  }
}

TEST(V03, ArtifactUpdateFalseFlagsAreDroppedGoingTo10) {
  const Json v03 = J(R"({"kind":"artifact-update","taskId":"t","contextId":"c","append":false,"lastChunk":false,
    "artifact":{"artifactId":"a","parts":[{"kind":"text","text":"one"}]}})");
  EXPECT_TRUE(Clean(event_to_v1(v03), J(R"({"artifactUpdate":{"taskId":"t","contextId":"c",
    "artifact":{"artifactId":"a","parts":[{"text":"one"}]}}})")));
}

TEST(V03, ProtoJsonStreamItemsAreWrappers) {
  const Json proto = J(
      R"({"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_INPUT_REQUIRED"},"final":true}})");
  const Translation up = event_to_v1(proto, Dialect::kProtoJson);
  EXPECT_TRUE(Clean(
      up, J(R"({"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_INPUT_REQUIRED"}}})")));
  EXPECT_TRUE(up.final);
  EXPECT_TRUE(Noted(event_to_v1(J(kTask03), Dialect::kProtoJson), "event: not a StreamResponse wrapper; read as task"));
}

TEST(V03, MalformedStreamItemsAreNotedNotThrown) {
  EXPECT_TRUE(Noted(event_to_v03(J(R"({"task":{},"message":{}})")), "event: must be a StreamResponse"));
  EXPECT_TRUE(
      Noted(event_to_v1(J(R"({"kind":"progress","taskId":"t"})")), "event.kind: unknown 0.3 event kind \"progress\""));
  EXPECT_TRUE(Noted(event_to_v1(J(R"({"foo":1})")), "event.kind: missing"));
  EXPECT_TRUE(Noted(event_to_v1(J("[]")), "event: must be an object, got an array"));
  EXPECT_TRUE(Noted(
      event_to_v1(
          J(R"({"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working"},"final":"yes"})")),
      "event.final: must be a boolean, got \"yes\""));
}

// --- errors ---------------------------------------------------------------------------

TEST(V03, ErrorCodesAreKeptAndFreeFormDataBecomesAValueDetail) {
  const Json v03 = J(R"({"code":-32001,"message":"Task not found","data":{"taskId":"t-9"}})");
  const Json v1 = J(R"({"code":-32001,"message":"Task not found",
    "data":[{"@type":"type.googleapis.com/google.protobuf.Value","value":{"taskId":"t-9"}}]})");
  EXPECT_TRUE(Clean(error_to_v1(v03), v1));
  EXPECT_TRUE(Clean(error_to_v03(v1), v03));
  const Json plain = J(R"({"code":-32602,"message":"Invalid parameters"})");
  EXPECT_TRUE(Clean(error_to_v1(plain), plain));
  EXPECT_TRUE(Clean(error_to_v03(plain), plain));
}

TEST(V03, OneZeroErrorDetailsAreKeptGoingTo03) {
  const Json v1 = J(R"({"code":-32007,"message":"Authenticated Extended Card is not configured",
    "data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"EXTENDED_AGENT_CARD_NOT_CONFIGURED",
             "domain":"a2a-protocol.org"}]})");
  EXPECT_TRUE(Clean(error_to_v03(v1), v1));
  EXPECT_TRUE(Clean(error_to_v1(v1), v1)) << "a 0.3 agent may already send typed details";
}

TEST(V03, ErrorsWithoutA03NameAreKeptWithANote) {
  for (int code : {-32008, -32009}) {
    const Translation t = error_to_v03({{"code", code}, {"message", "m"}});
    EXPECT_EQ(t.json["code"], code);
    EXPECT_TRUE(Noted(t, "error.code: " + std::to_string(code)));
    EXPECT_TRUE(Noted(t, "has no 0.3 equivalent; kept"));
  }
}

TEST(V03, MalformedErrorObjectsAreNoted) {
  EXPECT_TRUE(Noted(error_to_v1(J(R"("boom")")), "error: must be an object, got \"boom\""));
  const Translation t = error_to_v1(J(R"({"code":"x"})"));
  EXPECT_TRUE(Noted(t, "error.code: must be an integer, got \"x\""));
  EXPECT_TRUE(Noted(t, "error.message: must be a string, got null"));
}

}  // namespace
