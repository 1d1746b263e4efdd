// Abstract operations over HTTP+JSON/REST against a scripted
// agent on 127.0.0.1: what goes on the wire, what comes back as OpResult,
// and which binding violations are recorded.
#include <gtest/gtest.h>

#include "runner/engine/engine_test_support.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/engine/operations.hpp"

namespace a2a::engine {
namespace {

// The bindings under test, as the CLI registers them.
[[maybe_unused]] const bool registered = (register_bindings(), true);

using testing::HttpSessionFixture;
using testing::json_reply;
using testing::ScriptedAgent;
using testing::soon;
using Ex = std::shared_ptr<transport::HttpExchange>;

ScriptedAgent::Script sse(std::vector<std::string> datas, bool end = true, std::string type = "text/event-stream") {
  return [=](const Ex& ex) {
    ex->start_stream(200, {{"Content-Type", type}});
    for (const auto& d : datas) ex->write("data: " + d + "\n\n");
    if (end) ex->end();
  };
}

TEST(RestHttp, GetTaskUsesTheRouteTenantPrefixAndQuery) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(json_reply(200, R"({"id":"t-1"})")); });
  HttpSessionFixture f("rest", agent.url("/api"), "acme");
  OpResult r = call_operation(f.s, "get_task", {{"id", "t-1"}, {"historyLength", 2}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  EXPECT_EQ(r.result, (Json{{"id", "t-1"}}));
  EXPECT_TRUE(r.violations.empty()) << r.violations.front();
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "GET");
  EXPECT_EQ(reqs[0].target, "/api/acme/tasks/t-1?historyLength=2");
  EXPECT_EQ(reqs[0].header("A2A-Version").value_or(""), "1.0");
  EXPECT_FALSE(reqs[0].header("Content-Type").has_value()) << "no body, no Content-Type";
}

TEST(RestHttp, PostSendsAJsonBody) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(json_reply(200, R"({"task":{"id":"t"}})")); });
  HttpSessionFixture f("rest", agent.url());
  OpResult r = call_operation(f.s, "send_message", {{"message", {{"messageId", "m"}}}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kResult);
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].target, "/message:send");
  EXPECT_EQ(reqs[0].header("Content-Type").value_or(""), "application/json");
  EXPECT_EQ(Json::parse(reqs[0].body), (Json{{"message", {{"messageId", "m"}}}}));
}

TEST(RestHttp, ErrorStatusWithGoogleRpcStatusIsAnErrorWithItsStatus) {
  ScriptedAgent agent([](const Ex& ex) {
    ex->reply(json_reply(404, R"({"error":{"code":404,"status":"NOT_FOUND","message":"no task",)"
                              R"("details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND"}]}})"));
  });
  HttpSessionFixture f("rest", agent.url());
  OpResult r = call_operation(f.s, "get_task", {{"id", "x"}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kError);
  EXPECT_EQ(r.error_status, 404);
  EXPECT_EQ(r.error["status"], "NOT_FOUND");
  EXPECT_TRUE(r.violations.empty()) << r.violations.front();
}

struct BadError {
  const char* name;
  int status;
  const char* body;
  const char* says;
};

class RestBadError : public ::testing::TestWithParam<BadError> {};

TEST_P(RestBadError, IsAViolation) {
  const auto& c = GetParam();
  ScriptedAgent agent([&](const Ex& ex) { ex->reply(json_reply(c.status, c.body)); });
  HttpSessionFixture f("rest", agent.url());
  OpResult r = call_operation(f.s, "get_task", {{"id", "x"}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kError);
  ASSERT_FALSE(r.violations.empty());
  EXPECT_NE(r.violations[0].find(c.says), std::string::npos) << r.violations[0];
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RestBadError,
    ::testing::Values(
        BadError{"CodeDiffersFromStatus", 404, R"({"error":{"code":400,"status":"NOT_FOUND","message":"m"}})",
                 "error.code 400 differs from the HTTP status 404"},
        BadError{"NotAStatusBody", 404, R"({"type":"about:blank","title":"Not Found"})", "is not {\"error\": google.rpc.Status}"},
        BadError{"PlainText", 500, "Internal Server Error", "is not {\"error\": google.rpc.Status}"},
        BadError{"StatusNotAString", 400, R"({"error":{"code":400,"status":9,"message":"m"}})", "error.status must be a string"},
        BadError{"DetailsNotAList", 400, R"({"error":{"code":400,"status":"X","message":"m","details":{}}})",
                 "error.details must be an array"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(RestHttp, EmptyTwoHundredBodyIsANullResult) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(transport::ServerReply{204, {}, "", false}); });
  HttpSessionFixture f("rest", agent.url());
  OpResult r = call_operation(f.s, "delete_push_config", {{"taskId", "t"}, {"id", "c"}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kResult);
  EXPECT_TRUE(r.result.is_null());
  EXPECT_EQ(agent.requests().at(0).method, "DELETE");
}

TEST(RestHttp, NonJsonSuccessBodyIsAViolation) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(json_reply(200, "ok", "text/plain")); });
  HttpSessionFixture f("rest", agent.url());
  OpResult r = call_operation(f.s, "get_task", {{"id", "x"}}, soon());
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_NE(r.violations[0].find("body is not JSON"), std::string::npos) << r.violations[0];
}

TEST(RestHttp, StreamEventsAreBareStreamResponsesAndErrorDataIsAStreamError) {
  ScriptedAgent agent(sse({R"({"task":{"id":"t"}})", R"({"statusUpdate":{}})",
                           R"({"error":{"code":500,"status":"INTERNAL","message":"x"}})"}));
  HttpSessionFixture f("rest", agent.url());
  OpResult r = call_operation(f.s, "send_streaming_message", {{"message", Json::object()}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kResult);
  EXPECT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.stream_errors.size(), 1u);
  EXPECT_EQ(agent.requests().at(0).target, "/message:stream");
}

TEST(RestHttp, StreamWhoseOnlyEventIsAnErrorFailsTheCall) {
  ScriptedAgent agent(sse({R"({"error":{"code":400,"status":"FAILED_PRECONDITION","message":"x"}})"}));
  HttpSessionFixture f("rest", agent.url());
  OpResult r = call_operation(f.s, "subscribe_to_task", {{"id", "t"}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kError);
  EXPECT_EQ(r.error_status, 400);
}

}  // namespace
}  // namespace a2a::engine
