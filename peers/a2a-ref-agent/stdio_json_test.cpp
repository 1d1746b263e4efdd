// The stdio-json profile of the stdio server (stdio-binding.md §4,
// docs/stdio-json.md), driven over real pipes by StdioHarness.
#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/exit_codes.hpp"
#include "peers/a2a-ref-agent/service_params.hpp"
#include "peers/a2a-ref-agent/test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

constexpr const char* kSession = "json-session-1";

ServerOptions json_options(Faults faults = {}) {
  ServerOptions opt = default_server_options(*profile_by_name("stdio-json"));
  opt.faults = faults;
  opt.agent = fast_config();
  opt.ack_timeout = core::Millis(3000);
  opt.eof_grace = core::Millis(300);
  opt.session_env = kSession;
  opt.pid = 77;
  return opt;
}

Json json_ack(const std::string& session = kSession, const std::string& variant = "stdio-json", bool accept = true) {
  return Json{{"type", "handshakeAck"}, {"sessionId", session}, {"selectVariant", variant}, {"accept", accept}};
}

// Reads the handshake, accepts it, returns it.
Json start(StdioHarness& h) {
  Json hs = h.read_json().value_or(nullptr);
  h.send(json_ack());
  return hs;
}

// Frames with this id until one ends the stream (streamEnd or an error), bounded.
std::vector<Json> frames_of(StdioHarness& h, const Json& id) {
  std::vector<Json> out;
  for (int i = 0; i < 64; ++i) {
    auto j = h.read_json();
    if (!j) break;
    if (!j->contains("id") || (*j)["id"] != id) continue;
    out.push_back(*j);
    if (j->contains("streamEnd") || j->contains("error")) break;
  }
  return out;
}

// The first frame with this id (bounded), or null.
Json first_with_id(StdioHarness& h, const Json& id) {
  for (int i = 0; i < 64; ++i) {
    auto j = h.read_json();
    if (!j) return nullptr;
    if (j->contains("id") && (*j)["id"] == id) return *j;
  }
  return nullptr;
}

TEST(StdioJson, HandshakeNamesProtocolVersionSessionAndVariantWithoutContentType) {
  StdioHarness h(json_options());
  auto body = h.read_body();
  ASSERT_TRUE(body);
  std::string head = "Content-Length: " + std::to_string(body->size()) + "\r\n\r\n";
  EXPECT_EQ(h.raw().substr(0, head.size()), head);
  Json hs = Json::parse(*body);
  EXPECT_EQ(hs["type"], "handshake");
  EXPECT_EQ(hs["protocol"], "a2a-stdio");
  EXPECT_EQ(hs["protocolVersion"], "1.0");
  EXPECT_EQ(hs["sessionId"], kSession);
  EXPECT_EQ(hs["supportedVariants"], Json::array({"stdio-json"}));
  EXPECT_EQ(hs["features"], Json::array({"streaming"}));
  EXPECT_EQ(hs["pid"], 77);
}

TEST(StdioJson, StartupWithoutSessionIdExitsFourAndWithAnotherMajorVersionExitsThree) {
  for (std::optional<std::string> env : {std::optional<std::string>(""), std::optional<std::string>()}) {
    ServerOptions opt = json_options();
    opt.session_env = env;
    StdioHarness h(opt);
    EXPECT_EQ(h.wait_exit(), kExitStartupDenied);
    EXPECT_TRUE(h.output_closed());
  }
  ServerOptions opt = json_options();
  opt.protocol_version_env = "2.0";
  StdioHarness h(opt);
  EXPECT_EQ(h.wait_exit(), kExitVersion);
  EXPECT_TRUE(h.output_closed());
}

struct AckCase {
  const char* name;
  Json ack;
  int exit;
};
class JsonAck : public ::testing::TestWithParam<AckCase> {};

TEST_P(JsonAck, AckRulesDecideTheExitStatus) {
  StdioHarness h(json_options());
  ASSERT_TRUE(h.read_json());
  h.send(GetParam().ack);
  h.request(1, "GetTask", {{"id", "x"}});
  EXPECT_EQ(h.wait_exit(), GetParam().exit);
  EXPECT_TRUE(h.output_closed());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, JsonAck,
    ::testing::Values(AckCase{"WrongSessionEcho", json_ack("other"), kExitProtocol},
                      AckCase{"WrongSessionEvenWhenDeclining", json_ack("other", "stdio-json", false), kExitProtocol},
                      AckCase{"Declined", json_ack(kSession, "", false), kExitOk},
                      AckCase{"VariantNotOffered", json_ack(kSession, "stdio-proto"), kExitProtocol},
                      AckCase{"P46MemberName", Json{{"type", "handshakeAck"}, {"sessionId", kSession},
                                                    {"selectedVariant", "stdio-json"}, {"accept", true}},
                              kExitProtocol}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(StdioJson, StreamEventsAreResponsesEndingInStreamEnd) {
  StdioHarness h(json_options());
  start(h);
  h.request(7, "SendStreamingMessage", send_params("tck-stream-basic"));
  std::vector<Json> frames = frames_of(h, 7);
  ASSERT_GE(frames.size(), 2u);
  for (size_t i = 0; i + 1 < frames.size(); ++i) EXPECT_TRUE(frames[i]["result"].is_object()) << frames[i];
  EXPECT_TRUE(frames.front()["result"].contains("task"));
  EXPECT_EQ(frames.back(), (Json{{"jsonrpc", "2.0"}, {"id", 7}, {"streamEnd", true}}));
  // An error response ends a stream by itself.
  h.request(8, "SubscribeToTask", {{"id", "missing"}});
  std::vector<Json> refused = frames_of(h, 8);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0]["error"]["code"], -32001);
  EXPECT_FALSE(h.read_json(core::Millis(300))) << "nothing follows the error response";
}

TEST(StdioJson, CancelStreamEndsTheStreamButNotTheTaskAndAnOpenIdIsTaken) {
  StdioHarness h(json_options());
  start(h);
  h.request(1, "SendMessage", send_params("tck-cancel", {{"returnImmediately", true}}));
  Json task = first_with_id(h, 1)["result"]["task"];
  h.request(2, "SubscribeToTask", {{"id", task["id"]}});
  EXPECT_EQ(first_with_id(h, 2)["result"]["task"]["id"], task["id"]);
  h.request(2, "GetTask", {{"id", task["id"]}});
  EXPECT_EQ(first_with_id(h, 2)["error"]["code"], -32600) << "id 2 names an open stream";
  h.send(Json{{"jsonrpc", "2.0"}, {"id", 2}, {"cancelStream", true}});
  EXPECT_EQ(first_with_id(h, 2), (Json{{"jsonrpc", "2.0"}, {"id", 2}, {"streamEnd", true}}));
  h.request(3, "GetTask", {{"id", task["id"]}});
  EXPECT_EQ(first_with_id(h, 3)["result"]["status"]["state"], "TASK_STATE_WORKING");
}

TEST(StdioJson, ShutdownIsAnsweredWithAnEmptyObjectThenExitZero) {
  StdioHarness h(json_options());
  start(h);
  h.request(5, "system/shutdown", Json::object());
  auto j = h.read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["id"], 5);
  EXPECT_EQ((*j)["result"], Json::object());
  EXPECT_EQ(h.wait_exit(), kExitOk);
}

TEST(StdioJson, HeartbeatsAreIgnoredAndParseErrorsAreFatal) {
  StdioHarness h(json_options());
  start(h);
  h.send(Json{{"type", "heartbeat"}, {"sessionId", kSession}, {"ts", 1}});
  h.request(1, "GetTask", {{"id", "missing"}});
  Json r = h.read_json().value_or(nullptr);
  EXPECT_EQ(r["id"], 1) << "the heartbeat got no answer";
  EXPECT_EQ(r["error"]["code"], -32001);
  h.send_raw("Content-Length: 5\r\n\r\n{oops");
  Json pe = h.read_json().value_or(nullptr);
  EXPECT_EQ(pe["error"]["code"], -32700);
  EXPECT_TRUE(pe["id"].is_null());
  EXPECT_EQ(h.wait_exit(), kExitProtocol);
}

TEST(StdioJson, OversizedFrameIsAnsweredMinus32000ThenExitTwo) {
  StdioHarness h(json_options());
  start(h);
  h.send_raw("Content-Length: 1048577\r\n\r\n{");
  Json r = h.read_json().value_or(nullptr);
  EXPECT_EQ(r["error"]["code"], -32000);
  EXPECT_EQ(r["error"]["message"], "Message too large");
  EXPECT_EQ(h.wait_exit(), kExitProtocol);
}

TEST(StdioJson, ServiceParamsFromRequestOverrideTheSession) {
  ServerOptions opt = json_options();
  opt.session_params = service_params_from_env({"A2A_SP_A2A_VERSION=0.3", "PATH=/bin"});
  StdioHarness h(opt);
  start(h);
  h.request(1, "GetTask", {{"id", "missing"}});
  EXPECT_EQ(h.read_json().value_or(nullptr)["error"]["code"], -32009);
  h.send(Json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "GetTask"}, {"params", {{"id", "missing"}}},
              {"serviceParams", {{"A2A-Version", "1.0"}}}});
  EXPECT_EQ(h.read_json().value_or(nullptr)["error"]["code"], -32001);
}

TEST(ServiceParams, EnvNamesAreLowerCasedWithDashesAndRequestValuesWin) {
  ServiceParams env = service_params_from_env({"A2A_SP_X_TRACE_ID=a,b", "A2A_SP_=skip", "OTHER=1"});
  EXPECT_EQ(env, (ServiceParams{{"x-trace-id", "a,b"}}));
  ServiceParams merged = merge_service_params(env, Json{{"X-Trace-Id", Json::array({"c", "d"})}, {"n", 3}});
  EXPECT_EQ(merged, (ServiceParams{{"x-trace-id", "c,d"}}));
  EXPECT_FALSE(check_service_params({{"a2a-version", "1.0.2"}}));
  EXPECT_EQ(check_service_params({{"a2a-version", "0.3"}})->code, -32009);
}

TEST(ServiceParams, HeaderLinesOverrideTheSessionOneLinePerValue) {
  std::vector<wire::Header> headers = {{"Content-Length", "5"},
                                       {"a2a-sp-X-Trace", " a"},
                                       {"A2A-SP-x-trace", "b"},
                                       {"A2A-SP-A2A-Version", "0.3"},
                                       {"A2A-SP-", "nameless"}};
  ServiceParams got = merge_header_params({{"a2a-version", "1.0"}, {"tenant", "t"}}, headers);
  EXPECT_EQ(got, (ServiceParams{{"a2a-version", "0.3"}, {"tenant", "t"}, {"x-trace", "a,b"}}));
}

TEST(StdioJson, AnA2aSpHeaderReachesTheHandlerAndTheMemberOverridesIt) {
  StdioHarness h(json_options());
  start(h);
  std::string body = R"({"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"missing"}})";
  h.send_raw("Content-Length: " + std::to_string(body.size()) + "\r\nA2A-SP-A2A-Version: 0.3\r\n\r\n" + body);
  EXPECT_EQ(h.read_json().value_or(nullptr)["error"]["code"], -32009);
  body = R"({"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":"missing"},"serviceParams":{"a2a-version":"1.0"}})";
  h.send_raw("Content-Length: " + std::to_string(body.size()) + "\r\nA2A-SP-A2A-Version: 0.3\r\n\r\n" + body);
  EXPECT_EQ(h.read_json().value_or(nullptr)["error"]["code"], -32001);
}

}  // namespace
}  // namespace a2a::agent
