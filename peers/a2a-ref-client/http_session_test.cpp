// HttpSession against a scripted in-process HTTP agent: what goes on the wire
// per binding (a2a-protocol.md §4.2, §4.4) and how answers come back.
#include "peers/a2a-ref-client/http_session.hpp"

#include <gtest/gtest.h>

#include "peers/a2a-ref-client/http_agent_test_util.hpp"

namespace a2a::client {
namespace {

using fake::HttpAgent;
using model::Operation;

core::Deadline soon() { return core::Deadline::after(core::Millis(5000)); }

std::unique_ptr<HttpSession> discover(const HttpAgent& agent, std::optional<HttpBinding> forced = std::nullopt) {
  auto base = transport::Url::parse(agent.base());
  EXPECT_TRUE(base.ok());
  auto s = HttpSession::discover(*base, forced, soon());
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? std::move(*s) : nullptr;
}

struct Collected {
  std::vector<StreamItem> items;
  StreamCallback callback() {
    return [this](const StreamItem& i) { items.push_back(i); };
  }
};

TEST(HttpSession, JsonRpcCallPostsPascalCaseWithVersionTenantAndCountingIds) {
  HttpAgent agent(fake::one_interface_card("JSONRPC", "/rpc", "acme"));
  agent.queue(fake::json_answer(200, R"({"jsonrpc":"2.0","id":1,"result":{"id":"t-1"}})"));
  agent.queue(fake::json_answer(200, R"({"jsonrpc":"2.0","id":2,"result":{"tasks":[]}})"));
  auto s = discover(agent);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->description(), "interface #1 of 1: JSONRPC 1.0 at " + agent.base() + "/rpc (tenant acme)");
  CallResult r = s->call(Operation::kGetTask, {{"id", "t-1"}}, soon());
  ASSERT_TRUE(r.ok()) << r.error.str();
  EXPECT_EQ(r.result, Json::parse(R"({"id":"t-1"})"));
  ASSERT_TRUE(s->call(Operation::kListTasks, Json::object(), soon()).ok());
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].target, "/rpc");
  EXPECT_EQ(reqs[0].header("A2A-Version"), "1.0");
  EXPECT_EQ(reqs[0].header("Content-Type"), "application/json");
  EXPECT_EQ(Json::parse(reqs[0].body),
            Json::parse(R"({"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t-1","tenant":"acme"}})"));
  EXPECT_EQ(Json::parse(reqs[1].body)["id"], 2);
  EXPECT_EQ(Json::parse(reqs[1].body)["method"], "ListTasks");
  EXPECT_EQ(reqs[1].header("A2A-Version"), "1.0");
}

TEST(HttpSession, JsonRpcErrorIsAnAgentErrorWhateverTheHttpStatus) {
  HttpAgent agent(fake::one_interface_card("JSONRPC", "/"));
  agent.queue(fake::json_answer(500, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}})"));
  auto s = discover(agent);
  ASSERT_TRUE(s);
  CallResult r = s->call(Operation::kGetTask, {{"id", "nope"}}, soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kAgent);
  EXPECT_EQ(r.error.code(), -32001);
  Json sent = Json::parse(agent.requests().at(0).body);
  EXPECT_FALSE(sent["params"].contains("tenant"));  // no tenant on the card: none sent
}

TEST(HttpSession, JsonRpcStreamYieldsResultsAndErrorsUntilTheBodyEnds) {
  HttpAgent agent(fake::one_interface_card("JSONRPC", "/"));
  agent.queue(fake::sse_answer({
      "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t\"}}}\n\n",
      ": keep-alive\nid: x\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"m\"}}\n",
      "\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\n",
      "data: \"result\":{\"statusUpdate\":{}}}\n\n",
  }));
  auto s = discover(agent);
  ASSERT_TRUE(s);
  Collected got;
  CallResult r = s->stream(Operation::kSendStreamingMessage, {{"message", Json::object()}}, got.callback(), soon());
  ASSERT_TRUE(r.ok()) << r.error.str();
  ASSERT_EQ(got.items.size(), 3u);
  EXPECT_EQ(got.items[0].type, StreamItem::Type::kEvent);
  EXPECT_EQ(got.items[0].value, Json::parse(R"({"task":{"id":"t"}})"));
  EXPECT_EQ(got.items[1].type, StreamItem::Type::kStreamError);
  EXPECT_EQ(got.items[1].value["code"], -32603);
  EXPECT_EQ(got.items[2].value, Json::parse(R"({"statusUpdate":{}})"));  // two data lines joined
  auto req = agent.requests().at(0);
  EXPECT_EQ(req.header("Accept"), "text/event-stream");
  EXPECT_EQ(Json::parse(req.body)["method"], "SendStreamingMessage");
}

TEST(HttpSession, JsonRpcStreamAnsweredWithJsonIsAnErrorBeforeAnyEvent) {
  HttpAgent agent(fake::one_interface_card("JSONRPC", "/"));
  agent.queue(fake::json_answer(200, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"no streaming"}})"));
  auto s = discover(agent);
  ASSERT_TRUE(s);
  Collected got;
  CallResult r = s->stream(Operation::kSubscribeToTask, {{"id", "t"}}, got.callback(), soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kAgent);
  EXPECT_EQ(r.error.code(), -32004);
  EXPECT_TRUE(got.items.empty());
}

TEST(HttpSession, JsonRpcStreamWithForeignDataEndsWithATransportError) {
  HttpAgent agent(fake::one_interface_card("JSONRPC", "/"));
  agent.queue(fake::sse_answer({"data: {\"task\":{}}\n\n"}));
  auto s = discover(agent);
  ASSERT_TRUE(s);
  Collected got;
  CallResult r = s->stream(Operation::kSendStreamingMessage, Json::object(), got.callback(), soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kTransport);
  EXPECT_NE(r.error.message.find("not a JSON-RPC response"), std::string::npos) << r.error.message;
}

TEST(HttpSession, RestCallUsesTheRouteWithTenantPrefixAndQuery) {
  HttpAgent agent(fake::one_interface_card("HTTP+JSON", "/api", "t1"));
  agent.queue(fake::json_answer(200, R"({"id":"t-1"})"));
  agent.queue(fake::json_answer(200, R"({"id":"t-1"})"));
  auto s = discover(agent);
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->call(Operation::kGetTask, {{"id", "t-1"}, {"historyLength", 2}}, soon()).ok());
  ASSERT_TRUE(s->call(Operation::kCancelTask, {{"id", "t-1"}}, soon()).ok());
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].method, "GET");
  EXPECT_EQ(reqs[0].target, "/api/t1/tasks/t-1?historyLength=2");
  EXPECT_EQ(reqs[0].header("A2A-Version"), "1.0");
  EXPECT_EQ(reqs[0].header("Accept"), "application/json");
  EXPECT_FALSE(reqs[0].header("Content-Type").has_value());
  EXPECT_EQ(reqs[1].method, "POST");
  EXPECT_EQ(reqs[1].target, "/api/t1/tasks/t-1:cancel");
  EXPECT_EQ(reqs[1].header("Content-Type"), "application/json");
  EXPECT_EQ(reqs[1].body, "{}");
}

TEST(HttpSession, RestErrorStatusBecomesAnAgentErrorWithTheJsonRpcCode) {
  HttpAgent agent(fake::one_interface_card("HTTP+JSON", "/"));
  agent.queue(fake::json_answer(404, R"({"error":{"code":404,"status":"NOT_FOUND","message":"Task not found","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}})"));
  auto s = discover(agent);
  ASSERT_TRUE(s);
  CallResult r = s->call(Operation::kGetTask, {{"id", "nope"}}, soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kAgent);
  EXPECT_EQ(r.error.code(), -32001);
  EXPECT_EQ(r.error.to_json()["httpStatus"], 404);
  EXPECT_EQ(r.error.to_json()["status"], "NOT_FOUND");
}

TEST(HttpSession, RestEmpty204IsANullResult) {
  HttpAgent agent(fake::one_interface_card("HTTP+JSON", "/"));
  agent.queue({204, {}, "", {}});
  auto s = discover(agent);
  ASSERT_TRUE(s);
  CallResult r = s->call(Operation::kDeletePushConfig, {{"taskId", "t"}, {"id", "c"}}, soon());
  ASSERT_TRUE(r.ok()) << r.error.str();
  EXPECT_TRUE(r.result.is_null());
  EXPECT_EQ(agent.requests().at(0).method, "DELETE");
  EXPECT_EQ(agent.requests().at(0).target, "/tasks/t/pushNotificationConfigs/c");
}

TEST(HttpSession, RestSubscribeRetriesOnceWithGetAfter405) {
  HttpAgent agent(fake::one_interface_card("HTTP+JSON", "/"));
  agent.queue({405, {{"Allow", "GET"}}, "", {}});
  agent.queue(fake::sse_answer({"data: {\"task\":{\"id\":\"t\"}}\n\n",
                                "event: error\ndata: {\"error\":{\"code\":500,\"status\":\"INTERNAL\",\"message\":\"x\"}}\n\n"}));
  auto s = discover(agent, HttpBinding::kRest);
  ASSERT_TRUE(s);
  Collected got;
  CallResult r = s->stream(Operation::kSubscribeToTask, {{"id", "t"}}, got.callback(), soon());
  ASSERT_TRUE(r.ok()) << r.error.str();
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].target, "/tasks/t:subscribe");
  EXPECT_EQ(reqs[1].method, "GET");
  EXPECT_EQ(reqs[1].target, "/tasks/t:subscribe");
  ASSERT_EQ(got.items.size(), 2u);
  EXPECT_EQ(got.items[0].type, StreamItem::Type::kEvent);
  EXPECT_EQ(got.items[1].type, StreamItem::Type::kStreamError);
  EXPECT_EQ(got.items[1].value["code"], -32603);
}

TEST(HttpSession, RestStreamRefusedWithAnErrorStatusFailsBeforeAnyEvent) {
  HttpAgent agent(fake::one_interface_card("HTTP+JSON", "/"));
  agent.queue(fake::json_answer(400, R"({"error":{"code":400,"status":"FAILED_PRECONDITION","message":"no","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"UNSUPPORTED_OPERATION","domain":"a2a-protocol.org"}]}})"));
  auto s = discover(agent);
  ASSERT_TRUE(s);
  Collected got;
  CallResult r = s->stream(Operation::kSendStreamingMessage, {{"message", Json::object()}}, got.callback(), soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.code(), -32004);
  EXPECT_EQ(agent.requests().size(), 1u);  // only subscribe retries
}

TEST(HttpSession, CardFetchFailuresNameTheUrl) {
  HttpAgent agent(R"({"oops":true})", 404);
  auto base = transport::Url::parse(agent.base());
  auto s = HttpSession::discover(*base, std::nullopt, soon());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("/.well-known/agent-card.json: HTTP 404"), std::string::npos) << s.error().message;
}

TEST(HttpSession, StreamingOpThroughCallIsAUsageError) {
  HttpAgent agent(fake::one_interface_card("JSONRPC", "/"));
  auto s = discover(agent);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->call(Operation::kSendStreamingMessage, Json::object(), soon()).error.kind, ClientErrorKind::kUsage);
  Collected got;
  EXPECT_EQ(s->stream(Operation::kGetTask, Json::object(), got.callback(), soon()).error.kind, ClientErrorKind::kUsage);
  EXPECT_TRUE(agent.requests().empty());
}

}  // namespace
}  // namespace a2a::client
