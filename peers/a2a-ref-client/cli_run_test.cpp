// run_cli end to end against /bin/sh fake agents: output lines and exit codes.
#include "peers/a2a-ref-client/cli_run.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "peers/a2a-ref-client/fake_agent_test_util.hpp"

namespace a2a::client {
namespace {

struct CliOutcome {
  int code = -1;
  std::vector<Json> lines;
  std::string out;
  std::string err;
};

class CliRun : public ::testing::Test {
 protected:
  void TearDown() override { std::remove(script_file_.c_str()); }

  // Writes the fake agent to a file so --agent needs no shell quoting.
  CliConfig config_for(const std::string& agent_script) {
    std::ofstream(script_file_) << agent_script << "\n";
    CliConfig c;
    c.agent = "/bin/sh " + script_file_;
    c.timeout = core::Millis(3000);
    c.handshake_timeout = core::Millis(3000);
    c.close_grace = core::Millis(2000);
    return c;
  }

  CliOutcome run(const CliConfig& c, const std::string& script_text = "") {
    std::istringstream in(script_text);
    std::ostringstream out, err;
    CliOutcome r;
    r.code = run_cli(c, in, out, err);
    std::istringstream lines(out.str());
    for (std::string l; std::getline(lines, l);) r.lines.push_back(Json::parse(l));
    r.out = out.str();
    r.err = err.str();
    return r;
  }

  std::string script_file_ = fake::temp_path("cli_agent") + "_" + std::to_string(::getpid()) + ".sh";
};

const Json kGet = {{"id", "t-1"}};

std::string answer_get(std::string_view response) {
  return fake::handshake() + fake::consume(fake::ack_bytes() + fake::request_bytes(1, "tasks/get", kGet)) +
         fake::emit(response) + fake::until_eof();
}

TEST_F(CliRun, SuccessfulOperationPrintsOneResultLineAndExitsZero) {
  CliConfig c = config_for(answer_get(R"({"jsonrpc":"2.0","id":1,"result":{"id":"t-1"}})"));
  c.ops.push_back({"get", model::Operation::kGetTask, kGet});
  CliOutcome r = run(c);
  EXPECT_EQ(r.code, kExitOk) << r.err;
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0], Json::parse(R"({"op":"get","result":{"id":"t-1"}})"));
}

TEST_F(CliRun, AgentErrorPrintsTheErrorObjectAndExitsOne) {
  CliConfig c = config_for(answer_get(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no such task"}})"));
  c.ops.push_back({"get", model::Operation::kGetTask, kGet});
  CliOutcome r = run(c);
  EXPECT_EQ(r.code, kExitOpFailed);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0]["error"]["code"], -32001);
  EXPECT_EQ(r.lines[0]["error"]["kind"], "agent");
  EXPECT_NE(r.err.find("get failed: agent error -32001"), std::string::npos) << r.err;
}

TEST_F(CliRun, AgentTextInDiagnosticsReachesTheTerminalEscaped) {
  // ESC ] 0 ; ... BEL retitles a terminal window; U+202E reverses the text after it.
  CliConfig c = config_for(answer_get(
      R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"gone\u001b]0;pwned\u0007 \u202e!"}})"));
  c.ops.push_back({"get", model::Operation::kGetTask, kGet});
  CliOutcome r = run(c);
  EXPECT_EQ(r.code, kExitOpFailed);
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\x07'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\xe2\x80\xae"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gone\\x1b]0;pwned\\x07"), std::string::npos) << r.err;
  // The result line on stdout is JSON: the message is there, as JSON escapes.
  EXPECT_EQ(r.out.find("\xe2\x80\xae"), std::string::npos) << r.out;
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0]["error"]["message"], "gone\x1b]0;pwned\x07 \xe2\x80\xae!");
}

TEST_F(CliRun, HandshakeFailureExitsTwoAndSaysWhy) {
  CliConfig c = config_for(fake::handshake(R"("supportedVariants":[])") + "sleep 10");
  c.ops.push_back({"get", model::Operation::kGetTask, kGet});
  CliOutcome r = run(c);
  EXPECT_EQ(r.code, kExitTransport);
  EXPECT_TRUE(r.lines.empty());
  EXPECT_NE(r.err.find("supportedVariants is empty"), std::string::npos) << r.err;
}

TEST_F(CliRun, SilentAgentTimesOutAndExitsOne) {
  CliConfig c = config_for(fake::handshake() + fake::until_eof());
  c.timeout = core::Millis(200);
  c.ops.push_back({"get", model::Operation::kGetTask, kGet});
  CliOutcome r = run(c);
  EXPECT_EQ(r.code, kExitOpFailed);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0]["error"]["kind"], "timeout");
}

TEST_F(CliRun, UnclosedQuoteInAgentIsAUsageError) {
  CliConfig c;
  c.agent = "/bin/sh 'unclosed";
  CliOutcome r = run(c);
  EXPECT_EQ(r.code, kExitUsage);
}

TEST_F(CliRun, StreamPrintsEachEventThenEnd) {
  Json params = Json::parse(R"({"id":"t-1"})");
  std::string agent = fake::handshake() +
                      fake::consume(fake::ack_bytes() + fake::request_bytes(1, "tasks/subscribe", params)) +
                      fake::emit(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"task":{"id":"t-1"}}})") +
                      fake::emit(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"statusUpdate":{"taskId":"t-1"}}})") +
                      fake::emit(R"({"jsonrpc":"2.0","id":1,"result":null})") + fake::until_eof();
  CliConfig c = config_for(agent);
  c.ops.push_back({"subscribe", model::Operation::kSubscribeToTask, params});
  CliOutcome r = run(c);
  EXPECT_EQ(r.code, kExitOk) << r.err;
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(r.lines[0]["event"]["task"]["id"], "t-1");
  EXPECT_TRUE(r.lines[1]["event"].contains("statusUpdate"));
  EXPECT_EQ(r.lines[2], Json::parse(R"({"op":"subscribe","end":true})"));
}

TEST_F(CliRun, ScriptSubstitutesASavedResultIntoALaterStep) {
  Json send = Json::parse(R"({"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}})");
  size_t first = fake::ack_bytes() + fake::request_bytes(1, "message/send", send);
  size_t second = fake::request_bytes(2, "tasks/get", Json::parse(R"({"id":"T9"})"));
  std::string agent = fake::handshake() + fake::consume(first) +
                      fake::emit(R"({"jsonrpc":"2.0","id":1,"result":{"task":{"id":"T9"}}})") +
                      "if head -c " + std::to_string(second) + " | grep -q T9; then " +
                      fake::emit(R"({"jsonrpc":"2.0","id":2,"result":"saw T9"})") + "fi; " + fake::until_eof();
  CliConfig c = config_for(agent);
  c.script_path = "-";
  std::string script = "# comment\n{\"op\":\"send\",\"params\":" + send.dump() +
                       ",\"as\":\"s\"}\n\n{\"op\":\"get\",\"params\":{\"id\":\"${s.task.id}\"}}\n";
  CliOutcome r = run(c, script);
  EXPECT_EQ(r.code, kExitOk) << r.err;
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[0]["line"], 2);
  EXPECT_EQ(r.lines[1], Json::parse(R"({"op":"get","line":4,"result":"saw T9"})"));
}

TEST_F(CliRun, BadScriptLineStopsWithAUsageErrorNamingTheLine) {
  CliConfig c = config_for(fake::handshake() + fake::until_eof());
  c.script_path = "-";
  CliOutcome r = run(c, "{\"op\":\"sned\"}\n");
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("<stdin>:1"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace a2a::client
