// The runner's A2A 0.3 profile on HTTP+JSON/REST (runner/bindings/a2a03/rest_v03.cpp) against a
// scripted agent: /v1 routes with ProtoJSON 0.3 bodies and no A2A-Version,
// answers translated to 1.0, the A2A error code read from a bare {code,
// message} body or else the HTTP status, and the stream's final:true rule.
#include <gtest/gtest.h>

#include <memory>

#include "runner/engine/engine_test_support.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/engine/operations.hpp"
#include "runner/engine/scenario_runner.hpp"

namespace a2a::engine {
namespace {

// The bindings under test, as the CLI registers them.
[[maybe_unused]] const bool registered = (register_bindings(), true);

using testing::HttpSessionFixture;
using testing::json_reply;
using testing::ScriptedAgent;
using testing::soon;
using Ex = std::shared_ptr<transport::HttpExchange>;

struct RestV03Fixture : HttpSessionFixture {
  explicit RestV03Fixture(const std::string& url) : HttpSessionFixture("rest", url) {
    target.protocol_version = "0.3";
  }
};

std::string all(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += s + " | ";
  return out;
}

const Json kTaskProto = {{"id", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", "TASK_STATE_COMPLETED"}}}};

TEST(RestV03, SendMessagePostsProtoJsonUnderV1AndReadsTheWrapper) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(json_reply(201, Json{{"task", kTaskProto}}.dump())); });
  RestV03Fixture f(agent.url());
  Json params = {{"message", {{"messageId", "m-1"}, {"role", "ROLE_USER"}, {"parts", {{{"text", "hi"}}}}}}};
  OpResult r = call_operation(f.s, "send_message", params, soon());
  ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  EXPECT_TRUE(r.violations.empty()) << all(r.violations);
  EXPECT_EQ(r.result["task"]["status"]["state"], "TASK_STATE_COMPLETED");
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].path(), "/v1/message:send");
  EXPECT_FALSE(reqs[0].header("A2A-Version").has_value()) << "a 0.3 client sends no A2A-Version";
  Json body = Json::parse(reqs[0].body);
  EXPECT_EQ(body["message"]["content"][0]["text"], "hi");
  EXPECT_EQ(body["message"]["role"], "ROLE_USER");
}

TEST(RestV03, A1_0ShapedTaskIsAViolation) {
  // 1.0's TASK_STATE_CANCELED (one L) is not the 0.3 proto's TASK_STATE_CANCELLED.
  ScriptedAgent agent([](const Ex& ex) {
    ex->reply(json_reply(200, Json{{"id", "t-1"}, {"status", {{"state", "TASK_STATE_CANCELED"}}}}.dump()));
  });
  RestV03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "get_task", {{"id", "t-1"}, {"historyLength", 2}}, soon());
  ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  ASSERT_FALSE(r.violations.empty());
  EXPECT_NE(r.violations[0].find("A2A 0.3"), std::string::npos) << r.violations[0];
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "GET");
  EXPECT_EQ(reqs[0].target, "/v1/tasks/t-1?historyLength=2");
}

TEST(RestV03, TheBodysCodeNamesTheError) {
  ScriptedAgent agent([](const Ex& ex) {
    ex->reply(json_reply(400, R"({"code":-32002,"message":"Task cannot be canceled"})"));
  });
  RestV03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "cancel_task", {{"id", "t-1"}}, soon());
  ASSERT_EQ(r.status, OpResult::Status::kError) << r.problem;
  EXPECT_EQ(r.error["code"], -32002);
  EXPECT_EQ(r.binding, "rest@0.3");
  EXPECT_TRUE(r.violations.empty()) << all(r.violations);
  EXPECT_EQ(agent.requests()[0].path(), "/v1/tasks/t-1:cancel");
}

TEST(RestV03, WithoutACodeTheHttpStatusNamesTheError) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(json_reply(404, "Cannot GET /v1/tasks/x", "text/html")); });
  RestV03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "get_task", {{"id", "x"}}, soon());
  ASSERT_EQ(r.status, OpResult::Status::kError) << r.problem;
  EXPECT_EQ(r.error["code"], -32001);
}

TEST(RestV03, AStreamWithoutFinalIsAViolation) {
  auto script = [](bool final) {
    return [final](const Ex& ex) {
      ex->start_stream(200, {{"Content-Type", "text/event-stream"}});
      ex->write("data: " + Json{{"task", kTaskProto}}.dump() + "\n\n");
      Json su = {{"taskId", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", "TASK_STATE_COMPLETED"}}}};
      if (final) su["final"] = true;
      ex->write("data: " + Json{{"statusUpdate", su}}.dump() + "\n\n");
      ex->end();
    };
  };
  Json params = {{"message", {{"messageId", "m-1"}, {"role", "ROLE_USER"}, {"parts", {{{"text", "hi"}}}}}}};
  {
    ScriptedAgent agent(script(true));
    RestV03Fixture f(agent.url());
    OpResult r = call_operation(f.s, "send_streaming_message", params, soon());
    ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
    EXPECT_TRUE(r.violations.empty()) << all(r.violations);
    ASSERT_EQ(r.events.size(), 2u);
    EXPECT_EQ(r.events[1]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
    EXPECT_EQ(agent.requests()[0].path(), "/v1/message:stream");
  }
  {
    ScriptedAgent agent(script(false));
    RestV03Fixture f(agent.url());
    OpResult r = call_operation(f.s, "send_streaming_message", params, soon());
    ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
    bool noted = false;
    for (const auto& v : r.violations) noted = noted || v.find("lacks final:true") != std::string::npos;
    EXPECT_TRUE(noted) << all(r.violations);
  }
}

TEST(RestV03, ListTasksHasNoRoute) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(json_reply(200, "{}")); });
  RestV03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "list_tasks", Json::object(), soon());
  EXPECT_NE(r.problem.find("ListTasks has no A2A 0.3 REST route"), std::string::npos) << r.problem;
  EXPECT_TRUE(agent.requests().empty());
}

}  // namespace
}  // namespace a2a::engine
