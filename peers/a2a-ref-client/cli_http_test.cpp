// run_cli with --url against scripted HTTP agents: the same output lines as
// over stdio, and exit 2 when the card cannot be used.
#include "peers/a2a-ref-client/cli_run.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "peers/a2a-ref-client/http_agent_test_util.hpp"

namespace a2a::client {
namespace {

struct CliOutcome {
  int code = -1;
  std::vector<Json> lines;
  std::string err;
};

CliOutcome run(const CliConfig& c, const std::string& script_text = "") {
  std::istringstream in(script_text);
  std::ostringstream out, err;
  CliOutcome r;
  r.code = run_cli(c, in, out, err);
  std::istringstream lines(out.str());
  for (std::string l; std::getline(lines, l);) r.lines.push_back(Json::parse(l));
  r.err = err.str();
  return r;
}

CliConfig http_config(const fake::HttpAgent& agent) {
  CliConfig c;
  c.url = agent.base();
  c.timeout = core::Millis(5000);
  return c;
}

TEST(CliHttp, RestOperationsPrintTheSameLinesAsStdio) {
  fake::HttpAgent agent(fake::one_interface_card("HTTP+JSON", "/"));
  agent.queue(fake::json_answer(200, R"({"id":"t-1"})"));
  agent.queue(fake::json_answer(404, R"({"error":{"code":404,"status":"NOT_FOUND","message":"gone","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}})"));
  agent.queue(fake::sse_answer({"data: {\"task\":{\"id\":\"t\"}}\n\n"}));
  CliConfig c = http_config(agent);
  c.verbose = true;
  c.ops.push_back({"get", model::Operation::kGetTask, {{"id", "t-1"}}});
  c.ops.push_back({"cancel", model::Operation::kCancelTask, {{"id", "x"}}});
  c.ops.push_back({"subscribe", model::Operation::kSubscribeToTask, {{"id", "t"}}});
  CliOutcome r = run(c);
  EXPECT_EQ(r.code, kExitOpFailed);
  ASSERT_EQ(r.lines.size(), 4u) << r.err;
  EXPECT_EQ(r.lines[0], Json::parse(R"({"op":"get","result":{"id":"t-1"}})"));
  EXPECT_EQ(r.lines[1]["error"], Json::parse(R"({"kind":"agent","code":-32001,"message":"gone","httpStatus":404,"status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]})"));
  EXPECT_EQ(r.lines[2], Json::parse(R"({"op":"subscribe","event":{"task":{"id":"t"}}})"));
  EXPECT_EQ(r.lines[3], Json::parse(R"({"op":"subscribe","end":true})"));
  EXPECT_NE(r.err.find("note: using interface #1 of 1: HTTP+JSON 1.0 at " + agent.base() + "/"), std::string::npos) << r.err;
}

TEST(CliHttp, ScriptRunsOverJsonRpcWithSavedValues) {
  fake::HttpAgent agent(fake::one_interface_card("JSONRPC", "/"));
  agent.queue(fake::json_answer(200, R"({"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t-7"}}})"));
  agent.queue(fake::json_answer(200, R"({"jsonrpc":"2.0","id":2,"result":{"id":"t-7"}})"));
  CliConfig c = http_config(agent);
  c.script_path = "-";
  CliOutcome r = run(c, "{\"op\":\"send\",\"params\":{\"message\":{}},\"as\":\"s\"}\n"
                        "{\"op\":\"get\",\"params\":{\"id\":\"${s.task.id}\"}}\n");
  EXPECT_EQ(r.code, kExitOk) << r.err;
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[1], Json::parse(R"({"op":"get","line":2,"result":{"id":"t-7"}})"));
  EXPECT_EQ(Json::parse(agent.requests().at(1).body)["params"], Json::parse(R"({"id":"t-7"})"));
}

TEST(CliHttp, V03CardExitsTwoWithAClearMessage) {
  fake::HttpAgent agent(R"({"name":"old","url":"{BASE}/","preferredTransport":"JSONRPC","protocolVersion":"0.3.0"})");
  CliConfig c = http_config(agent);
  c.ops.push_back({"get", model::Operation::kGetTask, {{"id", "t"}}});
  CliOutcome r = run(c);
  EXPECT_EQ(r.code, kExitTransport);
  EXPECT_TRUE(r.lines.empty());
  EXPECT_NE(r.err.find("agent speaks A2A 0.3 only; not supported yet"), std::string::npos) << r.err;
  EXPECT_TRUE(agent.requests().empty());
}

TEST(CliHttp, UnfetchableCardExitsTwo) {
  fake::HttpAgent agent("not json");
  CliConfig c = http_config(agent);
  c.ops.push_back({"get", model::Operation::kGetTask, {{"id", "t"}}});
  CliOutcome r = run(c);
  EXPECT_EQ(r.code, kExitTransport);
  EXPECT_NE(r.err.find("not a JSON object"), std::string::npos) << r.err;
  EXPECT_EQ(agent.card_fetches(), 1);
}

TEST(CliHttp, AgentAndUrlTogetherOrNeitherIsAUsageError) {
  CliConfig both;
  both.agent = "/bin/true";
  both.url = "http://127.0.0.1:1";
  EXPECT_EQ(run(both).code, kExitUsage);
  EXPECT_EQ(run(CliConfig{}).code, kExitUsage);
  CliConfig binding_without_url;
  binding_without_url.agent = "/bin/true";
  binding_without_url.binding = "rest";
  EXPECT_EQ(run(binding_without_url).code, kExitUsage);
  CliConfig bad_url;
  bad_url.url = "ftp://x";
  EXPECT_EQ(run(bad_url).code, kExitUsage);
}

}  // namespace
}  // namespace a2a::client
