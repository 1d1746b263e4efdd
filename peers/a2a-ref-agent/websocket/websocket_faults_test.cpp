// Each ws-* fault, seen by a black-box WebSocket client: the defect shows on
// the wire, and the same exchange with a clean agent
// (websocket_server_test.cpp) does not show it.
#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/websocket/websocket_faults.hpp"
#include "peers/a2a-ref-agent/websocket/websocket_test_support.hpp"

namespace a2a::agent::testing {
namespace {

const Json kUnknownTask = {{"id", "no-such-task"}};

TEST(WebSocketFaults, EveryWsFaultIsListedWithItsPrefix) {
  int n = 0;
  for (const auto& f : all_faults())
    if (f.name.starts_with("ws-")) ++n;
  EXPECT_GE(n, 10);
  EXPECT_EQ(fault_from_name("ws-no-stream-complete"), Fault::kWsNoStreamComplete);
}

TEST(WebSocketFaults, NoStreamComplete) {
  WsFixture f(one_fault(Fault::kWsNoStreamComplete));
  auto c = f.client();
  ASSERT_TRUE(c->request("st", "SendStreamingMessage", send_params("tck-stream-basic go")));
  for (int i = 0; i < 4; ++i) {
    auto j = c->read_json();
    ASSERT_TRUE(j) << i;
    EXPECT_FALSE(is_complete(*j));
  }
  EXPECT_TRUE(c->silent_for(core::Millis(400))) << "no completion frame";
}

TEST(WebSocketFaults, CompleteWrongId) {
  WsFixture f(one_fault(Fault::kWsCompleteWrongId));
  auto c = f.client();
  ASSERT_TRUE(c->request("st", "SendStreamingMessage", send_params("tck-stream-basic go")));
  std::vector<Json> frames;
  for (int i = 0; i < 5; ++i) {
    auto j = c->read_json();
    ASSERT_TRUE(j) << i;
    frames.push_back(*j);
  }
  EXPECT_EQ(frames[3]["id"], "st");
  EXPECT_TRUE(is_complete(frames[4]));
  EXPECT_EQ(frames[4]["id"], "st-other");
}

TEST(WebSocketFaults, EventsAfterComplete) {
  WsFixture f(one_fault(Fault::kWsEventsAfterComplete));
  auto c = f.client();
  ASSERT_TRUE(c->request("st", "SendStreamingMessage", send_params("tck-stream-basic go")));
  auto frames = c->read_stream("st");
  ASSERT_EQ(frames.size(), 5u);
  EXPECT_TRUE(is_complete(frames[4]));
  auto extra = c->read_json();
  ASSERT_TRUE(extra) << "an event after the completion";
  EXPECT_EQ((*extra)["id"], "st");
  EXPECT_EQ((*extra)["result"]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST(WebSocketFaults, EventWrongId) {
  WsFixture f(one_fault(Fault::kWsEventWrongId));
  auto c = f.client();
  ASSERT_TRUE(c->request(5, "SendStreamingMessage", send_params("tck-stream-basic go")));
  auto frames = c->read_stream(5);
  ASSERT_EQ(frames.size(), 5u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(frames[i]["id"], 1000005) << i;
  EXPECT_EQ(frames[4]["id"], 5);
  EXPECT_TRUE(is_complete(frames[4]));
}

TEST(WebSocketFaults, ErrorThenComplete) {
  WsFixture f(one_fault(Fault::kWsErrorThenComplete));
  auto c = f.client();
  ASSERT_TRUE(c->request("sub", "SubscribeToTask", kUnknownTask));
  auto error = c->read_json();
  ASSERT_TRUE(error);
  EXPECT_EQ((*error)["error"]["code"], -32001);
  auto complete = c->read_json();
  ASSERT_TRUE(complete) << "a completion after the error";
  EXPECT_TRUE(is_complete(*complete));
  EXPECT_EQ((*complete)["id"], "sub");
}

TEST(WebSocketFaults, BinaryFrames) {
  WsFixture f(one_fault(Fault::kWsBinaryFrames));
  auto c = f.client();
  ASSERT_TRUE(c->request("b", "GetTask", kUnknownTask));
  WsRead r = c->read();
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.binary);
  EXPECT_EQ(r.json()["error"]["code"], -32001);
}

TEST(WebSocketFaults, TwoMessagesPerFrame) {
  WsFixture f(one_fault(Fault::kWsTwoMessagesPerFrame));
  auto c = f.client();
  ASSERT_TRUE(c->request("st", "SendStreamingMessage", send_params("tck-stream-basic go")));
  auto first = c->read_json();
  ASSERT_TRUE(first);
  ASSERT_TRUE(first->is_array()) << first->dump();
  ASSERT_EQ(first->size(), 2u);
  EXPECT_EQ((*first)[0]["id"], "st");
  EXPECT_TRUE((*first)[0]["result"].contains("task"));
  // Unary answers are one frame still.
  ASSERT_TRUE(c->request("u", "GetTask", kUnknownTask));
  for (int i = 0; i < 4; ++i) {
    auto j = c->read_json();
    ASSERT_TRUE(j);
    if (j->is_object() && (*j)["id"] == "u") return;
  }
  ADD_FAILURE() << "the unary answer did not come alone";
}

TEST(WebSocketFaults, WrongJsonrpc) {
  WsFixture f(one_fault(Fault::kWsWrongJsonrpc));
  auto c = f.client();
  ASSERT_TRUE(c->request("w", "GetTask", kUnknownTask));
  auto j = c->read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["jsonrpc"], "1.0");
  EXPECT_EQ((*j)["error"]["code"], -32001);
}

TEST(WebSocketFaults, VersionNotChecked) {
  WsFixture f(one_fault(Fault::kWsVersionNotChecked));
  auto missing = http_upgrade(f.port(), {});
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->result_int(), 101);
  auto other = http_upgrade(f.port(), {{"A2A-Version", "9.9"}});
  ASSERT_TRUE(other);
  EXPECT_EQ(other->result_int(), 101);
}

TEST(WebSocketFaults, AcceptBinarySilently) {
  WsFixture f(one_fault(Fault::kWsAcceptBinarySilently));
  auto c = f.client();
  ASSERT_TRUE(c->send_binary("\x01\x02"));
  ASSERT_TRUE(c->request("after", "GetTask", kUnknownTask));
  auto j = c->read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["id"], "after") << "the binary frame was not answered";
}

TEST(WebSocketFaults, AnswerNotifications) {
  WsFixture f(one_fault(Fault::kWsAnswerNotifications));
  auto c = f.client();
  ASSERT_TRUE(c->send(Json{{"jsonrpc", "2.0"}, {"method", "GetTask"}, {"params", kUnknownTask}}));
  auto j = c->read_json();
  ASSERT_TRUE(j) << "the notification was answered";
  EXPECT_TRUE((*j)["id"].is_null());
  EXPECT_EQ((*j)["error"]["code"], -32001);
}

TEST(WebSocketFaults, NoBusyLimit) {
  AgentConfig config = fast_config();
  config.max_block = core::Millis(500);
  WsFixture f(one_fault(Fault::kWsNoBusyLimit), config);
  auto c = f.client();
  const int n = kWsMaxInFlight + 1;
  for (int i = 0; i < n; ++i) ASSERT_TRUE(c->request(i, "SendMessage", send_params("tck-cancel hold")));
  for (int i = 0; i < n; ++i) {
    auto j = c->read_json();
    ASSERT_TRUE(j) << i;
    EXPECT_TRUE(j->contains("result")) << "refused: " << j->dump();
  }
}

TEST(WebSocketFaults, IgnoreUpgradeAuth) {
  WsFixture f(one_fault(Fault::kWsIgnoreUpgradeAuth));
  auto c = f.client({{"Authorization", "Bearer a2a-conform"}});
  ASSERT_TRUE(c->request("c", "GetExtendedAgentCard", Json::object()));
  auto j = c->read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["error"]["code"], -31401);
}

TEST(WebSocketFaults, NoSizeLimit) {
  WsFixture f(one_fault(Fault::kWsNoSizeLimit));
  auto c = f.client();
  ASSERT_TRUE(c->send_text(std::string(kWsMaxMessage + 1024, 'x')));
  auto j = c->read_json();
  ASSERT_TRUE(j) << "the large message was read and answered";
  EXPECT_EQ((*j)["error"]["code"], -32700);
}

TEST(WebSocketFaults, WithoutFaultsThePathIsTheIdentity) {
  struct Capture : WsFrameSink {
    explicit Capture(std::vector<WsFrame>& out) : out_(out) {}
    void write(WsFrame f) override { out_.push_back(std::move(f)); }
    std::vector<WsFrame>& out_;
  };
  std::vector<WsFrame> frames;
  {
    auto path = ws_answer_path({}, std::make_unique<Capture>(frames));
    path->send({WsKind::kEvent, "a", Json{{"task", Json::object()}}});
    path->send({WsKind::kComplete, "a", nullptr});
    path->send({WsKind::kStreamError, 3, CallError{-32001, "gone", nullptr}.to_json()});
  }
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(Json::parse(frames[0].text), Json::parse(R"({"jsonrpc":"2.0","id":"a","result":{"task":{}}})"));
  EXPECT_EQ(Json::parse(frames[1].text),
            Json::parse(R"({"jsonrpc":"2.0","id":"a","result":{"status":"stream_complete"}})"));
  EXPECT_EQ(Json::parse(frames[2].text),
            Json::parse(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32001,"message":"gone"}})"));
  for (const auto& f : frames) EXPECT_FALSE(f.binary);
}

}  // namespace
}  // namespace a2a::agent::testing
