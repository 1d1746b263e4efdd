// Per-binding expansion and applicability, raw steps and webhooks, run
// against a scripted agent that speaks both HTTP bindings at one URL.
#include <gtest/gtest.h>

#include "runner/engine/engine_test_support.hpp"
#include "runner/engine/raw_exec.hpp"
#include "runner/engine/run.hpp"
#include "runner/engine/scenario_runner.hpp"
#include "runner/engine/webhooks.hpp"

namespace a2a::engine {
namespace {

using testing::json_reply;
using testing::ScriptedAgent;
using Ex = std::shared_ptr<transport::HttpExchange>;

scenario::Step op_step(const std::string& id, const std::string& op, Json params) {
  scenario::Step s;
  s.id = id;
  s.operation = op;
  s.params = std::move(params);
  return s;
}

scenario::Test test_with(std::vector<scenario::Step> steps, std::string binding = "",
                         std::vector<std::string> transport = {}) {
  scenario::Test t;
  t.id = "T-" + binding;
  t.name = "t";
  t.binding = std::move(binding);
  t.transport = std::move(transport);
  t.steps = std::move(steps);
  t.spec_version = "1.0";
  return t;
}

struct MismatchCase {
  const char* name;
  std::string test_binding;
  std::vector<std::string> transport;
  bool raw;
  std::string run_binding;
  std::string says;  // "" = applies
};

class BindingMismatch : public ::testing::TestWithParam<MismatchCase> {};

TEST_P(BindingMismatch, DecidesWhereATestApplies) {
  const auto& c = GetParam();
  scenario::Step st = op_step("a", "get_task", Json::object());
  if (c.raw) st.kind = scenario::StepKind::kRaw;
  auto t = test_with({st}, c.test_binding, c.transport);
  std::string why = binding_mismatch(t, c.run_binding);
  if (c.says.empty()) EXPECT_EQ(why, "");
  else EXPECT_NE(why.find(c.says), std::string::npos) << why;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BindingMismatch,
    ::testing::Values(
        MismatchCase{"StdioTestOnStdio", "stdio", {}, false, "stdio", ""},
        MismatchCase{"StdioTestOnRest", "stdio", {}, false, "rest", "written for the stdio binding; this run is rest"},
        MismatchCase{"HttpTestOnBoth", "http", {}, false, "jsonrpc", ""},
        MismatchCase{"HttpTestOnRest", "http", {}, false, "rest", ""},
        MismatchCase{"HttpTestOnStdio", "http", {}, false, "stdio", "written for the HTTP binding"},
        MismatchCase{"JsonRpcTestOnRest", "jsonrpc", {}, false, "rest", "written for the jsonrpc binding"},
        MismatchCase{"AnyTestOnEveryBinding", "", {}, false, "rest", ""},
        MismatchCase{"ActsFilterKeepsListed", "", {"jsonrpc"}, false, "jsonrpc", ""},
        MismatchCase{"ActsFilterDropsOthers", "", {"jsonrpc", "grpc"}, false, "rest",
                     "ACTS transport filter [jsonrpc, grpc] does not include rest"},
        MismatchCase{"ActsFilterOnStdio", "", {"rest"}, false, "stdio", "does not include stdio"},
        MismatchCase{"RawNeedsHttp", "", {}, true, "stdio", "raw HTTP steps need an HTTP binding"},
        MismatchCase{"RawOnHttp", "", {}, true, "jsonrpc", ""}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(BindingRun, CardFetchNeedsHttp) {
  auto t = test_with({op_step("c", "get_agent_card", Json::object())});
  EXPECT_NE(binding_mismatch(t, "stdio").find("needs an HTTP binding"), std::string::npos);
  EXPECT_EQ(binding_mismatch(t, "rest"), "");
}

// Answers GetTask on both bindings: JSON-RPC POST / and REST GET /tasks/{id}.
void both_bindings(const Ex& ex) {
  const auto& rq = ex->request();
  if (rq.method == "POST" && rq.target == "/") {
    Json id = Json::parse(rq.body)["id"];
    Json task = {{"id", "t-1"}, {"status", {{"state", "TASK_STATE_COMPLETED"}}}};  // a valid Task (a2a.proto)
    ex->reply(json_reply(200, Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", task}}.dump()));
  } else if (rq.method == "GET" && rq.target.starts_with("/tasks/")) {
    ex->reply(json_reply(200, R"({"id":"t-1","status":{"state":"TASK_STATE_COMPLETED"}})"));
  } else {
    ex->reply(json_reply(404, R"({"error":{"code":404,"status":"NOT_FOUND","message":"no"}})"));
  }
}

RunConfig url_config(const std::string& url) {
  RunConfig c;
  c.target_url = url;
  c.bindings = {{"jsonrpc", url, "", "1.0"}, {"rest", url, "", "1.0"}};
  c.suite_paths = {"x.acts.yaml"};
  return c;
}

TEST(BindingRun, EachTestRunsOncePerBindingItAppliesTo) {
  ScriptedAgent agent(both_bindings);
  RunConfig c = url_config(agent.url());
  scenario::Step get = op_step("get", "get_task", {{"id", "t-1"}});
  get.expect = Json{{"status", 200}, {"body", {{"id", "t-1"}}}};
  auto any = test_with({get}, "");
  auto stdio = test_with({get}, "stdio");
  auto rest_only = test_with({get}, "rest");
  auto run = run_all({&any, &stdio, &rest_only}, c);
  ASSERT_EQ(run.scenarios.size(), 3u);
  EXPECT_EQ(run.bindings, (std::vector<std::string>{"jsonrpc", "rest"}));
  EXPECT_EQ(run.target, agent.url());
  // jsonrpc pass: any; rest pass: any, rest_only. The stdio test is not a
  // result: it is listed once as not applicable, with why on each binding.
  EXPECT_EQ(run.scenarios[0].binding, "jsonrpc");
  EXPECT_EQ(run.scenarios[0].outcome, result::Outcome::kPass) << run.scenarios[0].reason;
  EXPECT_EQ(run.scenarios[1].binding, "rest");
  EXPECT_EQ(run.scenarios[1].outcome, result::Outcome::kPass) << run.scenarios[1].reason;
  EXPECT_EQ(run.scenarios[2].id, "T-rest");
  EXPECT_EQ(run.scenarios[2].outcome, result::Outcome::kPass);
  ASSERT_EQ(run.not_applicable.size(), 1u);
  EXPECT_EQ(run.not_applicable[0].reason, "written for the stdio binding; this run is jsonrpc, rest");
  EXPECT_EQ(run.not_applicable[0].ids, std::vector<std::string>{"T-stdio"});
  EXPECT_EQ(run.counts().skip, 0);
  EXPECT_EQ(planned_results({&any, &stdio, &rest_only}, c), 3u);
  EXPECT_NE(run.scenarios[2].replay_command.find("--url " + agent.url() + " --binding rest --id T-"),
            std::string::npos)
      << run.scenarios[2].replay_command;
  EXPECT_TRUE(run.scenarios[2].profile.empty());
  EXPECT_FALSE(run.scenarios[2].transcript.empty()) << "the HTTP exchange is in the transcript";
  EXPECT_EQ(run.exit_code(), 0);
}

TEST(BindingRun, AFailureOnOneBindingFailsTheRun) {
  ScriptedAgent agent(both_bindings);
  RunConfig c = url_config(agent.url());
  scenario::Step get = op_step("get", "get_task", {{"id", "t-1"}});
  get.expect_error = Json{{"error_type", "TaskNotFoundError"}};
  auto t = test_with({get});
  auto run = run_all({&t}, c);
  ASSERT_EQ(run.scenarios.size(), 2u);
  EXPECT_EQ(run.scenarios[0].outcome, result::Outcome::kFail);
  EXPECT_EQ(run.exit_code(), 1);
}

// An agent command that cannot start is found before any scenario: each is
// SKIP with the cause, the run's diagnosis says it once with the command.
TEST(BindingRun, AnAgentThatCannotStartIsDiagnosedBeforeAnyScenario) {
  RunConfig c;
  c.agent_command = "/nonexistent/a2a-agent --stdio";
  c.agent_argv = {"/nonexistent/a2a-agent", "--stdio"};
  auto a = test_with({op_step("get", "get_task", {{"id", "t-1"}})}, "stdio");
  auto b = a;
  b.id = "T-other";
  auto run = run_all({&a, &b}, c);
  ASSERT_EQ(run.scenarios.size(), 2u);
  for (const auto& s : run.scenarios) {
    EXPECT_EQ(s.outcome, result::Outcome::kSkip);
    EXPECT_EQ(s.reason.rfind("not run: the agent cannot be started: '/nonexistent/a2a-agent'", 0), 0u) << s.reason;
  }
  EXPECT_NE(run.diagnosis.find("stdio: the agent cannot be started"), std::string::npos) << run.diagnosis;
  EXPECT_NE(run.diagnosis.find("(command: /nonexistent/a2a-agent --stdio); 2 scenario(s) were not run"),
            std::string::npos) << run.diagnosis;
  EXPECT_EQ(run.exit_code(), 1);
  EXPECT_FALSE(run.conformant());
}

// A payload that breaks a2a.proto fails the step although its expectation
// holds, on both bindings, with the JSON path and the spec quote; unknown
// members alone do not.
TEST(BindingRun, AnInvalidA2APayloadFailsTheStepWithPathAndQuote) {
  auto answer = [](const Json& task) {
    return [task](const Ex& ex) {
      const auto& rq = ex->request();
      if (rq.method == "POST" && rq.target == "/")
        ex->reply(json_reply(200, Json{{"jsonrpc", "2.0"}, {"id", Json::parse(rq.body)["id"]}, {"result", task}}.dump()));
      else
        ex->reply(json_reply(200, task.dump()));
    };
  };
  Json bad = {{"id", "t-1"}, {"status", {{"state", "TASK_STATE_COMPLETED"}, {"timestamp", 1767323045678}}}};
  ScriptedAgent agent(answer(bad));
  RunConfig c = url_config(agent.url());
  scenario::Step get = op_step("get", "get_task", {{"id", "t-1"}});
  get.expect = Json{{"body", {{"id", "t-1"}}}};
  auto t = test_with({get});
  auto run = run_all({&t}, c);
  ASSERT_EQ(run.scenarios.size(), 2u);
  for (const auto& sc : run.scenarios) {
    EXPECT_EQ(sc.outcome, result::Outcome::kFail) << sc.binding;
    EXPECT_NE(sc.reason.find("invalid A2A payload: status.timestamp: expected an RFC 3339 timestamp string"),
              std::string::npos) << sc.reason;
    EXPECT_NE(sc.reason.find("MUST be represented as ISO 8601 formatted strings in UTC timezone"), std::string::npos)
        << sc.reason;
  }
  Json extra = {{"id", "t-1"}, {"status", {{"state", "TASK_STATE_COMPLETED"}}}, {"vendorField", {{"x", 1}}}};
  ScriptedAgent fine(answer(extra));
  auto ok = run_all({&t}, url_config(fine.url()));
  ASSERT_EQ(ok.scenarios.size(), 2u);
  for (const auto& sc : ok.scenarios) EXPECT_EQ(sc.outcome, result::Outcome::kPass) << sc.reason;
}

TEST(BindingRun, AnAgentThatNeverAnswersIsATimeoutAndTheRunGoesOn) {
  std::vector<Ex> held;  // never answered; the server closes them at stop
  std::mutex mu;
  ScriptedAgent agent([&](const Ex& ex) {
    std::lock_guard lk(mu);
    held.push_back(ex);
  });
  RunConfig c = url_config(agent.url());
  c.bindings.resize(1);
  auto t = test_with({op_step("get", "get_task", {{"id", "t-1"}})});
  t.timeout_ms = 300;
  auto run = run_all({&t, &t}, c);
  ASSERT_EQ(run.scenarios.size(), 2u);
  EXPECT_EQ(run.scenarios[0].outcome, result::Outcome::kTimeout) << run.scenarios[0].reason;
  EXPECT_EQ(run.scenarios[1].outcome, result::Outcome::kTimeout);
  EXPECT_NE(run.scenarios[0].reason.find("scenario deadline of 300 ms expired"), std::string::npos)
      << run.scenarios[0].reason;
}

TEST(BindingRun, KnownFailureMayNameOneBinding) {
  result::ScenarioResult rest, rpc;
  rest.id = rpc.id = "X-1";
  rest.binding = "rest";
  rpc.binding = "jsonrpc";
  rest.outcome = result::Outcome::kFail;
  rpc.outcome = result::Outcome::kPass;
  std::vector<KnownFailure> known = {{"X-*", "REST only", "rest"}};
  apply_known_failures(rest, known);
  apply_known_failures(rpc, known);
  EXPECT_EQ(rest.outcome, result::Outcome::kXFail);
  EXPECT_EQ(rpc.outcome, result::Outcome::kPass) << "not an XPASS on the other binding";
}

TEST(RawStep, RootHasStatusLowerCasedHeadersAndParsedBody) {
  transport::HttpResponse resp;
  resp.status = 201;
  resp.headers = {{"Content-Type", "application/json"}, {"X-A", "1"}, {"x-a", "2"}};
  resp.body = R"({"k":true})";
  Json root = raw_root(resp);
  EXPECT_EQ(root, Json::parse(R"({"status":201,"headers":{"content-type":"application/json","x-a":"1, 2"},"body":{"k":true}})"));
  resp.body = "plain";
  EXPECT_EQ(raw_root(resp)["body"], "plain");
}

TEST(RawStep, SseBodyGivesOneEventPerData) {
  auto evs = raw_events("data: {\"jsonrpc\":\"2.0\",\"id\":1}\n\n: keep-alive\n\ndata: text\n\n");
  ASSERT_EQ(evs.size(), 2u);
  EXPECT_EQ(evs[0]["jsonrpc"], "2.0");
  EXPECT_EQ(evs[1], "text");
}

TEST(RawStep, SendsAsWrittenAndChecksStatusHeadersBodyAndCaptures) {
  ScriptedAgent agent([](const Ex& ex) {
    ex->reply(transport::ServerReply{418, {{"Content-Type", "application/json"}, {"X-Tea", "yes"}}, R"({"id":"abc"})", false});
  });
  testing::HttpSessionFixture f("jsonrpc", agent.url("/rpc"));
  scenario::Step st;
  st.id = "r";
  st.kind = scenario::StepKind::kRaw;
  st.raw = Json::parse(R"({"method":"POST","path":"/x","headers":{"A2A-Version":"9.9"},"body":{"a":1}})");
  st.expect = Json::parse(R"({"status":418,"headers":{"x-tea":"yes"},"body":{"id":{"type":"string"}}})");
  st.capture = {{"got", "body.id"}};
  auto o = run_raw_step(f.s, st);
  EXPECT_TRUE(o.ok()) << (o.failure ? o.failure->message : "");
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].target, "/rpc/x");
  EXPECT_EQ(reqs[0].header("A2A-Version").value_or(""), "9.9");
  EXPECT_EQ(reqs[0].header("Content-Type").value_or(""), "application/json");
  EXPECT_EQ(*f.s.vars.resolve("r.got"), "abc");
  st.expect = Json::parse(R"({"status":200})");
  auto bad = run_raw_step(f.s, st);
  EXPECT_EQ(bad.outcome, result::Outcome::kFail);
  EXPECT_NE(bad.failure->message.find("expected HTTP status 200, got 418"), std::string::npos);
}

TEST(RawStep, WellKnownPathsJoinTheBaseUrl) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(json_reply(200, R"({"name":"n"})")); });
  testing::HttpSessionFixture f("rest", agent.url("/iface"));
  f.config.target_url = agent.url("/base");
  scenario::Step st;
  st.id = "card";
  st.kind = scenario::StepKind::kRaw;
  st.raw = Json::parse(R"({"method":"GET","path":"/.well-known/agent-card.json"})");
  EXPECT_TRUE(run_raw_step(f.s, st).ok());
  EXPECT_EQ(agent.requests().at(0).target, "/base/.well-known/agent-card.json");
}

TEST(RawStep, BytesGoOutAsTheyAre) {
  ScriptedAgent agent([](const Ex& ex) { ex->reply(json_reply(200, "{}")); });
  testing::HttpSessionFixture f("rest", agent.url());
  scenario::Step st;
  st.id = "b";
  st.kind = scenario::StepKind::kRaw;
  st.raw_bytes = "GET /raw-bytes HTTP/1.1\r\nHost: x\r\nX-Odd:  spaced\r\n\r\n";
  st.expect = Json::parse(R"({"status":200})");
  auto o = run_raw_step(f.s, st);
  EXPECT_TRUE(o.ok()) << (o.failure ? o.failure->message : "");
  ASSERT_EQ(agent.requests().size(), 1u);
  EXPECT_EQ(agent.requests()[0].target, "/raw-bytes");
}

TEST(Webhooks, ReceiverRecordsDeliveriesPerScenarioPath) {
  auto rx = WebhookReceiver::start();
  ASSERT_TRUE(rx.ok()) << rx.error().message;
  std::string url, other;
  auto inbox = (*rx)->open(url);
  auto inbox2 = (*rx)->open(other);
  EXPECT_NE(url, other);
  EXPECT_TRUE(url.starts_with("http://127.0.0.1:")) << url;
  transport::HttpRequest req;
  req.method = "POST";
  req.target = transport::Url::parse(url)->target();
  req.headers = {{"Content-Type", "application/json"}, {"Authorization", "Bearer tok"}};
  req.body = R"({"statusUpdate":{"status":{"state":"TASK_STATE_COMPLETED"}}})";
  auto resp = transport::http_fetch(*transport::Url::parse(url), req, testing::soon());
  ASSERT_TRUE(resp.ok()) << resp.error().message;
  EXPECT_EQ(resp->status, 200);
  auto got = inbox->wait(0, [](const auto& l) { return !l.empty(); }, testing::soon());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].body, req.body);
  EXPECT_TRUE(inbox2->wait(0, [](const auto& l) { return !l.empty(); }, testing::soon(50)).empty());
  req.target = "/hooks/unknown";
  auto miss = transport::http_fetch(*transport::Url::parse(url), req, testing::soon());
  ASSERT_TRUE(miss.ok());
  EXPECT_EQ(miss->status, 404);
}

TEST(Webhooks, ExpectWebhookWaitsUntilAndAssertsHeadersAndBodies) {
  auto rx = WebhookReceiver::start();
  ASSERT_TRUE(rx.ok());
  testing::HttpSessionFixture f("jsonrpc", "http://127.0.0.1:1/");
  std::string url;
  f.s.hooks = (*rx)->open(url);
  f.s.hooks->set_transcript(&f.transcript);
  auto post = [&](const std::string& state) {
    transport::HttpRequest req;
    req.method = "POST";
    req.target = transport::Url::parse(url)->target();
    req.headers = {{"Content-Type", "application/json"}};
    req.body = Json{{"statusUpdate", {{"taskId", "t-9"}, {"status", {{"state", state}}}}}}.dump();
    ASSERT_TRUE(transport::http_fetch(*transport::Url::parse(url), req, testing::soon()).ok());
  };
  post("TASK_STATE_WORKING");
  post("TASK_STATE_COMPLETED");
  scenario::WireAction w;
  w.type = scenario::WireActionType::kExpectWebhook;
  w.spec = Json::parse(R"({"until":"statusUpdate.status.state == TASK_STATE_COMPLETED","within_ms":2000,
                           "headers":{"Content-Type":{"starts_with":"application/json"}},
                           "each_body":{"statusUpdate":{"taskId":"t-9"}}})");
  auto o = expect_webhook(f.s, w, "hook", {{"task", "statusUpdate.taskId"}});
  EXPECT_TRUE(o.ok()) << (o.failure ? o.failure->message : "");
  EXPECT_EQ(f.s.hooks->cursor.load(), 2u);
  EXPECT_EQ(*f.s.vars.resolve("hook.task"), "t-9");
  bool noted = false;
  for (const auto& e : f.transcript.entries()) noted = noted || e.bytes.find("webhook delivery #2") != std::string::npos;
  EXPECT_TRUE(noted);
  w.spec = Json::parse(R"({"count":1,"within_ms":100})");
  auto none = expect_webhook(f.s, w, "again", {});
  EXPECT_EQ(none.outcome, result::Outcome::kFail);
  EXPECT_NE(none.failure->message.find("expected 1 webhook deliveries"), std::string::npos) << none.failure->message;
  (*rx)->close(f.s.hooks);
}

TEST(Webhooks, NeededByRequirementVariableOrStep) {
  auto t = test_with({op_step("a", "get_task", Json::object())});
  EXPECT_FALSE(needs_webhooks(t));
  t.runner_requirements = {"webhook_endpoint"};
  EXPECT_TRUE(needs_webhooks(t));
  auto v = test_with({op_step("a", "create_push_config", {{"url", "{{ webhookUrl }}"}})});
  EXPECT_TRUE(needs_webhooks(v));
}

TEST(BindingRun, ReplayCommandRepeatsHeadersWithCredentialsRedacted) {
  RunConfig c = url_config("http://127.0.0.1:9");
  c.http_headers = {{"Authorization", "Bearer s3cret"}, {"X-Api-Key", "k1"}, {"X-Tenant-Hint", "blue"}};
  scenario::Step get = op_step("get", "get_task", {{"id", "t-1"}});
  auto t = test_with({get}, "");
  std::string cmd = replay_command(t, c, &c.bindings[0]);
  EXPECT_NE(cmd.find("--header 'Authorization: <redacted>'"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find("--header 'X-Api-Key: <redacted>'"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find("--header 'X-Tenant-Hint: blue'"), std::string::npos) << cmd;
  EXPECT_EQ(cmd.find("s3cret"), std::string::npos) << cmd;
  EXPECT_EQ(cmd.find("k1"), std::string::npos) << cmd;
}

}  // namespace
}  // namespace a2a::engine
