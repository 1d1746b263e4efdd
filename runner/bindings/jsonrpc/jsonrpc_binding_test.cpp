// Abstract operations over JSON-RPC-over-HTTP against a scripted
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

// Echoes a JSON-RPC result with the request's id (or `id_override`).
ScriptedAgent::Script jsonrpc_result(const Json& result, std::string type = "application/json",
                                     std::optional<Json> id_override = std::nullopt) {
  return [=](const Ex& ex) {
    Json req = Json::parse(ex->request().body, nullptr, false);
    Json id = id_override ? *id_override : req.value("id", Json());
    ex->reply(json_reply(200, Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}.dump(), type));
  };
}

TEST(JsonRpcHttp, UnaryCallSendsTheV1EnvelopeWithHeadersAndTenant) {
  ScriptedAgent agent(jsonrpc_result({{"id", "t-1"}}));
  HttpSessionFixture f("jsonrpc", agent.url("/a2a"), "acme");
  OpResult r = call_operation(f.s, "get_task", {{"id", "t-1"}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  EXPECT_EQ(r.result, (Json{{"id", "t-1"}}));
  EXPECT_TRUE(r.violations.empty()) << r.violations.front();
  EXPECT_EQ(r.binding, "jsonrpc");
  EXPECT_EQ(r.http_status, 200);
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].target, "/a2a");
  EXPECT_EQ(reqs[0].header("A2A-Version").value_or(""), "1.0");
  EXPECT_EQ(reqs[0].header("Content-Type").value_or(""), "application/json");
  EXPECT_EQ(reqs[0].header("Accept").value_or(""), "application/json");
  Json body = Json::parse(reqs[0].body);
  EXPECT_EQ(body["method"], "GetTask");
  EXPECT_EQ(body["jsonrpc"], "2.0");
  EXPECT_EQ(body["params"], (Json{{"id", "t-1"}, {"tenant", "acme"}}));
}

TEST(JsonRpcHttp, ParamsTenantIsKept) {
  ScriptedAgent agent(jsonrpc_result(Json::object()));
  HttpSessionFixture f("jsonrpc", agent.url(), "acme");
  call_operation(f.s, "get_task", {{"id", "t-1"}, {"tenant", "other"}}, soon());
  ASSERT_EQ(agent.requests().size(), 1u);
  EXPECT_EQ(Json::parse(agent.requests()[0].body)["params"]["tenant"], "other");
}

TEST(JsonRpcHttp, ErrorResponseIsAnErrorWhateverTheHttpStatus) {
  ScriptedAgent agent([](const Ex& ex) {
    Json id = Json::parse(ex->request().body)["id"];
    ex->reply(json_reply(404, Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32001}, {"message", "nope"}}}}.dump()));
  });
  HttpSessionFixture f("jsonrpc", agent.url());
  OpResult r = call_operation(f.s, "get_task", {{"id", "x"}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kError);
  EXPECT_EQ(r.error["code"], -32001);
  EXPECT_TRUE(r.violations.empty());
}

TEST(JsonRpcHttp, WrongIdAndContentTypeAreViolations) {
  ScriptedAgent agent(jsonrpc_result(Json::object(), "text/plain", Json("other")));
  HttpSessionFixture f("jsonrpc", agent.url());
  OpResult r = call_operation(f.s, "get_task", {{"id", "x"}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kResult);
  ASSERT_EQ(r.violations.size(), 2u);
  EXPECT_NE(r.violations[0].find("application/json"), std::string::npos) << r.violations[0];
  EXPECT_NE(r.violations[1].find("has id \"other\""), std::string::npos) << r.violations[1];
}

TEST(JsonRpcHttp, NonJsonBodyIsNoResponse) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(json_reply(500, "<html>oops</html>", "text/html")); });
  HttpSessionFixture f("jsonrpc", agent.url());
  OpResult r = call_operation(f.s, "get_task", {{"id", "x"}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("HTTP 500 body is not a JSON-RPC response"), std::string::npos) << r.problem;
}

// An SSE stream of the given data lines, then the end of the body.
ScriptedAgent::Script sse(std::vector<std::string> datas, bool end = true, std::string type = "text/event-stream") {
  return [=](const Ex& ex) {
    ex->start_stream(200, {{"Content-Type", type}});
    for (const auto& d : datas) ex->write("data: " + d + "\n\n");
    if (end) ex->end();
  };
}

std::string rpc(const Json& id, const char* member, const Json& v) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {member, v}}.dump();
}

TEST(JsonRpcHttp, StreamGivesEventsAndMidStreamErrors) {
  ScriptedAgent agent(sse({rpc(1, "result", {{"task", {{"id", "t"}}}}), rpc(1, "result", {{"statusUpdate", Json::object()}}),
                           rpc(1, "error", {{"code", -32603}, {"message", "boom"}})}));
  HttpSessionFixture f("jsonrpc", agent.url());
  OpResult r = call_operation(f.s, "send_streaming_message", {{"message", Json::object()}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.events[0], (Json{{"task", {{"id", "t"}}}}));
  ASSERT_EQ(r.stream_errors.size(), 1u);
  EXPECT_EQ(r.stream_errors[0]["code"], -32603);
  EXPECT_TRUE(r.violations.empty()) << r.violations.front();
  EXPECT_EQ(agent.requests()[0].header("Accept").value_or(""), "text/event-stream");
  EXPECT_EQ(Json::parse(agent.requests()[0].body)["method"], "SendStreamingMessage");
}

TEST(JsonRpcHttp, JsonAnswerToAStreamIsAnErrorBeforeTheFirstEvent) {
  ScriptedAgent agent([](const Ex& ex) {
    ex->reply(json_reply(200, rpc(1, "error", {{"code", -32004}, {"message", "no streaming"}})));
  });
  HttpSessionFixture f("jsonrpc", agent.url());
  OpResult r = call_operation(f.s, "send_streaming_message", {{"message", Json::object()}}, soon());
  EXPECT_EQ(r.status, OpResult::Status::kError);
  EXPECT_EQ(r.error["code"], -32004);
  EXPECT_TRUE(r.events.empty());
}

TEST(JsonRpcHttp, StreamWithWrongContentTypeOrForeignIdIsAViolation) {
  ScriptedAgent agent(sse({rpc(99, "result", Json::object())}, true, "text/plain"));
  HttpSessionFixture f("jsonrpc", agent.url());
  OpResult r = call_operation(f.s, "send_streaming_message", {{"message", Json::object()}}, soon());
  ASSERT_EQ(r.violations.size(), 2u);
  EXPECT_NE(r.violations[0].find("text/event-stream"), std::string::npos) << r.violations[0];
  EXPECT_NE(r.violations[1].find("has id 99"), std::string::npos) << r.violations[1];
}

TEST(JsonRpcHttp, StreamThatNeverEndsIsNoResponseWithTheEventCount) {
  ScriptedAgent agent(sse({rpc(1, "result", {{"task", Json::object()}})}, false));
  HttpSessionFixture f("jsonrpc", agent.url());
  OpResult r = call_operation(f.s, "send_streaming_message", {{"message", Json::object()}}, soon(400));
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_EQ(r.events.size(), 1u);
  EXPECT_NE(r.problem.find("after 1 event(s)"), std::string::npos) << r.problem;
  EXPECT_FALSE(r.deadline_hit) << "the step deadline, not the scenario's";
}

TEST(JsonRpcHttp, NothingListeningIsNoResponse) {
  HttpSessionFixture f("jsonrpc", "http://127.0.0.1:1/");
  OpResult r = call_operation(f.s, "get_task", {{"id", "x"}}, soon(2000));
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("got no complete response"), std::string::npos) << r.problem;
}

TEST(HttpOps, GetAgentCardFetchesTheWellKnownCardOfTheBaseUrl) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(json_reply(200, R"({"name":"x"})")); });
  HttpSessionFixture f("rest", agent.url("/iface"));
  f.config.target_url = agent.url("/base");
  OpResult r = call_operation(f.s, "get_agent_card", Json::object(), soon());
  EXPECT_EQ(r.status, OpResult::Status::kResult);
  EXPECT_EQ(r.result["name"], "x");
  EXPECT_EQ(agent.requests().at(0).target, "/base/.well-known/agent-card.json");
}

}  // namespace
}  // namespace a2a::engine
