#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

struct PushConfigsFixture {
  PushConfigsFixture() { task_id = send_task(core, "tck-complete-task")["id"]; }
  CallResult create(const Json& extra) {
    Json p = {{"taskId", task_id}, {"url", "https://example.com/hook"}};
    p.update(extra);
    return core.call(Operation::kCreatePushConfig, p);
  }
  AgentCore core{fast_config()};
  Json task_id;
};

TEST(Unit, CreateAssignsIdAndEchoesTheConfig) {
  PushConfigsFixture fx;
  CallResult r = fx.create({{"token", "tok"}, {"authentication", {{"scheme", "Bearer"}, {"credentials", "c"}}}});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value()["id"].get<std::string>().empty());
  EXPECT_EQ(r.value()["taskId"], fx.task_id);
  EXPECT_EQ(r.value()["url"], "https://example.com/hook");
  EXPECT_EQ(r.value()["token"], "tok");
  EXPECT_EQ(r.value()["authentication"]["scheme"], "Bearer");
}

TEST(Unit, SameIdReplacesAndGetListDeleteWork) {
  PushConfigsFixture fx;
  AgentCore& core = fx.core;
  ASSERT_TRUE(fx.create({{"id", "cfg-1"}}).ok());
  ASSERT_TRUE(fx.create({{"id", "cfg-1"}, {"url", "https://example.com/other"}}).ok());
  ASSERT_TRUE(fx.create({{"id", "cfg-2"}}).ok());
  Json got = core.call(Operation::kGetPushConfig, {{"taskId", fx.task_id}, {"id", "cfg-1"}}).value();
  EXPECT_EQ(got["url"], "https://example.com/other");
  Json listed = core.call(Operation::kListPushConfigs, {{"taskId", fx.task_id}}).value();
  EXPECT_EQ(listed["configs"].size(), 2u);
  CallResult del = core.call(Operation::kDeletePushConfig, {{"taskId", fx.task_id}, {"id", "cfg-1"}});
  ASSERT_TRUE(del.ok());
  EXPECT_TRUE(del.value().is_null());
  EXPECT_EQ(core.call(Operation::kGetPushConfig, {{"taskId", fx.task_id}, {"id", "cfg-1"}}).error().code, -32001);
  // Idempotent delete: a second delete of the same config succeeds.
  EXPECT_TRUE(core.call(Operation::kDeletePushConfig, {{"taskId", fx.task_id}, {"id", "cfg-1"}}).ok());
  EXPECT_EQ(core.call(Operation::kListPushConfigs, {{"taskId", fx.task_id}}).value()["configs"].size(), 1u);
}

TEST(Unit, ActsNestedShapeIsAccepted) {
  PushConfigsFixture fx;
  AgentCore& core = fx.core;
  CallResult r = core.call(Operation::kCreatePushConfig,
                           {{"taskId", fx.task_id}, {"pushNotificationConfig", {{"url", "https://example.com/n"}}}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value()["url"], "https://example.com/n");
}

TEST(Unit, UnknownTaskIsTaskNotFoundForEveryOperation) {
  PushConfigsFixture fx;
  AgentCore& core = fx.core;
  Json ref = {{"taskId", "nope"}, {"id", "x"}};
  EXPECT_EQ(core.call(Operation::kCreatePushConfig, {{"taskId", "nope"}, {"url", "https://e.com"}}).error().code,
            -32001);
  EXPECT_EQ(core.call(Operation::kGetPushConfig, ref).error().code, -32001);
  EXPECT_EQ(core.call(Operation::kListPushConfigs, ref).error().code, -32001);
  EXPECT_EQ(core.call(Operation::kDeletePushConfig, ref).error().code, -32001);
}

TEST(Unit, InvalidConfigsAreInvalidParams) {
  PushConfigsFixture fx;
  AgentCore& core = fx.core;
  EXPECT_EQ(fx.create({{"url", "not a url"}}).error().code, -32602);
  EXPECT_EQ(fx.create({{"url", 5}}).error().code, -32602);
  EXPECT_EQ(fx.create({{"authentication", {{"credentials", "no scheme"}}}}).error().code, -32602);
  EXPECT_EQ(core.call(Operation::kCreatePushConfig, {{"url", "https://e.com"}}).error().code, -32602);
  EXPECT_EQ(core.call(Operation::kGetPushConfig, {{"taskId", fx.task_id}}).error().code, -32602);
}

TEST(Unit, DeleteNoopFaultKeepsTheConfig) {
  PushConfigsFixture fx;
  AgentConfig c = fast_config();
  c.faults = faults_of({Fault::kSemPushDeleteNoop});
  AgentCore f(c);
  Json id = send_task(f, "tck-complete-task")["id"];
  f.call(Operation::kCreatePushConfig, {{"taskId", id}, {"id", "k"}, {"url", "https://e.com"}});
  f.call(Operation::kDeletePushConfig, {{"taskId", id}, {"id", "k"}});
  EXPECT_TRUE(f.call(Operation::kGetPushConfig, {{"taskId", id}, {"id", "k"}}).ok());
}

TEST(Unit, GetIgnoresConfigIdFaultAnswersTheFirstConfig) {
  AgentConfig c = fast_config();
  c.faults = faults_of({Fault::kPushGetIgnoresConfigId});
  AgentCore f(c);
  Json id = send_task(f, "tck-complete-task")["id"];
  f.call(Operation::kCreatePushConfig, {{"taskId", id}, {"id", "a"}, {"url", "https://e.com/a"}});
  f.call(Operation::kCreatePushConfig, {{"taskId", id}, {"id", "b"}, {"url", "https://e.com/b"}});
  EXPECT_EQ(f.call(Operation::kGetPushConfig, {{"taskId", id}, {"id", "b"}}).value()["id"], "a");
  // Without the fault, each id gets its own config.
  AgentCore clean(fast_config());
  Json id2 = send_task(clean, "tck-complete-task")["id"];
  clean.call(Operation::kCreatePushConfig, {{"taskId", id2}, {"id", "a"}, {"url", "https://e.com/a"}});
  clean.call(Operation::kCreatePushConfig, {{"taskId", id2}, {"id", "b"}, {"url", "https://e.com/b"}});
  EXPECT_EQ(clean.call(Operation::kGetPushConfig, {{"taskId", id2}, {"id", "b"}}).value()["url"], "https://e.com/b");
}

}  // namespace
}  // namespace a2a::agent
