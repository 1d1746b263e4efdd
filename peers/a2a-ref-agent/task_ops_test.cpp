#include <gtest/gtest.h>

#include <future>

#include "peers/a2a-ref-agent/test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

TEST(Unit, GetTaskReturnsTheBareTask) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-complete-task");
  CallResult r = core.call(Operation::kGetTask, {{"id", t["id"]}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value()["id"], t["id"]);
  EXPECT_EQ(state_of(r.value()), "TASK_STATE_COMPLETED");
  EXPECT_FALSE(r.value().contains("task"));
}

TEST(Unit, GetTaskHistoryLengthUnsetZeroAndN) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-multi-turn");
  send_task(core, "more", nullptr, {{"taskId", t["id"]}});
  send_task(core, "done", nullptr, {{"taskId", t["id"]}});
  auto get = [&](const Json& extra) {
    Json p = {{"id", t["id"]}};
    p.update(extra);
    return core.call(Operation::kGetTask, p);
  };
  EXPECT_EQ(get(Json::object()).value()["history"].size(), 4u);
  EXPECT_FALSE(get({{"historyLength", 0}}).value().contains("history"));
  Json two = get({{"historyLength", 2}}).value()["history"];
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0]["parts"][0]["text"], "done");  // the last n, oldest first
  EXPECT_EQ(get({{"historyLength", 100}}).value()["history"].size(), 4u);
  CallResult neg = get({{"historyLength", -1}});
  ASSERT_FALSE(neg.ok());
  EXPECT_EQ(neg.error().code, -32602);
}

TEST(Unit, GetTaskUnknownIsTaskNotFoundWithActionableMessage) {
  AgentCore core{fast_config()};
  CallResult r = core.call(Operation::kGetTask, {{"id", "00000000-0000-0000-0000-000000000000"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, -32001);
  EXPECT_GE(r.error().message.size(), 12u);
  EXPECT_NE(r.error().message.find("Task not found"), std::string::npos);
  EXPECT_EQ(r.error().data[0]["reason"], "TASK_NOT_FOUND");
}

TEST(Unit, GetTaskWithoutIdIsInvalidParams) {
  AgentCore core{fast_config()};
  EXPECT_EQ(core.call(Operation::kGetTask, Json::object()).error().code, -32602);
  EXPECT_EQ(core.call(Operation::kGetTask, {{"id", 5}}).error().code, -32602);
  EXPECT_EQ(core.call(Operation::kGetTask, nullptr).error().code, -32602);
}

TEST(Unit, CancelMovesAWorkingTaskToCanceled) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-cancel start", {{"returnImmediately", true}});
  ASSERT_EQ(state_of(t), "TASK_STATE_WORKING");
  CallResult r = core.call(Operation::kCancelTask, {{"id", t["id"]}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value()["id"], t["id"]);
  EXPECT_EQ(state_of(r.value()), "TASK_STATE_CANCELED");
  EXPECT_EQ(state_of(core.call(Operation::kGetTask, {{"id", t["id"]}}).value()), "TASK_STATE_CANCELED");
}

TEST(Unit, CancelReleasesABlockedSendAtOnce) {
  AgentCore core{fast_config()};
  std::promise<Json> sent;
  std::thread sender([&] { sent.set_value(send_task(core, "tck-cancel")); });
  // Find the task through ListTasks once it exists.
  Json id;
  for (int i = 0; i < 100 && id.is_null(); ++i) {
    Json list = core.call(Operation::kListTasks, Json::object()).value();
    if (!list["tasks"].empty()) id = list["tasks"][0]["id"];
    std::this_thread::sleep_for(milliseconds(10));
  }
  ASSERT_FALSE(id.is_null());
  core.call(Operation::kCancelTask, {{"id", id}});
  auto fut = sent.get_future();
  ASSERT_EQ(fut.wait_for(std::chrono::seconds(2)), std::future_status::ready);
  EXPECT_EQ(state_of(fut.get()), "TASK_STATE_CANCELED");
  sender.join();
}

TEST(Unit, CancelOfTerminalTaskIsNotCancelableAndLeavesItUnchanged) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-complete-task");
  CallResult r = core.call(Operation::kCancelTask, {{"id", t["id"]}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, -32002);
  EXPECT_EQ(r.error().data[0]["reason"], "TASK_NOT_CANCELABLE");
  EXPECT_EQ(state_of(core.call(Operation::kGetTask, {{"id", t["id"]}}).value()), "TASK_STATE_COMPLETED");
  Json c = send_task(core, "tck-cancel", {{"returnImmediately", true}});
  core.call(Operation::kCancelTask, {{"id", c["id"]}});
  EXPECT_EQ(core.call(Operation::kCancelTask, {{"id", c["id"]}}).error().code, -32002);  // already canceled
}

TEST(Unit, CancelOfUnknownTaskIsTaskNotFound) {
  AgentCore core{fast_config()};
  EXPECT_EQ(core.call(Operation::kCancelTask, {{"id", "missing"}}).error().code, -32001);
}

TEST(Unit, CancelOfAnInterruptedTaskSucceeds) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-input-required");
  EXPECT_EQ(state_of(core.call(Operation::kCancelTask, {{"id", t["id"]}}).value()), "TASK_STATE_CANCELED");
}

TEST(Unit, CanceledLongRunningTaskNeverCompletesLater) {
  AgentCore core{fast_config()};
  Json t = send_task(core, "tck-long-running delay=100", {{"returnImmediately", true}});
  core.call(Operation::kCancelTask, {{"id", t["id"]}});
  std::this_thread::sleep_for(milliseconds(250));
  Json g = core.call(Operation::kGetTask, {{"id", t["id"]}}).value();
  EXPECT_EQ(state_of(g), "TASK_STATE_CANCELED");
  EXPECT_FALSE(g.contains("artifacts"));
}

TEST(Unit, SemanticFaultsBreakCancel) {
  AgentConfig c = fast_config();
  c.faults = faults_of({Fault::kSemTerminalMutable});
  AgentCore mutable_core(c);
  Json t = send_task(mutable_core, "tck-complete-task");
  EXPECT_EQ(state_of(mutable_core.call(Operation::kCancelTask, {{"id", t["id"]}}).value()), "TASK_STATE_CANCELED");

  c.faults = faults_of({Fault::kSemCancelNoop});
  AgentCore noop(c);
  Json w = send_task(noop, "tck-cancel", {{"returnImmediately", true}});
  EXPECT_EQ(state_of(noop.call(Operation::kCancelTask, {{"id", w["id"]}}).value()), "TASK_STATE_WORKING");
}

TEST(Unit, SemanticFaultsBreakSendAndHistory) {
  auto core_with = [](Fault f) {
    AgentConfig c = fast_config();
    c.faults = faults_of({f});
    return std::make_unique<AgentCore>(c);
  };
  auto early = core_with(Fault::kSemBlockingReturnsEarly);
  EXPECT_EQ(state_of(send_task(*early, "tck-long-running delay=100")), "TASK_STATE_WORKING");

  auto history = core_with(Fault::kSemIgnoreHistoryLength);
  EXPECT_TRUE(send_task(*history, "tck-complete-task", {{"historyLength", 0}}).contains("history"));

  auto new_task = core_with(Fault::kSemMultiTurnNewTask);
  Json mt = send_task(*new_task, "tck-multi-turn");
  EXPECT_NE(send_task(*new_task, "done", nullptr, {{"taskId", mt["id"]}})["id"], mt["id"]);

  auto names = core_with(Fault::kSemWrongStateName);
  EXPECT_EQ(state_of(send_task(*names, "tck-complete-task")), "completed");
}

TEST(Unit, ExtendedAgentCardIsAFullCard) {
  AgentCore core{fast_config()};
  CallResult r = core.call(Operation::kGetExtendedAgentCard, nullptr);
  ASSERT_TRUE(r.ok());
  const Json& card = r.value();
  for (const char* k : {"name", "description", "version", "supportedInterfaces", "capabilities",
                        "defaultInputModes", "defaultOutputModes", "skills"}) {
    EXPECT_TRUE(card.contains(k)) << k;
  }
  EXPECT_EQ(card["capabilities"]["streaming"], true);
  EXPECT_EQ(card["capabilities"]["pushNotifications"], true);
  EXPECT_EQ(card["capabilities"]["extendedAgentCard"], true);
  EXPECT_EQ(card["skills"].size(), all_behaviours().size());
  EXPECT_TRUE(core.call(Operation::kGetExtendedAgentCard, Json::object()).ok());
  EXPECT_EQ(core.call(Operation::kGetExtendedAgentCard, 5).error().code, -32602);
}

TEST(Unit, StreamingOperationsAreNotUnary) {
  AgentCore core{fast_config()};
  EXPECT_EQ(core.call(Operation::kSubscribeToTask, {{"id", "x"}}).error().code, -32603);
  EXPECT_TRUE(core.open_stream(Operation::kGetTask, {{"id", "x"}}).error);
}

}  // namespace
}  // namespace a2a::agent
