#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

struct StreamingFixture {
  StreamOpen open(const std::string& text, const Json& extra = Json::object()) {
    return core.open_stream(Operation::kSendStreamingMessage, send_params(text, nullptr, extra));
  }
  std::vector<std::string> kinds(const std::vector<Json>& events) {
    std::vector<std::string> out;
    for (const auto& e : events) out.push_back(kind_of(e));
    return out;
  }
  AgentCore core{fast_config()};
};

TEST(Unit, StreamBasicIsTaskWorkingArtifactCompleted) {
  StreamingFixture fx;
  StreamOpen s = fx.open("tck-stream-basic");
  ASSERT_TRUE(s.stream);
  Drained d = drain(*s.stream);
  EXPECT_TRUE(d.ended);
  ASSERT_EQ(fx.kinds(d.events), (std::vector<std::string>{"task", "statusUpdate", "artifactUpdate", "statusUpdate"}));
  EXPECT_EQ(d.events[0]["task"]["status"]["state"], "TASK_STATE_SUBMITTED");
  EXPECT_EQ(d.events[1]["statusUpdate"]["status"]["state"], "TASK_STATE_WORKING");
  EXPECT_EQ(d.events[2]["artifactUpdate"]["artifact"]["parts"][0]["text"], "Streamed content");
  EXPECT_EQ(d.events[3]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
  std::string id = d.events[0]["task"]["id"];
  for (size_t i = 1; i < d.events.size(); ++i) {
    const Json& ev = d.events[i].begin().value();
    EXPECT_EQ(ev["taskId"], id);
    EXPECT_EQ(ev["contextId"], d.events[0]["task"]["contextId"]);
  }
}

TEST(Unit, ChunkedStreamSendsThreeChunksLastOneMarked) {
  StreamingFixture fx;
  Drained d = drain(*fx.open("tck-stream-chunked").stream);
  std::vector<Json> chunks;
  for (const auto& e : d.events) {
    if (e.contains("artifactUpdate")) chunks.push_back(e["artifactUpdate"]);
  }
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_FALSE(chunks[0].value("append", false));
  EXPECT_TRUE(chunks[1].value("append", false));
  EXPECT_TRUE(chunks[2].value("append", false));
  EXPECT_FALSE(chunks[0].value("lastChunk", false));
  EXPECT_FALSE(chunks[1].value("lastChunk", false));
  EXPECT_TRUE(chunks[2].value("lastChunk", false));
}

TEST(Unit, NonStreamBehaviourStreamsTaskWorkingArtifactsFinal) {
  StreamingFixture fx;
  Drained d = drain(*fx.open("tck-artifact-data").stream);
  ASSERT_GE(d.events.size(), 4u);
  EXPECT_EQ(kind_of(d.events.front()), "task");
  EXPECT_EQ(d.events.back()["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST(Unit, MessageResponseStreamsExactlyOneMessage) {
  StreamingFixture fx;
  Drained d = drain(*fx.open("tck-message-response").stream);
  EXPECT_TRUE(d.ended);
  ASSERT_EQ(d.events.size(), 1u);
  EXPECT_EQ(kind_of(d.events[0]), "message");
}

TEST(Unit, StreamEndsAtInterruptedState) {
  StreamingFixture fx;
  AgentCore& core = fx.core;
  Drained d = drain(*fx.open("tck-input-required").stream, core::Millis(2000));
  EXPECT_TRUE(d.ended);
  EXPECT_EQ(d.events.back()["statusUpdate"]["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
}

TEST(Unit, FollowUpStreamStartsWithTheWorkingTask) {
  StreamingFixture fx;
  AgentCore& core = fx.core;
  Json t = send_task(core, "tck-multi-turn");
  Drained d = drain(*fx.open("done", {{"taskId", t["id"]}}).stream);
  ASSERT_FALSE(d.events.empty());
  EXPECT_EQ(d.events[0]["task"]["status"]["state"], "TASK_STATE_WORKING");
  EXPECT_EQ(d.events.back()["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST(Unit, MidStreamErrorIsAnErrorItemThenFailed) {
  StreamingFixture fx;
  Drained d = drain(*fx.open("tck-stream-error").stream);
  ASSERT_EQ(d.errors.size(), 1u);
  EXPECT_EQ(d.errors[0].code, -32603);
  EXPECT_EQ(d.events.back()["statusUpdate"]["status"]["state"], "TASK_STATE_FAILED");
}

TEST(Unit, ErrorsBeforeTheFirstEventRefuseTheStream) {
  StreamingFixture fx;
  AgentCore& core = fx.core;
  StreamOpen s = core.open_stream(Operation::kSendStreamingMessage, Json::object());
  EXPECT_FALSE(s.stream);
  ASSERT_TRUE(s.error);
  EXPECT_EQ(s.error->code, -32602);
}

TEST(Unit, SubscribeGivesSnapshotThenUpdatesUntilTerminal) {
  StreamingFixture fx;
  AgentCore& core = fx.core;
  Json t = send_task(core, "tck-long-running delay=200", {{"returnImmediately", true}});
  StreamOpen s = core.open_stream(Operation::kSubscribeToTask, {{"id", t["id"]}});
  ASSERT_TRUE(s.stream);
  Drained d = drain(*s.stream);
  ASSERT_GE(d.events.size(), 2u);
  EXPECT_EQ(d.events[0]["task"]["id"], t["id"]);
  EXPECT_EQ(d.events[0]["task"]["status"]["state"], "TASK_STATE_WORKING");
  EXPECT_EQ(d.events.back()["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST(Unit, TwoSubscribersSeeTheSameEventsInOrder) {
  StreamingFixture fx;
  AgentCore& core = fx.core;
  Json t = send_task(core, "tck-cancel", {{"returnImmediately", true}});
  StreamOpen a = core.open_stream(Operation::kSubscribeToTask, {{"id", t["id"]}});
  StreamOpen b = core.open_stream(Operation::kSubscribeToTask, {{"id", t["id"]}});
  ASSERT_TRUE(core.call(Operation::kCancelTask, {{"id", t["id"]}}).ok());
  Drained da = drain(*a.stream), db = drain(*b.stream);
  EXPECT_EQ(da.events, db.events);
  EXPECT_EQ(da.events.back()["statusUpdate"]["status"]["state"], "TASK_STATE_CANCELED");
}

TEST(Unit, CanceledStreamEndsAndOthersContinue) {
  StreamingFixture fx;
  AgentCore& core = fx.core;
  Json t = send_task(core, "tck-cancel", {{"returnImmediately", true}});
  StreamOpen a = core.open_stream(Operation::kSubscribeToTask, {{"id", t["id"]}});
  StreamOpen b = core.open_stream(Operation::kSubscribeToTask, {{"id", t["id"]}});
  a.stream->cancel();
  EXPECT_EQ(a.stream->next(core::Deadline::after(core::Millis(100))).kind, StreamItem::Kind::kEnd);
  EXPECT_EQ(b.stream->next(core::Deadline::after(core::Millis(100))).kind, StreamItem::Kind::kEvent);  // snapshot
  EXPECT_EQ(b.stream->next(core::Deadline::after(core::Millis(50))).kind, StreamItem::Kind::kTimeout);
  core.call(Operation::kCancelTask, {{"id", t["id"]}});
  EXPECT_EQ(b.stream->next(core::Deadline::after(core::Millis(1000))).kind, StreamItem::Kind::kEvent);
}

TEST(Unit, SubscribeErrorsForUnknownAndTerminalTasks) {
  StreamingFixture fx;
  AgentCore& core = fx.core;
  StreamOpen unknown = core.open_stream(Operation::kSubscribeToTask, {{"id", "nope"}});
  ASSERT_TRUE(unknown.error);
  EXPECT_EQ(unknown.error->code, -32001);
  Json t = send_task(core, "tck-complete-task");
  StreamOpen terminal = core.open_stream(Operation::kSubscribeToTask, {{"id", t["id"]}});
  ASSERT_TRUE(terminal.error);
  EXPECT_EQ(terminal.error->code, -32004);
}

TEST(Unit, ShutdownEndsOpenStreams) {
  StreamingFixture fx;
  AgentCore& core = fx.core;
  Json t = send_task(core, "tck-cancel", {{"returnImmediately", true}});
  StreamOpen s = core.open_stream(Operation::kSubscribeToTask, {{"id", t["id"]}});
  s.stream->next(core::Deadline::after(core::Millis(100)));
  core.shutdown();
  EXPECT_EQ(s.stream->next(core::Deadline::after(core::Millis(1000))).kind, StreamItem::Kind::kEnd);
}

TEST(Unit, StreamFaultsDropTheFirstTask) {
  StreamingFixture fx;
  AgentConfig c = fast_config();
  c.faults = faults_of({Fault::kSemStreamNoTaskFirst, Fault::kSemSubscribeNoSnapshot});
  AgentCore faulty(c);
  Drained d = drain(*faulty.open_stream(Operation::kSendStreamingMessage, send_params("tck-stream-basic")).stream);
  ASSERT_FALSE(d.events.empty());
  EXPECT_EQ(kind_of(d.events[0]), "statusUpdate");
  Json t = send_task(faulty, "tck-long-running delay=100", {{"returnImmediately", true}});
  Drained s = drain(*faulty.open_stream(Operation::kSubscribeToTask, {{"id", t["id"]}}).stream);
  ASSERT_FALSE(s.events.empty());
  EXPECT_NE(kind_of(s.events[0]), "task");
}

}  // namespace
}  // namespace a2a::agent
