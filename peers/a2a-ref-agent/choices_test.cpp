// The legal variation's choices (docs/legal-variation.md) through the core:
// each differs from the default and stays within the spec.
#include <gtest/gtest.h>

#include <regex>

#include "peers/a2a-ref-agent/test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

AgentConfig variation_config() {
  AgentConfig c = fast_config();
  c.choices = legal_variation_choices();
  return c;
}

// The payload member of a StreamResponse that also carries unknown members.
std::string payload_of(const Json& event) {
  for (const char* k : {"task", "message", "statusUpdate", "artifactUpdate"})
    if (event.contains(k)) return k;
  return "";
}

bool is_uuid(const std::string& s) {
  static const std::regex kUuid("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
  return std::regex_match(s, kUuid);
}

TEST(LegalVariationCore, IdsAreOpaqueUniqueNonUuidStrings) {
  AgentCore core(variation_config());
  Json a = send_task(core, "tck-complete-task one");
  Json b = send_task(core, "tck-complete-task two");
  ASSERT_TRUE(a.is_object() && b.is_object());
  for (const Json& t : {a, b}) {
    EXPECT_TRUE(t["id"].get<std::string>().starts_with("task-")) << t["id"];
    EXPECT_TRUE(t["contextId"].get<std::string>().starts_with("ctx-")) << t["contextId"];
    EXPECT_FALSE(is_uuid(t["id"])) << t["id"];
    EXPECT_TRUE(t["artifacts"][0]["artifactId"].get<std::string>().starts_with("artifact-"));
    EXPECT_TRUE(t["status"]["message"]["messageId"].get<std::string>().starts_with("msg-"));
  }
  EXPECT_NE(a["id"], b["id"]);
  // The default stays UUIDv7.
  AgentCore ours(fast_config());
  EXPECT_TRUE(is_uuid(send_task(ours, "tck-complete-task")["id"]));
}

TEST(LegalVariationCore, InterruptedTasksHaveNoStatusMessage) {
  AgentCore core(variation_config());
  Json t = send_task(core, "tck-input-required");
  EXPECT_EQ(state_of(t), "TASK_STATE_INPUT_REQUIRED");
  EXPECT_FALSE(t["status"].contains("message"));
  Json done = send_task(core, "more", nullptr, {{"taskId", t["id"]}});
  EXPECT_EQ(state_of(done), "TASK_STATE_COMPLETED");
  EXPECT_TRUE(done["status"].contains("message"));  // only the optional prompt goes
}

TEST(LegalVariationCore, UnknownMembersAndExplicitDefaultsButNotInMaps) {
  AgentCore core(variation_config());
  Json t = send_task(core, "tck-artifact-data");
  EXPECT_TRUE(t.contains("x-variation-note"));
  EXPECT_TRUE(t["status"].contains("x-variation-note"));
  EXPECT_TRUE(t["history"][0].contains("x-variation-note"));
  EXPECT_EQ(t["history"][0]["referenceTaskIds"], Json::array());
  EXPECT_EQ(t["history"][0]["extensions"], Json::array());
  const Json& part = t["artifacts"][0]["parts"][0];
  EXPECT_TRUE(part.contains("x-variation-note"));
  EXPECT_FALSE(part["data"].contains("x-variation-note")) << "a Struct's keys are data";
}

TEST(LegalVariationCore, ListTasksPagesOfTwoByDefaultAndEmptyTokenOnTheLast) {
  AgentCore core(variation_config());
  for (int i = 0; i < 3; ++i) send_task(core, "tck-complete-task");
  Json p1 = core.call(Operation::kListTasks, Json::object()).value();
  EXPECT_EQ(p1["tasks"].size(), 2u);
  EXPECT_EQ(p1["pageSize"], 2);
  EXPECT_EQ(p1["totalSize"], 3);
  ASSERT_NE(p1["nextPageToken"], "");
  Json p2 = core.call(Operation::kListTasks, {{"pageToken", p1["nextPageToken"]}}).value();
  EXPECT_EQ(p2["tasks"].size(), 1u);
  EXPECT_EQ(p2["nextPageToken"], "");
  EXPECT_FALSE(p2["tasks"][0].contains("artifacts")) << "§3.1.4: omitted, not []";
  EXPECT_EQ(core.call(Operation::kListTasks, {{"pageSize", 5}}).value()["tasks"].size(), 3u);
}

TEST(LegalVariationCore, CardDeclaresPushAndExtendedCardOffAndTheOperationsSaySo) {
  AgentCore core(variation_config());
  Json card = agent_card(core.config());
  EXPECT_EQ(card["capabilities"]["pushNotifications"], false);
  EXPECT_EQ(card["capabilities"]["extendedAgentCard"], false);
  EXPECT_EQ(card["capabilities"]["streaming"], true);
  EXPECT_FALSE(card.contains("provider"));
  EXPECT_FALSE(card["skills"][0].contains("examples"));
  Json t = send_task(core, "tck-input-required");
  Json cfg = {{"taskId", t["id"]}, {"url", "http://127.0.0.1:9/hook"}};
  CallResult created = core.call(Operation::kCreatePushConfig, cfg);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error().code, -32003);
  EXPECT_EQ(core.call(Operation::kListPushConfigs, {{"taskId", t["id"]}}).error().code, -32003);
  EXPECT_EQ(core.call(Operation::kGetPushConfig, {{"taskId", t["id"]}, {"id", "x"}}).error().code, -32003);
  EXPECT_EQ(core.call(Operation::kDeletePushConfig, {{"taskId", t["id"]}, {"id", "x"}}).error().code, -32003);
  CallResult inline_cfg = core.call(
      Operation::kSendMessage, send_params("tck-complete-task", {{"taskPushNotificationConfig", {{"url", "http://127.0.0.1:9/h"}}}}));
  ASSERT_FALSE(inline_cfg.ok());
  EXPECT_EQ(inline_cfg.error().code, -32003);
  CallResult ext = core.call(Operation::kGetExtendedAgentCard, Json::object());
  ASSERT_FALSE(ext.ok());
  EXPECT_EQ(ext.error().code, -32004);
}

TEST(LegalVariationCore, LongRunningTakesFiveSecondsWhateverTheTextSays) {
  AgentCore core(variation_config());
  Json t = send_task(core, "tck-long-running delay=10", {{"returnImmediately", true}});
  ASSERT_TRUE(t.is_object());
  std::this_thread::sleep_for(milliseconds(300));
  Json now = core.call(Operation::kGetTask, {{"id", t["id"]}}).value();
  EXPECT_EQ(state_of(now), "TASK_STATE_WORKING") << "delay=10 is ours, not ACTS: the variation ignores it";
  CallResult canceled = core.call(Operation::kCancelTask, {{"id", t["id"]}});
  EXPECT_TRUE(canceled.ok());
}

TEST(LegalVariationCore, StreamStartsWorkingAndIsPaced) {
  AgentCore core(variation_config());
  auto t0 = core::Clock::now();
  StreamOpen open = core.open_stream(Operation::kSendStreamingMessage, send_params("tck-stream-basic"));
  ASSERT_TRUE(open.stream);
  Drained d = drain(*open.stream);
  auto took = std::chrono::duration_cast<milliseconds>(core::Clock::now() - t0);
  ASSERT_TRUE(d.ended);
  // task (already WORKING), statusUpdate WORKING (ACTS §11.2 tck-stream-basic), artifact, completed
  ASSERT_EQ(d.events.size(), 4u);
  EXPECT_EQ(payload_of(d.events[0]), "task");
  EXPECT_EQ(state_of(d.events[0]["task"]), "TASK_STATE_WORKING");
  EXPECT_EQ(payload_of(d.events[1]), "statusUpdate");
  EXPECT_EQ(state_of(d.events[1]["statusUpdate"]), "TASK_STATE_WORKING");
  EXPECT_EQ(payload_of(d.events[2]), "artifactUpdate");
  EXPECT_EQ(d.events[2]["artifactUpdate"]["append"], false);
  EXPECT_EQ(d.events[2]["artifactUpdate"]["lastChunk"], true);
  EXPECT_EQ(payload_of(d.events[3]), "statusUpdate");
  EXPECT_GE(took.count(), 300) << "100 ms between events";
  for (const auto& e : d.events) {
    EXPECT_TRUE(e[payload_of(e)].contains("x-variation-note"));
    EXPECT_EQ(e.size(), 1u) << "the wrapper keeps its single member (the 0.3 translation reads it)";
  }
}

TEST(LegalVariationCore, ACanceledStreamEndsAtOnce) {
  AgentCore core(variation_config());
  StreamOpen open = core.open_stream(Operation::kSendStreamingMessage, send_params("tck-cancel"));
  ASSERT_TRUE(open.stream);
  StreamItem first = open.stream->next(core::Deadline::after(core::Millis(2000)));
  ASSERT_EQ(first.kind, StreamItem::Kind::kEvent);
  open.stream->cancel();
  EXPECT_EQ(open.stream->next(core::Deadline::after(core::Millis(2000))).kind, StreamItem::Kind::kEnd);
}

}  // namespace
}  // namespace a2a::agent
