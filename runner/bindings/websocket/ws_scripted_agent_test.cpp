// The scripted WebSocket agent of `a2a-conform client --binding websocket`,
// driven by the runner's own WebSocket client (no client under test): what
// x-expect-request sees of a request frame and the upgrade, and the frames
// each x-reply form writes.
#include "runner/bindings/websocket/ws_scripted_agent.hpp"

#include <gtest/gtest.h>

#include "runner/jsonrpc/message.hpp"
#include "runner/transport/ws_client.hpp"

namespace a2a::bindings {
namespace {

using Json = nlohmann::json;

core::Deadline scripted_soon() { return core::Deadline::after(core::Millis(5000)); }

// The next frame from the agent, parsed (discarded when none or not JSON).
Json next_json(transport::WsConnection& c) {
  auto f = c.take([](const transport::WsFrame&) { return true; }, scripted_soon());
  return f ? jsonrpc::parse_json_or_discarded(f->payload) : Json(Json::value_t::discarded);
}

TEST(WsScriptedAgent, RecordsTheUpgradeAndAnswersEachReplyForm) {
  auto agent = start_ws_scripted_agent(nullptr);
  ASSERT_TRUE(agent.ok()) << agent.error().str();
  std::string url = (*agent)->interface_url();
  ASSERT_EQ(url.rfind("ws://127.0.0.1:", 0), 0u) << url;
  transport::WsOptions o;
  o.headers = {{"A2A-Version", "1.0"}, {"Authorization", "Bearer t"}};
  auto conn = transport::WsConnection::connect(url + "/p", o, scripted_soon());
  ASSERT_TRUE(conn.ok()) << conn.error().str();
  transport::WsConnection& c = **conn;

  ASSERT_TRUE(c.send(R"({"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"t-1"}})", true, scripted_soon()));
  auto view = (*agent)->take(scripted_soon());
  ASSERT_TRUE(view);
  EXPECT_EQ((*view)["method"], "GetTask");
  EXPECT_EQ((*view)["id"], 7);
  EXPECT_EQ((*view)["params"]["id"], "t-1");
  EXPECT_EQ((*view)["headers"]["a2a-version"], "1.0");
  EXPECT_EQ((*view)["headers"]["authorization"], "Bearer t");
  EXPECT_EQ((*view)["path"], "/p");
  auto pause = [](int) {};
  // `frame` writes one extra frame and leaves the request open.
  EXPECT_TRUE((*agent)->reply({{"frame", {{"jsonrpc", "2.0"}, {"id", "x"}, {"result", 1}}}}, pause, scripted_soon()).failure.empty());
  EXPECT_EQ(next_json(c), Json({{"jsonrpc", "2.0"}, {"id", "x"}, {"result", 1}}));
  EXPECT_TRUE((*agent)->reply({{"result", {{"id", "t-1"}}}}, pause, scripted_soon()).failure.empty());
  EXPECT_EQ(next_json(c), Json({{"jsonrpc", "2.0"}, {"id", 7}, {"result", {{"id", "t-1"}}}}));
  EXPECT_FALSE((*agent)->reply({{"result", 1}}, pause, scripted_soon()).failure.empty());  // nothing left to answer

  ASSERT_TRUE(c.send(R"({"jsonrpc":"2.0","id":8,"method":"SendStreamingMessage","params":{}})", true, scripted_soon()));
  ASSERT_TRUE((*agent)->take(scripted_soon()));
  Json stream = {{"stream", {{{"event", {{"task", {{"id", "t"}}}}}}}}};
  EXPECT_TRUE((*agent)->reply(stream, pause, scripted_soon()).failure.empty());
  EXPECT_EQ(next_json(c), Json({{"jsonrpc", "2.0"}, {"id", 8}, {"result", {{"task", {{"id", "t"}}}}}}));
  EXPECT_EQ(next_json(c), Json({{"jsonrpc", "2.0"}, {"id", 8}, {"result", {{"status", "stream_complete"}}}}));

  // An error item is the stream's last frame: no completion follows it.
  ASSERT_TRUE(c.send(R"({"jsonrpc":"2.0","id":9,"method":"SubscribeToTask","params":{"id":"t"}})", true, scripted_soon()));
  ASSERT_TRUE((*agent)->take(scripted_soon()));
  Json failing = {{"stream", {{{"error", {{"code", -32001}, {"message", "no"}}}}}}};
  EXPECT_TRUE((*agent)->reply(failing, pause, scripted_soon()).failure.empty());
  EXPECT_EQ(next_json(c)["error"]["code"], -32001);
  EXPECT_FALSE(c.take([](const transport::WsFrame&) { return true; }, core::Deadline::after(core::Millis(200))));
  // Pings are answered.
  ASSERT_TRUE(c.ping(scripted_soon()));
  EXPECT_EQ(c.take_pong(scripted_soon()), std::optional<std::string>(""));
}

}  // namespace
}  // namespace a2a::bindings
