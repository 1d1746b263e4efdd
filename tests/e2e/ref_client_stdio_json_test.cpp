// a2a-ref-client and a2a-ref-agent speaking the stdio-json profile
// (stdio-binding.md §4, docs/stdio-json.md) over real pipes: the CLI end to
// end, and the client library on the points where stdio-json differs from
// P46 (handshake checks, streamEnd, cancelStream, system/shutdown, heartbeats).
#include <gtest/gtest.h>

#include <mutex>

#include "peers/a2a-ref-client/session.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_ref_client_stdio_json {

namespace {

using a2a::client::SessionOptions;
using a2a::client::StdioSession;
using a2a::client::WireProfile;
using a2a::core::Deadline;
using a2a::core::Millis;
using a2a::model::Operation;
using Json = nlohmann::json;

const std::string kAgent = A2A_REF_AGENT;

Json message(const std::string& text) {
  static int n = 0;
  return {{"messageId", "json-e2e-" + std::to_string(++n)}, {"role", "ROLE_USER"}, {"parts", {{{"text", text}}}}};
}

SessionOptions json_options(std::vector<std::string>* diagnostics = nullptr, std::mutex* mu = nullptr) {
  SessionOptions o = a2a::client::options_for_profile(SessionOptions{}, WireProfile::kStdioJson);
  if (diagnostics) {
    o.on_diagnostic = [diagnostics, mu](const std::string& d) {
      std::lock_guard lk(*mu);
      diagnostics->push_back(d);
    };
  }
  return o;
}

std::vector<Json> json_lines(const std::string& out) {
  std::vector<Json> lines;
  size_t pos = 0;
  for (size_t nl; (nl = out.find('\n', pos)) != std::string::npos; pos = nl + 1) lines.push_back(Json::parse(out.substr(pos, nl - pos)));
  return lines;
}

TEST(RefClientStdioJson, CliStreamsEventsUntilStreamEndAndExitsZero) {
  auto r = a2a::testing::run_command({A2A_REF_CLIENT, "--profile", "stdio-json", "--agent",
                                      "'" + kAgent + "' --profile stdio-json", "--timeout-ms", "10000", "stream",
                                      "--text", "tck-stream-basic"},
                                     20000);
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<Json> lines = json_lines(r.out);
  ASSERT_GE(lines.size(), 3u) << r.out;
  EXPECT_TRUE(lines.front().dump().find("\"task\"") != std::string::npos) << lines.front();
  EXPECT_NE(r.out.find("TASK_STATE_COMPLETED"), std::string::npos) << r.out;
}

TEST(RefClientStdioJson, CloseSendsSystemShutdownSoTheAgentExitsZeroWithoutEof) {
  // life-exit-nonzero-on-eof: only a stdin EOF would make this agent exit 1.
  auto s = StdioSession::connect({kAgent, "--profile", "stdio-json", "--fault", "life-exit-nonzero-on-eof"},
                                 json_options());
  ASSERT_TRUE(s.ok()) << s.error().str();
  EXPECT_EQ((*s)->handshake().raw["protocol"], "a2a-stdio");
  auto r = (*s)->call(Operation::kGetTask, {{"id", "missing"}}, Deadline::after(Millis(5000)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.code(), -32001);
  auto st = (*s)->close();
  EXPECT_TRUE(st.exited && st.code == 0) << st.str();
}

TEST(RefClientStdioJson, AgentHeartbeatsAreIgnoredSilently) {
  std::vector<std::string> diagnostics;
  std::mutex mu;
  auto s = StdioSession::connect({kAgent, "--profile", "stdio-json", "--heartbeat-ms", "50"}, json_options(&diagnostics, &mu));
  ASSERT_TRUE(s.ok()) << s.error().str();
  for (int i = 0; i < 5; ++i) {  // spans several heartbeat periods
    auto r = (*s)->call(Operation::kSendMessage, {{"message", message("tck-long-running delay=60")}},
                        Deadline::after(Millis(5000)));
    ASSERT_TRUE(r.ok()) << r.error.message;
  }
  auto st = (*s)->close();
  EXPECT_TRUE(st.exited && st.code == 0) << st.str();
  std::lock_guard lk(mu);
  EXPECT_TRUE(diagnostics.empty()) << diagnostics.front();
}

TEST(RefClientStdioJson, AnAbandonedStreamIsCanceledSoTheNextOneStartsAtOnce) {
  auto s = StdioSession::connect({kAgent, "--profile", "stdio-json"}, json_options());
  ASSERT_TRUE(s.ok()) << s.error().str();
  auto sent = (*s)->call(Operation::kSendMessage,
                         {{"message", message("tck-cancel")}, {"configuration", {{"returnImmediately", true}}}},
                         Deadline::after(Millis(5000)));
  ASSERT_TRUE(sent.ok()) << sent.error.message;
  int first_events = 0;
  auto gave_up = (*s)->stream(Operation::kSubscribeToTask, {{"id", sent.result["task"]["id"]}},
                              [&](const a2a::client::StreamItem&) { ++first_events; }, Deadline::after(Millis(500)));
  EXPECT_FALSE(gave_up.ok()) << "the task never ends, so the stream hits its deadline";
  EXPECT_EQ(first_events, 1) << "the snapshot";
  // Without cancelStream the abandoned stream would never end and block this one.
  int events = 0;
  auto next = (*s)->stream(Operation::kSendStreamingMessage, {{"message", message("tck-stream-basic")}},
                           [&](const a2a::client::StreamItem&) { ++events; }, Deadline::after(Millis(3000)));
  EXPECT_TRUE(next.ok()) << next.error.message;
  EXPECT_GE(events, 3);
  (*s)->close();
}

TEST(RefClientStdioJson, HandshakeOfTheOtherProfileIsRefusedNamingTheMember) {
  auto p46_agent = StdioSession::connect({kAgent, "--profile", "p46"}, json_options());
  ASSERT_FALSE(p46_agent.ok());
  EXPECT_NE(p46_agent.error().message.find("stdio-json"), std::string::npos) << p46_agent.error().message;
  auto no_version = StdioSession::connect({kAgent, "--profile", "stdio-json", "--fault", "json-hs-no-version"},
                                          json_options());
  ASSERT_FALSE(no_version.ok());
  EXPECT_NE(no_version.error().message.find("protocol"), std::string::npos) << no_version.error().message;
  auto p46_client = StdioSession::connect({kAgent, "--profile", "stdio-json"}, SessionOptions{});
  ASSERT_FALSE(p46_client.ok());
  EXPECT_NE(p46_client.error().message.find("a2a/v1"), std::string::npos) << p46_client.error().message;
}

}  // namespace

}  // namespace e2e_ref_client_stdio_json
