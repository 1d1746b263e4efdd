#include <gtest/gtest.h>

#include <set>

#include "peers/a2a-ref-agent/test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

TEST(Unit, CompleteTaskReturnsCompletedTaskWithReplyAndArtifact) {
  AgentCore core{fast_config()};
  CallResult r = core.call(Operation::kSendMessage, send_params("tck-complete-task hello world"));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(model::send_message_response_kind(r.value()), "task");
  Json t = r.value()["task"];
  EXPECT_EQ(state_of(t), "TASK_STATE_COMPLETED");
  EXPECT_FALSE(t["id"].get<std::string>().empty());
  EXPECT_FALSE(t["contextId"].get<std::string>().empty());
  EXPECT_TRUE(model::parse_timestamp_ms(t["status"]["timestamp"].get<std::string>()));
  ASSERT_EQ(t["artifacts"].size(), 1u);
  EXPECT_TRUE(t["artifacts"][0]["parts"][0]["text"].is_string());
  ASSERT_EQ(t["history"].size(), 2u);
  EXPECT_EQ(t["history"][0]["role"], "ROLE_USER");
  EXPECT_EQ(t["history"][0]["taskId"], t["id"]);
  EXPECT_EQ(t["history"][1]["role"], "ROLE_AGENT");
}

TEST(Unit, NoPrefixEchoesTheText) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "just some words");
  EXPECT_EQ(state_of(t), "TASK_STATE_COMPLETED");
  EXPECT_NE(t["artifacts"][0]["parts"][0]["text"].get<std::string>().find("just some words"), std::string::npos);
}

TEST(Unit, MessageResponseIsADirectMessageWithoutTaskOrInventedContext) {
  AgentCore core{fast_config()};
  CallResult r = core.call(Operation::kSendMessage, send_params("tck-message-response hi"));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(model::send_message_response_kind(r.value()), "message");
  Json m = r.value()["message"];
  EXPECT_EQ(m["role"], "ROLE_AGENT");
  EXPECT_FALSE(m.contains("taskId"));
  EXPECT_FALSE(m.contains("contextId"));
  EXPECT_FALSE(m["messageId"].get<std::string>().empty());
}

struct TerminalCase {
  const char* name;
  const char* text;
  const char* state;
  bool status_message;
};
class SendBehaviour : public ::testing::TestWithParam<TerminalCase> {};

TEST_P(SendBehaviour, BlockingSendReturnsTheBehavioursState) {
  AgentCore core(fast_config());
  Json t = send_task(core, GetParam().text);
  ASSERT_FALSE(t.is_null());
  EXPECT_EQ(state_of(t), GetParam().state);
  EXPECT_EQ(t["status"].contains("message"), GetParam().status_message);
}

INSTANTIATE_TEST_SUITE_P(
    Unit, SendBehaviour,
    ::testing::Values(TerminalCase{"failure", "tck-task-failure x", "TASK_STATE_FAILED", true},
                      TerminalCase{"reject", "tck-reject-task x", "TASK_STATE_REJECTED", true},
                      TerminalCase{"input", "tck-input-required x", "TASK_STATE_INPUT_REQUIRED", true},
                      TerminalCase{"auth", "tck-auth-required x", "TASK_STATE_AUTH_REQUIRED", true},
                      TerminalCase{"multi", "tck-multi-turn x", "TASK_STATE_INPUT_REQUIRED", true},
                      TerminalCase{"long", "tck-long-running delay=50", "TASK_STATE_COMPLETED", true},
                      TerminalCase{"stream_basic", "tck-stream-basic", "TASK_STATE_COMPLETED", false},
                      TerminalCase{"stream_error", "tck-stream-error", "TASK_STATE_FAILED", true},
                      TerminalCase{"artifact_text", "tck-artifact-text", "TASK_STATE_COMPLETED", true}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Unit, ChunkedArtifactIsMergedInTheTask) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-stream-chunked");
  ASSERT_EQ(t["artifacts"].size(), 1u);
  EXPECT_EQ(t["artifacts"][0]["parts"].size(), 3u);
}

TEST(Unit, ReturnImmediatelyReturnsAWorkingTaskThatCompletesLater) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-long-running delay=200", {{"returnImmediately", true}});
  EXPECT_EQ(state_of(t), "TASK_STATE_WORKING");
  CallResult g = core.call(Operation::kGetTask, {{"id", t["id"]}});
  EXPECT_EQ(state_of(g.value()), "TASK_STATE_WORKING");
  std::this_thread::sleep_for(milliseconds(400));
  g = core.call(Operation::kGetTask, {{"id", t["id"]}});
  EXPECT_EQ(state_of(g.value()), "TASK_STATE_COMPLETED");
  EXPECT_GE(g.value()["artifacts"].size(), 1u);
}

TEST(Unit, BlockingSendOfCancelBehaviourReturnsWorkingAfterMaxBlock) {
  AgentCore core{fast_config()};
  AgentConfig c = fast_config();
  c.max_block = core::Millis(150);
  AgentCore bounded(c);
  auto start = core::Clock::now();
  Json t = send_task(bounded, "tck-cancel");
  EXPECT_EQ(state_of(t), "TASK_STATE_WORKING");
  EXPECT_GE(core::Clock::now() - start, milliseconds(140));
}

TEST(Unit, ShutdownReleasesABlockedSend) {
  AgentCore core{fast_config()};
  std::thread stopper([&] {
    std::this_thread::sleep_for(milliseconds(100));
    core.shutdown();
  });
  auto start = core::Clock::now();
  Json t = send_task(core, "tck-cancel");
  stopper.join();
  EXPECT_EQ(state_of(t), "TASK_STATE_WORKING");
  EXPECT_LT(core::Clock::now() - start, milliseconds(2000));
}

TEST(Unit, HistoryLengthZeroOmitsHistoryAndNTrims) {
  AgentCore core{fast_config()};
  Json t0 = send_task(core, "tck-complete-task", {{"historyLength", 0}});
  EXPECT_FALSE(t0.contains("history"));
  Json t1 = send_task(core, "tck-complete-task", {{"historyLength", 1}});
  ASSERT_EQ(t1["history"].size(), 1u);
  EXPECT_EQ(t1["history"][0]["role"], "ROLE_AGENT");  // the most recent one
}

TEST(Unit, MultiTurnKeepsTaskAndContextAndCompletesOnDone) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-multi-turn start conversation");
  ASSERT_EQ(state_of(t), "TASK_STATE_INPUT_REQUIRED");
  Json id = t["id"], ctx = t["contextId"];
  Json t2 = send_task(core, "here is more input", nullptr, {{"taskId", id}, {"contextId", ctx}});
  EXPECT_EQ(t2["id"], id);
  EXPECT_EQ(state_of(t2), "TASK_STATE_INPUT_REQUIRED");
  Json t3 = send_task(core, "done", nullptr, {{"taskId", id}});  // contextId inferred
  EXPECT_EQ(t3["id"], id);
  EXPECT_EQ(t3["contextId"], ctx);
  EXPECT_EQ(state_of(t3), "TASK_STATE_COMPLETED");
  // History keeps the user turns in order (the input prompts stay in status only).
  ASSERT_GE(t3["history"].size(), 3u);
  EXPECT_EQ(t3["history"][0]["parts"][0]["text"], "tck-multi-turn start conversation");
  EXPECT_EQ(t3["history"][2]["parts"][0]["text"], "done");
}

TEST(Unit, InputRequiredCompletesOnAnyFollowUp) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-input-required");
  Json t2 = send_task(core, "anything", nullptr, {{"taskId", t["id"]}});
  EXPECT_EQ(state_of(t2), "TASK_STATE_COMPLETED");
}

TEST(Unit, RequestLevelTaskIdOfTheActsFilesIsAccepted) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-multi-turn");
  Json p = send_params("done");
  p["taskId"] = t["id"];
  CallResult r = core.call(Operation::kSendMessage, p);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value()["task"]["id"], t["id"]);
}

TEST(Unit, MessageToTerminalTaskIsUnsupportedOperation) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-complete-task");
  CallResult r = core.call(Operation::kSendMessage, send_params("again", nullptr, {{"taskId", t["id"]}}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, -32004);
  EXPECT_EQ(r.error().data[0]["reason"], "UNSUPPORTED_OPERATION");
}

TEST(Unit, UnknownTaskIdIsTaskNotFoundWithErrorInfo) {
  AgentCore core{fast_config()};
  CallResult r = core.call(Operation::kSendMessage, send_params("x", nullptr, {{"taskId", "no-such-task"}}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, -32001);
  EXPECT_EQ(r.error().data[0]["@type"], "type.googleapis.com/google.rpc.ErrorInfo");
  EXPECT_EQ(r.error().data[0]["domain"], "a2a-protocol.org");
}

TEST(Unit, ContextMismatchAndUnknownContextAreInvalidParams) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-multi-turn");
  CallResult r = core.call(Operation::kSendMessage,
                           send_params("x", nullptr, {{"taskId", t["id"]}, {"contextId", "wrong-context"}}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, -32602);
  CallResult r2 = core.call(Operation::kSendMessage, send_params("x", nullptr, {{"contextId", "client-made"}}));
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error().code, -32602);
}

TEST(Unit, KnownContextIdStartsANewTaskInThatContext) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-complete-task");
  Json t2 = send_task(core, "tck-complete-task", nullptr, {{"contextId", t["contextId"]}});
  EXPECT_NE(t2["id"], t["id"]);
  EXPECT_EQ(t2["contextId"], t["contextId"]);
}

TEST(Unit, InvalidMessagesAreInvalidParamsNamingTheField) {
  AgentCore core{fast_config()};
  Json bad_parts = send_params("x");
  bad_parts["message"]["parts"] = Json::array();
  Json no_message = Json::object();
  Json neg_history = send_params("x", {{"historyLength", -1}});
  Json not_object = Json::array();
  for (const Json& p : {bad_parts, no_message, neg_history, not_object}) {
    CallResult r = core.call(Operation::kSendMessage, p);
    ASSERT_FALSE(r.ok()) << p.dump();
    EXPECT_EQ(r.error().code, -32602) << p.dump();
    EXPECT_EQ(r.error().data[0]["@type"], "type.googleapis.com/google.rpc.BadRequest");
  }
  CallResult r = core.call(Operation::kSendMessage, bad_parts);
  EXPECT_EQ(r.error().data[0]["fieldViolations"][0]["field"], "message.parts");
}

TEST(Unit, UnsupportedMediaTypeIsContentTypeNotSupported) {
  AgentCore core{fast_config()};
  Json p = send_params("x");
  p["message"]["parts"] = Json::array({{{"data", {{"value", "unsupported"}}},
                                        {"metadata", {{"contentType", "application/x-unsupported-type-12345"}}}}});
  CallResult r = core.call(Operation::kSendMessage, p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, -32005);
  p["message"]["parts"] = Json::array({{{"text", "x"}, {"mediaType", "video/mp4"}}});
  EXPECT_EQ(core.call(Operation::kSendMessage, p).error().code, -32005);
  for (const char* ok : {"text/plain; charset=utf-8", "TEXT/MARKDOWN", "image/png", "application/json"}) {
    p["message"]["parts"] = Json::array({{{"text", "x"}, {"mediaType", ok}}});
    EXPECT_TRUE(core.call(Operation::kSendMessage, p).ok()) << ok;
  }
}

TEST(Unit, TaskIdsAreUniqueAcrossManyTasks) {
  AgentCore core{fast_config()};
  std::set<std::string> ids;
  for (int i = 0; i < 50; ++i) ids.insert(send_task(core, "tck-complete-task")["id"].get<std::string>());
  EXPECT_EQ(ids.size(), 50u);
}

TEST(Unit, OnlyASendThatWaitsForATaskMayBlock) {
  AgentCore core{fast_config()};
  // Bindings answer the others on their I/O thread, so a wrong "false" would stall it.
  EXPECT_FALSE(core.may_block(Operation::kSendMessage, send_params("tck-message-response hi")));
  EXPECT_FALSE(core.may_block(Operation::kSendMessage, send_params("tck-cancel", {{"returnImmediately", true}})));
  EXPECT_FALSE(core.may_block(Operation::kSendMessage, Json{{"message", "not an object"}}));
  EXPECT_FALSE(core.may_block(Operation::kGetTask, Json{{"id", "t"}}));
  EXPECT_FALSE(core.may_block(Operation::kCancelTask, Json{{"id", "t"}}));
  EXPECT_FALSE(core.may_block(Operation::kSendMessage, send_params("tck-complete-task")));  // its plan runs at once
  EXPECT_TRUE(core.may_block(Operation::kSendMessage, send_params("tck-long-running delay=500")));
  EXPECT_TRUE(core.may_block(Operation::kSendMessage, send_params("tck-cancel", {{"returnImmediately", false}})));
  EXPECT_TRUE(core.may_block(Operation::kSendMessage, send_params("tck-message-response", nullptr, {{"taskId", "t"}})));
  Json request_level = send_params("tck-message-response");
  request_level["taskId"] = "t";
  EXPECT_TRUE(core.may_block(Operation::kSendMessage, request_level));
}

}  // namespace
}  // namespace a2a::agent
