// The runner's A2A 0.3 profile on JSON-RPC over HTTP: a 0.3 interface gets
// 0.3 requests (slash methods, 0.3 params, no A2A-Version) and its answers are
// translated back to 1.0; translation notes and a stream without final:true
// are violations. Discovery and applicability of 0.3 interfaces too.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "runner/engine/discovery.hpp"
#include "runner/engine/engine_test_support.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/engine/operations.hpp"
#include "runner/engine/run.hpp"
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

struct V03Fixture : HttpSessionFixture {
  explicit V03Fixture(const std::string& url) : HttpSessionFixture("jsonrpc", url) {
    target.protocol_version = "0.3";
  }
};

ScriptedAgent::Script answer(const Json& member_value, const char* member = "result") {
  return [=](const Ex& ex) {
    Json req = Json::parse(ex->request().body, nullptr, false);
    ex->reply(json_reply(200, Json{{"jsonrpc", "2.0"}, {"id", req.value("id", Json())}, {member, member_value}}.dump()));
  };
}

ScriptedAgent::Script sse(std::vector<Json> results) {
  return [=](const Ex& ex) {
    Json id = Json::parse(ex->request().body, nullptr, false).value("id", Json());
    ex->start_stream(200, {{"Content-Type", "text/event-stream"}});
    for (const auto& r : results)
      ex->write("data: " + Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", r}}.dump() + "\n\n");
    ex->end();
  };
}

std::string all(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += s + " | ";
  return out;
}

const Json kTask03 = {{"kind", "task"}, {"id", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", "completed"}}}};

Json status03(const char* state, std::optional<bool> final) {
  Json j = {{"kind", "status-update"}, {"taskId", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", state}}}};
  if (final) j["final"] = *final;
  return j;
}

TEST(JsonRpcV03, SendsTheV03RequestAndTranslatesTheResultBack) {
  ScriptedAgent agent(answer(kTask03));
  V03Fixture f(agent.url("/"));
  Json params = {{"message", {{"messageId", "m-1"}, {"role", "ROLE_USER"}, {"parts", {{{"text", "hi"}}}}}}};
  OpResult r = call_operation(f.s, "send_message", params, soon());
  ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  EXPECT_TRUE(r.violations.empty()) << all(r.violations);
  EXPECT_EQ(r.result["task"]["status"]["state"], "TASK_STATE_COMPLETED");
  EXPECT_FALSE(r.result["task"].contains("kind"));
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_FALSE(reqs[0].header("A2A-Version").has_value()) << "a 0.3 client sends no A2A-Version";
  Json body = Json::parse(reqs[0].body);
  EXPECT_EQ(body["method"], "message/send");
  EXPECT_EQ(body["params"]["message"]["role"], "user");
  EXPECT_EQ(body["params"]["message"]["kind"], "message");
  EXPECT_EQ(body["params"]["message"]["parts"][0]["kind"], "text");
}

TEST(JsonRpcV03, A1_0ShapedResultIsAViolation) {
  // The 1.0 wrapper and state names on a 0.3 interface.
  ScriptedAgent agent(answer({{"task", {{"id", "t-1"}, {"status", {{"state", "TASK_STATE_COMPLETED"}}}}}}));
  V03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "get_task", {{"id", "t-1"}}, soon());
  ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  ASSERT_FALSE(r.violations.empty());
  EXPECT_NE(r.violations[0].find("A2A 0.3 result"), std::string::npos) << r.violations[0];
  EXPECT_EQ(Json::parse(agent.requests()[0].body)["method"], "tasks/get");
}

TEST(JsonRpcV03, ErrorsComeBackAs1_0Errors) {
  ScriptedAgent agent(answer({{"code", -32001}, {"message", "no task"}, {"data", {{"taskId", "x"}}}}, "error"));
  V03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "get_task", {{"id", "x"}}, soon());
  ASSERT_EQ(r.status, OpResult::Status::kError) << r.problem;
  EXPECT_EQ(r.error["code"], -32001);
  EXPECT_TRUE(r.error["data"].is_array()) << r.error.dump();
  EXPECT_TRUE(r.violations.empty()) << all(r.violations);
}

TEST(JsonRpcV03, StreamEndingWithFinalIsClean) {
  ScriptedAgent agent(sse({Json{{"kind", "task"}, {"id", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", "submitted"}}}},
                           status03("working", false), status03("completed", true)}));
  V03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "send_streaming_message", {{"message", {{"messageId", "m"}, {"parts", Json::array()}}}}, soon());
  ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  EXPECT_TRUE(r.violations.empty()) << all(r.violations);
  ASSERT_EQ(r.events.size(), 3u);
  EXPECT_TRUE(r.events[0].contains("task"));
  EXPECT_EQ(r.events[2]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
  EXPECT_FALSE(r.events[2]["statusUpdate"].contains("final"));
  EXPECT_EQ(Json::parse(agent.requests()[0].body)["method"], "message/stream");
}

TEST(JsonRpcV03, LastStatusUpdateWithoutFinalIsAViolation) {
  ScriptedAgent agent(sse({status03("working", false), status03("completed", std::nullopt)}));
  V03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "send_streaming_message", {{"message", {{"messageId", "m"}, {"parts", Json::array()}}}}, soon());
  ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  // The missing member is a translation note, and the stream's end a violation of its own.
  ASSERT_EQ(r.violations.size(), 2u) << all(r.violations);
  EXPECT_NE(r.violations[0].find("event.final: missing"), std::string::npos) << r.violations[0];
  EXPECT_NE(r.violations[1].find("the last status-update (event 1) lacks final:true"), std::string::npos)
      << r.violations[1];
}

TEST(JsonRpcV03, EventsAfterFinalAreAViolation) {
  ScriptedAgent agent(sse({status03("completed", true), status03("completed", true)}));
  V03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "send_streaming_message", {{"message", {{"messageId", "m"}, {"parts", Json::array()}}}}, soon());
  ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  ASSERT_EQ(r.violations.size(), 1u) << all(r.violations);
  EXPECT_NE(r.violations[0].find("1 event(s) follow the status-update with final:true"), std::string::npos)
      << r.violations[0];
}

TEST(JsonRpcV03, ListTasksHasNoV03Form) {
  ScriptedAgent agent(answer(Json::object()));
  V03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "list_tasks", Json::object(), soon());
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("no A2A 0.3 JSON-RPC method"), std::string::npos) << r.problem;
  EXPECT_TRUE(agent.requests().empty());
}

TEST(JsonRpcV03, A0_3CardIsReadAs1_0AndItsProblemsAreViolations) {
  const Json card = {{"name", "a"}, {"protocolVersion", "0.3.0"}, {"url", "http://h/"}, {"preferredTransport", "JSONRPC"}};
  auto served = std::make_shared<std::atomic<int>>(0);
  ScriptedAgent agent([card, served](const Ex& ex) {
    Json c = card;
    if (served->fetch_add(1) > 0) c["protocolVersion"] = 3;  // the second answer has a wrong-typed version
    ex->reply(json_reply(200, c.dump()));
  });
  V03Fixture f(agent.url());
  OpResult r = call_operation(f.s, "get_agent_card", Json::object(), soon());
  ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  EXPECT_TRUE(r.violations.empty()) << all(r.violations);
  ASSERT_TRUE(r.result.contains("supportedInterfaces")) << r.result.dump();
  EXPECT_EQ(r.result["supportedInterfaces"][0]["protocolBinding"], "JSONRPC");
  EXPECT_FALSE(agent.requests().at(0).header("A2A-Version").has_value());
  OpResult bad = call_operation(f.s, "get_agent_card", Json::object(), soon());
  ASSERT_EQ(bad.violations.size(), 1u) << all(bad.violations);
  EXPECT_NE(bad.violations[0].find("A2A 0.3 agent card"), std::string::npos) << bad.violations[0];
  EXPECT_NE(bad.violations[0].find("protocolVersion"), std::string::npos) << bad.violations[0];
}

TEST(DiscoveryV03, A0_3CardGivesA0_3Target) {
  Json card = {{"name", "a"}, {"protocolVersion", "0.3.0"}, {"url", "http://h/rpc"}, {"preferredTransport", "JSONRPC"}};
  InterfaceMap m = map_interfaces(card);
  ASSERT_EQ(m.targets.size(), 1u) << all(m.notes);
  EXPECT_EQ(m.targets[0].key(), "jsonrpc@0.3");
  EXPECT_EQ(m.targets[0].url, "http://h/rpc");
}

TEST(DiscoveryV03, BothVersionsOfABindingAreBothTargets) {
  Json card = {{"supportedInterfaces",
                {{{"url", "http://h/"}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", "1.0"}},
                 {{"url", "http://h/"}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", "0.3"}}}}};
  InterfaceMap m = map_interfaces(card);
  ASSERT_EQ(m.targets.size(), 2u) << all(m.notes);
  EXPECT_EQ(m.targets[0].key(), "jsonrpc");
  EXPECT_EQ(m.targets[1].key(), "jsonrpc@0.3");
}

TEST(DiscoveryV03, ForcedVersionRelabelsOrFilters) {
  Json one = {{"supportedInterfaces", {{{"url", "http://h/"}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", "1.0"}}}}};
  auto d = choose_targets("http://h/", core::Expected<Json>(one), {}, "0.3");
  ASSERT_TRUE(d.ok()) << d.error().message;
  ASSERT_EQ(d->targets.size(), 1u);
  EXPECT_EQ(d->targets[0].key(), "jsonrpc@0.3");
  Json both = {{"supportedInterfaces",
                {{{"url", "http://h/"}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", "1.0"}},
                 {{"url", "http://h/v03"}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", "0.3"}}}}};
  auto d2 = choose_targets("http://h/", core::Expected<Json>(both), {}, "1.0");
  ASSERT_TRUE(d2.ok()) << d2.error().message;
  ASSERT_EQ(d2->targets.size(), 1u);
  EXPECT_EQ(d2->targets[0].key(), "jsonrpc");
  Json two = {{"supportedInterfaces",
               {{{"url", "http://h/"}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", "1.0"}},
                {{"url", "http://h/"}, {"protocolBinding", "HTTP+JSON"}, {"protocolVersion", "1.0"}}}}};
  auto d4 = choose_targets("http://h/", core::Expected<Json>(two), {"jsonrpc"}, "0.3");
  ASSERT_TRUE(d4.ok()) << d4.error().message;
  ASSERT_EQ(d4->targets.size(), 1u);
  EXPECT_EQ(d4->targets[0].key(), "jsonrpc@0.3");
  for (const auto& n : d4->notes) EXPECT_EQ(n.find("rest"), std::string::npos) << "rest is not tested: " << n;
  auto d3 = choose_targets("http://h/", core::fail(core::ErrorKind::kNotFound, "no card"), {"jsonrpc"}, "0.3");
  ASSERT_TRUE(d3.ok()) << d3.error().message;
  ASSERT_EQ(d3->targets.size(), 1u);
  EXPECT_EQ(d3->targets[0].key(), "jsonrpc@0.3");
}

TEST(ApplicabilityV03, KeysSeparate0_3TestsFrom1_0Wire) {
  scenario::Test generic;
  EXPECT_EQ(binding_mismatch(generic, "jsonrpc@0.3"), "");
  scenario::Test only03;
  only03.binding = "jsonrpc@0.3";
  EXPECT_EQ(binding_mismatch(only03, "jsonrpc@0.3"), "");
  EXPECT_NE(binding_mismatch(only03, "jsonrpc"), "");
  EXPECT_NE(binding_mismatch(only03, "stdio"), "");
  scenario::Test wire10;
  wire10.binding = "jsonrpc";
  EXPECT_EQ(binding_mismatch(wire10, "jsonrpc"), "");
  EXPECT_NE(binding_mismatch(wire10, "jsonrpc@0.3"), "");
}

TEST(ApplicabilityV03, ListTasksSkipsOn0_3) {
  scenario::Test t;
  scenario::Step st;
  st.id = "list";
  st.kind = scenario::StepKind::kOperation;
  st.operation = "list_tasks";
  t.steps.push_back(st);
  RunConfig c;
  c.target_url = "http://h/";
  BindingTarget b{"jsonrpc", "http://h/", "", "0.3"};
  std::string why = skip_reason(t, c, &b);
  EXPECT_NE(why.find("list_tasks has no A2A 0.3 form"), std::string::npos) << why;
  BindingTarget v1{"jsonrpc", "http://h/", "", "1.0"};
  EXPECT_EQ(skip_reason(t, c, &v1), "");
  auto r = describe(t, c, &b);
  EXPECT_EQ(r.binding, "jsonrpc@0.3");
  EXPECT_NE(r.replay_command.find("--a2a-version 0.3"), std::string::npos) << r.replay_command;
}

TEST(ApplicabilityV03, StatusUpdateWebhookWaitsSkipOn0_3) {
  scenario::Test t;
  scenario::Step st;
  st.id = "delivered";
  st.kind = scenario::StepKind::kWire;
  st.wire = scenario::WireAction{};
  st.wire->type = scenario::WireActionType::kExpectWebhook;
  st.wire->spec = Json{{"until", "statusUpdate.status.state == TASK_STATE_COMPLETED"}};
  t.steps.push_back(st);
  RunConfig c;
  c.target_url = "http://h/";
  for (const char* binding : {"jsonrpc", "rest"}) {
    BindingTarget b{binding, "http://h/", "", "0.3"};
    std::string why = skip_reason(t, c, &b);
    EXPECT_NE(why.find("A2A 0.3 webhooks deliver the whole Task"), std::string::npos) << binding << ": " << why;
    BindingTarget v1{binding, "http://h/", "", "1.0"};
    EXPECT_EQ(skip_reason(t, c, &v1), "") << binding;
  }
  t.steps[0].wire->spec = Json{{"count", 1}};
  BindingTarget b{"jsonrpc", "http://h/", "", "0.3"};
  EXPECT_EQ(skip_reason(t, c, &b), "") << "other webhook waits run on 0.3";
}

}  // namespace
}  // namespace a2a::engine

namespace a2a::engine {
namespace {

TEST(KnownFailuresV03, BindingKeyMatchesExactly) {
  std::vector<KnownFailure> known = {{"A2A-*", "0.3 streams", "jsonrpc@0.3"}};
  result::ScenarioResult on03;
  on03.id = "A2A-STREAM-001";
  on03.binding = "jsonrpc@0.3";
  on03.outcome = result::Outcome::kFail;
  apply_known_failures(on03, known);
  EXPECT_EQ(on03.outcome, result::Outcome::kXFail);
  result::ScenarioResult on10 = on03;
  on10.binding = "jsonrpc";
  on10.outcome = result::Outcome::kFail;
  apply_known_failures(on10, known);
  EXPECT_EQ(on10.outcome, result::Outcome::kFail) << "jsonrpc@0.3 does not match the 1.0 jsonrpc results";
}

}  // namespace
}  // namespace a2a::engine
