// WsSession against the reference agent's real WebSocket server, in-process
// on 127.0.0.1:0 (peers/a2a-ref-agent/websocket): unary calls, a stream to
// its completion frame, an agent error, the upgrade's A2A-Version and
// bearer token applying to the connection, and a dead port.
#include "peers/a2a-ref-client/ws_session.hpp"

#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "peers/a2a-ref-agent/websocket/websocket_server.hpp"

namespace a2a::client {
namespace {

using model::Operation;

SelectedInterface ws_interface(const std::string& url) {
  return SelectedInterface{HttpBinding::kWebSocket, CardInterface{url, "WEBSOCKET", "1.0", std::nullopt}, 0};
}

Json ws_message(const std::string& id, const std::string& text) {
  return {{"messageId", id}, {"role", "ROLE_USER"}, {"parts", {{{"text", text}}}}};
}

core::Deadline ws_soon() { return core::Deadline::after(core::Millis(8000)); }

// The agent's core and its WebSocket server, torn down in order.
struct WsAgent {
  WsAgent() {
    agent::AgentConfig config;
    config.long_running = core::Millis(100);
    config.max_block = core::Millis(3000);
    core = std::make_unique<agent::AgentCore>(config);
    agent::WebSocketAgentOptions o;
    o.log_fd = -1;
    auto started = agent::WebSocketAgent::start(o);
    EXPECT_TRUE(started.ok()) << (started.ok() ? "" : started.error().str());
    if (!started.ok()) return;
    server = std::move(*started);
    server->attach(*core);
  }
  ~WsAgent() {
    if (server) server->stop();
  }
  std::unique_ptr<agent::AgentCore> core;
  std::unique_ptr<agent::WebSocketAgent> server;
};

std::unique_ptr<WsSession> open_ws(const WsAgent& a, const std::string& bearer) {
  auto s = WsSession::create(ws_interface(a.server->url()), WsSessionOptions{bearer, nullptr}, ws_soon());
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? std::move(*s) : nullptr;
}

TEST(WsSession, UnaryCallsShareOneConnectionOpenedWithTheVersionHeader) {
  WsAgent a;
  ASSERT_TRUE(a.server);
  // The agent refuses an upgrade without A2A-Version 1.x (HTTP 400): an
  // open session means the header went on the upgrade.
  auto s = open_ws(a, "a2a-conform");
  ASSERT_TRUE(s);
  CallResult sent = s->call(Operation::kSendMessage, {{"message", ws_message("w1", "tck-complete-task hi")}}, ws_soon());
  ASSERT_TRUE(sent.ok()) << sent.error.str();
  std::string id = sent.result["task"]["id"];
  EXPECT_EQ(sent.result["task"]["status"]["state"], "TASK_STATE_COMPLETED");
  CallResult got = s->call(Operation::kGetTask, {{"id", id}}, ws_soon());
  ASSERT_TRUE(got.ok()) << got.error.str();
  EXPECT_EQ(got.result["id"], id);
  // The upgrade's bearer token authorises every later request (the binding
  // has no per-request headers).
  CallResult card = s->call(Operation::kGetExtendedAgentCard, Json::object(), ws_soon());
  ASSERT_TRUE(card.ok()) << card.error.str();
  EXPECT_TRUE(card.result.contains("name"));
  EXPECT_FALSE(s->dead());
  EXPECT_EQ(s->call(Operation::kSendStreamingMessage, Json::object(), ws_soon()).error.kind, ClientErrorKind::kUsage);
}

TEST(WsSession, AnUpgradeWithoutTokenLeavesTheExtendedCardRefused) {
  WsAgent a;
  ASSERT_TRUE(a.server);
  auto s = open_ws(a, "");
  ASSERT_TRUE(s);
  CallResult card = s->call(Operation::kGetExtendedAgentCard, Json::object(), ws_soon());
  ASSERT_FALSE(card.ok());
  EXPECT_EQ(card.error.kind, ClientErrorKind::kAgent) << card.error.str();
}

TEST(WsSession, StreamsEndAtTheCompletionFrameAndErrorsAreTheAgents) {
  WsAgent a;
  ASSERT_TRUE(a.server);
  auto s = open_ws(a, "a2a-conform");
  ASSERT_TRUE(s);
  std::vector<Json> events;
  auto collect = [&](const StreamItem& i) {
    EXPECT_EQ(i.type, StreamItem::Type::kEvent);
    events.push_back(i.value);
  };
  CallResult r = s->stream(Operation::kSendStreamingMessage, {{"message", ws_message("w2", "tck-stream-basic go")}},
                           collect, ws_soon());
  ASSERT_TRUE(r.ok()) << r.error.str();
  ASSERT_GE(events.size(), 2u);
  for (const Json& e : events) EXPECT_FALSE(is_stream_complete(e));  // the marker is not an event
  // An error frame before any event is the operation's error; the session goes on.
  int items = 0;
  r = s->stream(Operation::kSubscribeToTask, {{"id", "no-such-task"}}, [&](const StreamItem&) { ++items; }, ws_soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(items, 0);
  EXPECT_EQ(r.error.code(), -32001) << r.error.str();
  CallResult got = s->call(Operation::kGetTask, {{"id", "no-such-task"}}, ws_soon());
  EXPECT_EQ(got.error.code(), -32001) << got.error.str();
}

TEST(WsSession, CompletionMarkerIsExactlyTheStatusMember) {
  EXPECT_TRUE(is_stream_complete({{"status", "stream_complete"}}));
  EXPECT_FALSE(is_stream_complete({{"status", "stream_complete"}, {"task", Json::object()}}));
  EXPECT_FALSE(is_stream_complete({{"status", {{"state", "TASK_STATE_COMPLETED"}}}}));
  EXPECT_FALSE(is_stream_complete("stream_complete"));
}

TEST(WsSession, BadUrlAndDeadPortAreErrorsThatSaySo) {
  auto bad = WsSession::create(ws_interface("http://127.0.0.1:1/"), {}, ws_soon());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, core::ErrorKind::kInvalidArgument);
  EXPECT_NE(bad.error().message.find("http://127.0.0.1:1/"), std::string::npos);
  uint16_t port = 0;
  {
    WsAgent a;
    ASSERT_TRUE(a.server);
    port = a.server->port();
  }
  auto dead = WsSession::create(ws_interface("ws://127.0.0.1:" + std::to_string(port)), {},
                                core::Deadline::after(core::Millis(3000)));
  ASSERT_FALSE(dead.ok());
  EXPECT_NE(dead.error().message.find("WebSocket connection to"), std::string::npos) << dead.error().message;
}

}  // namespace
}  // namespace a2a::client
