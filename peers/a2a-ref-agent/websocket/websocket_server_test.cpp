// The reference agent's WebSocket server through a real Beast client on
// 127.0.0.1: the upgrade, unary answers, streams, concurrency and the
// refusals of what is not a request.
#include <gtest/gtest.h>

#include <set>

#include "peers/a2a-ref-agent/websocket/websocket_faults.hpp"
#include "peers/a2a-ref-agent/websocket/websocket_test_support.hpp"
#include "runner/transport/ws_codec.hpp"

namespace a2a::agent::testing {
namespace {

TEST(WebSocketAgent, InterfaceNamesTheBindingAndPort) {
  WsFixture f;
  ASSERT_TRUE(f.server);
  EXPECT_NE(f.port(), 0);
  Json i = f.server->interface();
  EXPECT_EQ(i["url"], "ws://127.0.0.1:" + std::to_string(f.port()));
  EXPECT_EQ(i["protocolBinding"], "WEBSOCKET");
  EXPECT_EQ(i["protocolVersion"], "1.0");
  f.server->stop();
  f.server->stop();  // idempotent
}

TEST(WebSocketAgent, SendMessageThenGetTask) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->request("s-1", "SendMessage", send_params("tck-complete-task hi")));
  WsRead r = c->read();
  ASSERT_TRUE(r.ok) << r.ec.message();
  EXPECT_FALSE(r.binary);
  Json j = r.json();
  EXPECT_EQ(j["jsonrpc"], "2.0");
  EXPECT_EQ(j["id"], "s-1");
  ASSERT_TRUE(j["result"].contains("task")) << j.dump();
  EXPECT_EQ(state_of(j["result"]["task"]), "TASK_STATE_COMPLETED");
  std::string id = j["result"]["task"]["id"];
  ASSERT_TRUE(c->request(7, "GetTask", Json{{"id", id}}));
  auto g = c->read_json();
  ASSERT_TRUE(g);
  EXPECT_EQ((*g)["id"], 7);
  EXPECT_EQ((*g)["result"]["id"], id);
}

TEST(WebSocketAgent, EveryUnaryMethodIsRouted) {
  WsFixture f;
  auto c = f.client();
  auto call = [&](const std::string& method, const Json& params) {
    static int n = 0;
    Json id = "u-" + std::to_string(++n);
    EXPECT_TRUE(c->request(id, method, params));
    auto j = c->read_json();
    EXPECT_TRUE(j) << method;
    if (!j) return Json();
    EXPECT_EQ((*j)["id"], id) << method;
    EXPECT_TRUE(j->contains("result")) << method << ": " << j->dump();
    return (*j)["result"];
  };
  Json sent = call("SendMessage", send_params("tck-cancel hold", Json{{"returnImmediately", true}}));
  std::string id = sent["task"]["id"];
  EXPECT_GE(call("ListTasks", Json::object())["tasks"].size(), 1u);
  Json created = call("CreateTaskPushNotificationConfig", Json{{"taskId", id}, {"url", "https://example.com/hook"}});
  EXPECT_EQ(created["url"], "https://example.com/hook");
  std::string cfg = created["id"];
  EXPECT_EQ(call("GetTaskPushNotificationConfig", Json{{"taskId", id}, {"id", cfg}})["id"], cfg);
  EXPECT_EQ(call("ListTaskPushNotificationConfigs", Json{{"taskId", id}})["configs"].size(), 1u);
  call("DeleteTaskPushNotificationConfig", Json{{"taskId", id}, {"id", cfg}});
  EXPECT_EQ(state_of(call("CancelTask", Json{{"id", id}})), "TASK_STATE_CANCELED");
}

TEST(WebSocketAgent, GetTaskOfAnUnknownTaskIsTaskNotFound) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->request("gt-1", "GetTask", Json{{"id", "nonexistent"}}));
  auto j = c->read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["id"], "gt-1");
  EXPECT_EQ((*j)["error"]["code"], -32001);
  EXPECT_FALSE(j->contains("result"));
}

TEST(WebSocketAgent, AStreamSendsEventsThenTheCompletionWithTheSameId) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->request("st", "SendStreamingMessage", send_params("tck-stream-basic go")));
  auto frames = c->read_stream("st");
  ASSERT_EQ(frames.size(), 5u) << Json(frames).dump();
  for (const auto& fr : frames) {
    EXPECT_EQ(fr["id"], "st");
    EXPECT_EQ(fr["jsonrpc"], "2.0");
  }
  EXPECT_TRUE(frames[0]["result"].contains("task"));
  EXPECT_EQ(frames[3]["result"]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
  EXPECT_TRUE(is_complete(frames[4])) << frames[4].dump();
  EXPECT_TRUE(c->silent_for(core::Millis(200))) << "nothing follows the completion";
}

TEST(WebSocketAgent, SubscribeToAnUnknownTaskIsOneErrorFrame) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->request("sub", "SubscribeToTask", Json{{"id", "no-such-task"}}));
  auto j = c->read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["id"], "sub");
  EXPECT_EQ((*j)["error"]["code"], -32001);
  EXPECT_TRUE(c->silent_for(core::Millis(300))) << "no completion after an error";
}

TEST(WebSocketAgent, RequestsOfOneConnectionRunConcurrently) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->request("slow", "SendMessage", send_params("tck-long-running delay=600")));
  ASSERT_TRUE(c->request("quick", "GetTask", Json{{"id", "nonexistent"}}));
  auto first = c->read_json();
  auto second = c->read_json();
  ASSERT_TRUE(first && second);
  EXPECT_EQ((*first)["id"], "quick");
  EXPECT_EQ((*second)["id"], "slow");
  EXPECT_EQ(state_of((*second)["result"]["task"]), "TASK_STATE_COMPLETED");
}

TEST(WebSocketAgent, The65thRequestInFlightIsBusy) {
  WsFixture f;
  auto c = f.client();
  for (int i = 0; i < kWsMaxInFlight; ++i) ASSERT_TRUE(c->request(i, "SendMessage", send_params("tck-cancel hold")));
  ASSERT_TRUE(c->request("65th", "SendMessage", send_params("tck-cancel hold")));
  auto j = c->read_json(core::Millis(1500));
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["id"], "65th");
  EXPECT_EQ((*j)["error"]["code"], -32000);
  EXPECT_EQ((*j)["error"]["message"], "server busy: too many concurrent requests");
}

TEST(WebSocketAgent, ASlotIsFreeAgainOnceItsAnswerIsWritten) {
  AgentConfig config = fast_config();
  config.max_block = core::Millis(300);
  WsFixture f({}, config);
  auto c = f.client();
  for (int i = 0; i < kWsMaxInFlight; ++i) ASSERT_TRUE(c->request(i, "SendMessage", send_params("tck-cancel hold")));
  std::set<int> answered;
  for (int i = 0; i < kWsMaxInFlight; ++i) {
    auto j = c->read_json();
    ASSERT_TRUE(j);
    ASSERT_TRUE(j->contains("result")) << j->dump();
    answered.insert((*j)["id"].get<int>());
  }
  EXPECT_EQ(answered.size(), static_cast<size_t>(kWsMaxInFlight));
  ASSERT_TRUE(c->request("again", "GetTask", Json{{"id", "nonexistent"}}));
  auto j = c->read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["error"]["code"], -32001);
}

TEST(WebSocketAgent, ABinaryFrameIsAParseErrorAndTheConnectionStays) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->send_binary(std::string("\x01\x02\x03", 3)));
  WsRead r = c->read();
  ASSERT_TRUE(r.ok);
  EXPECT_FALSE(r.binary);
  EXPECT_EQ(r.json(), Json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,)"
                                  R"("message":"binary frames are not supported; send JSON-RPC as text frames"}})"));
  ASSERT_TRUE(c->request("after", "GetTask", Json{{"id", "nonexistent"}}));
  auto j = c->read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["id"], "after");
}

TEST(WebSocketAgent, TextThatIsNotJsonIsAParseErrorWithIdNull) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->send_text("this is not json {{"));
  auto j = c->read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["error"]["code"], -32700);
  EXPECT_TRUE((*j)["id"].is_null());
}

TEST(WebSocketAgent, JsonThatIsNotARequestIsInvalidRequest) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->send_text(R"({"jsonrpc":"2.0","id":1,"params":{}})"));
  auto a = c->read_json();
  ASSERT_TRUE(a);
  EXPECT_EQ((*a)["error"]["code"], -32600);
  EXPECT_EQ((*a)["id"], 1);
  ASSERT_TRUE(c->send_text(R"({"jsonrpc":"1.0","id":"v","method":"GetTask","params":{"id":"x"}})"));
  auto b = c->read_json();
  ASSERT_TRUE(b);
  EXPECT_EQ((*b)["error"]["code"], -32600);
  EXPECT_EQ((*b)["id"], "v");
  for (std::string text : {"[1,2]", "42", R"({"jsonrpc":"2.0","id":{"x":1},"method":"GetTask"})"}) {
    ASSERT_TRUE(c->send_text(text));
    auto j = c->read_json();
    ASSERT_TRUE(j) << text;
    EXPECT_EQ((*j)["error"]["code"], -32600) << text;
    EXPECT_TRUE((*j)["id"].is_null()) << text;
  }
}

TEST(WebSocketAgent, UnknownAndLegacyMethodsAreMethodNotFound) {
  WsFixture f;
  auto c = f.client();
  for (std::string m : {"NoSuchMethod", "message/send", "tasks/get"}) {
    ASSERT_TRUE(c->request("m-" + m, m, Json::object()));
    auto j = c->read_json();
    ASSERT_TRUE(j) << m;
    EXPECT_EQ((*j)["error"]["code"], -32601) << m;
    EXPECT_EQ((*j)["id"], "m-" + m);
  }
}

TEST(WebSocketAgent, ANotificationIsNotAnswered) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->send(Json{{"jsonrpc", "2.0"}, {"method", "GetTask"}, {"params", {{"id", "nonexistent"}}}}));
  ASSERT_TRUE(c->request("after", "GetTask", Json{{"id", "nonexistent"}}));
  auto j = c->read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["id"], "after");
  EXPECT_TRUE(c->silent_for(core::Millis(300)));
}

TEST(WebSocketAgent, TheUpgradeNeedsA2AVersionMajor1) {
  WsFixture f;
  auto missing = http_upgrade(f.port(), {});
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->result_int(), 400);
  EXPECT_EQ((*missing)[http::field::content_type], "application/json");
  Json body = Json::parse(missing->body(), nullptr, false);
  EXPECT_EQ(body["error"]["code"], 400);
  EXPECT_EQ(body["error"]["status"], "FAILED_PRECONDITION");
  EXPECT_NE(body["error"]["message"].get<std::string>().find("A2A-Version"), std::string::npos);
  auto other = http_upgrade(f.port(), {{"A2A-Version", "2.0"}});
  ASSERT_TRUE(other);
  EXPECT_EQ(other->result_int(), 400);
  EXPECT_NE(other->body().find("2.0"), std::string::npos);
  for (std::string v : {"1", "1.0", "1.3", " 1.0 "}) {
    auto ok = http_upgrade(f.port(), {{"A2A-Version", v}});
    ASSERT_TRUE(ok) << v;
    EXPECT_EQ(ok->result_int(), 101) << v;
  }
  auto plain = http_upgrade(f.port(), kV1Headers, false);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->result_int(), 426);
}

TEST(WebSocketAgent, TheUpgradesBearerTokenAuthorizesTheExtendedCard) {
  WsFixture f;
  auto anonymous = f.client();
  ASSERT_TRUE(anonymous->request("c", "GetExtendedAgentCard", Json::object()));
  auto refused = anonymous->read_json();
  ASSERT_TRUE(refused);
  EXPECT_EQ((*refused)["error"]["code"], -31401);
  auto authorized = f.client({{"Authorization", "Bearer a2a-conform"}});
  ASSERT_TRUE(authorized->request("c", "GetExtendedAgentCard", Json::object()));
  auto card = authorized->read_json();
  ASSERT_TRUE(card);
  EXPECT_TRUE((*card)["result"].contains("name")) << card->dump();
}

TEST(WebSocketAgent, AMessageAbove4MiBClosesTheConnection) {
  WsFixture f;
  auto c = f.client();
  std::string big(kWsMaxMessage + 1024, 'x');
  c->send_text(big);  // may fail half-way: the server stops reading
  WsRead r = c->read();
  EXPECT_FALSE(r.ok) << "answered: " << r.text.substr(0, 200);
  if (r.ec == websocket::error::closed) EXPECT_EQ(c->close_reason().code, websocket::close_code::too_big);
}

TEST(WebSocketAgent, AMessageUnderTheLimitIsServed) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->send_text(std::string(3u << 20, 'x')));
  auto j = c->read_json();
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["error"]["code"], -32700);
}

TEST(WebSocketAgent, PingIsAnsweredWithPong) {
  WsFixture f;
  auto c = f.client();
  bool pong = false;
  c->stream().control_callback([&](websocket::frame_type kind, beast::string_view payload) {
    if (kind == websocket::frame_type::pong && payload == "hello") pong = true;
  });
  bool pinged = false;
  c->stream().async_ping("hello", [&](beast::error_code) { pinged = true; });
  ASSERT_TRUE(run_until(c->ioc(), pinged, kWait, [] {}));
  ASSERT_TRUE(c->request("p", "GetTask", Json{{"id", "nonexistent"}}));
  auto j = c->read_json();  // the pong is read on the way
  ASSERT_TRUE(j);
  EXPECT_TRUE(pong);
}

TEST(WebSocketAgent, StopClosesConnections) {
  WsFixture f;
  auto c = f.client();
  ASSERT_TRUE(c->request("s", "SendStreamingMessage", send_params("tck-cancel hold")));
  auto first = c->read_json();
  ASSERT_TRUE(first);
  auto t0 = core::Clock::now();
  f.server->stop();
  EXPECT_LT(core::Clock::now() - t0, std::chrono::milliseconds(2500));
  // What the stream had sent, then the server's close frame (1001): this
  // client did not read during stop(), so the server cut the TCP connection
  // after its grace and the client's close reply may fail; either way the
  // connection ends with an error, not a timeout.
  for (int i = 0; i < 10; ++i) {
    WsRead r = c->read(core::Millis(2000));
    if (!r.ok) {
      EXPECT_TRUE(r.ec) << "the read timed out: the connection stayed open";
      if (r.ec == websocket::error::closed) EXPECT_EQ(c->close_reason().code, websocket::close_code::going_away);
      return;
    }
  }
  ADD_FAILURE() << "the connection stayed open";
}

TEST(WebSocketAgent, TheClientsCloseIsAnswered) {
  WsFixture f;
  auto c = f.client();
  bool done = false;
  beast::error_code ec;
  c->stream().async_close(websocket::close_code::normal, [&](beast::error_code e) {
    ec = e;
    done = true;
  });
  ASSERT_TRUE(run_until(c->ioc(), done, kWait, [&] { beast::get_lowest_layer(c->stream()).cancel(); }));
  EXPECT_FALSE(ec) << ec.message();
}

}  // namespace
}  // namespace a2a::agent::testing

namespace a2a::agent::testing {
namespace {

TEST(WebSocketAgent, TheUpgradeChecksTheKeyAndVersion13AndAnswersTheAcceptKey) {
  WsFixture f;
  auto ok = http_upgrade(f.port(), kV1Headers);
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->result_int(), 101);
  // RFC 6455 §1.3's example key
  EXPECT_EQ((*ok)[http::field::sec_websocket_accept], "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  auto bad_key = http_upgrade(f.port(), {{"A2A-Version", "1.0"}, {"Sec-WebSocket-Key", "c2hvcnQ="}});
  ASSERT_TRUE(bad_key);
  EXPECT_EQ(bad_key->result_int(), 400);
  EXPECT_NE(bad_key->body().find("Sec-WebSocket-Key"), std::string::npos);
  auto old = http_upgrade(f.port(), {{"A2A-Version", "1.0"}, {"Sec-WebSocket-Version", "8"}});
  ASSERT_TRUE(old);
  EXPECT_EQ(old->result_int(), 426);
  EXPECT_EQ((*old)[http::field::sec_websocket_version], "13");
}

// A raw TCP connection upgraded by hand, for bytes no WebSocket library would send.
class RawSocket {
 public:
  explicit RawSocket(uint16_t port) : s_(ioc_) {
    beast::error_code ec;
    s_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
    if (ec) return;
    std::string req =
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nA2A-Version: 1.0\r\n\r\n";
    net::write(s_, net::buffer(req), ec);
    if (ec) return;
    size_t end = 0;
    while ((end = in_.find("\r\n\r\n")) == std::string::npos && in_.size() < 4096)
      if (!read_some()) return;
    upgraded_ = in_.rfind("HTTP/1.1 101", 0) == 0;
    in_.erase(0, end + 4);
  }
  bool upgraded() const { return upgraded_; }
  void write(const std::string& bytes) {
    beast::error_code ec;
    net::write(s_, net::buffer(bytes), ec);
  }
  // The server's next frames (unmasked), until `count` or EOF.
  std::vector<transport::ws::Message> frames(size_t count) {
    transport::ws::FrameParser p(transport::ws::ParserOptions{false, 1u << 20});
    std::vector<transport::ws::Message> out;
    if (!p.feed(in_, out)) return out;
    in_.clear();
    for (int i = 0; i < 100 && out.size() < count; ++i) {  // bounded: each read waits at most kWait
      if (!read_some()) break;
      if (!p.feed(in_, out)) break;
      in_.clear();
    }
    return out;
  }

 private:
  bool read_some() {
    char buf[4096];
    bool done = false;
    size_t got = 0;
    beast::error_code result;
    s_.async_read_some(net::buffer(buf), [&](beast::error_code e, size_t n) {
      result = e;
      got = n;
      done = true;
    });
    if (!run_until(ioc_, done, kWait, [&] { s_.cancel(); }) || result) return false;
    in_.append(buf, got);
    return true;
  }

  net::io_context ioc_;
  tcp::socket s_;
  std::string in_;
  bool upgraded_ = false;
};

TEST(WebSocketAgent, AnUnmaskedClientFrameIsClosedWith1002) {
  WsFixture f;
  RawSocket raw(f.port());
  ASSERT_TRUE(raw.upgraded());
  raw.write(transport::ws::encode_frame(transport::ws::Opcode::kText, "{}"));
  auto got = raw.frames(1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].op, transport::ws::Opcode::kClose);
  EXPECT_EQ(got[0].payload, transport::ws::close_payload(transport::ws::kCloseProtocolError));
}

TEST(WebSocketAgent, ADeclaredOversizedMessageIsClosedWith1009FromItsHeader) {
  WsFixture f;
  RawSocket raw(f.port());
  ASSERT_TRUE(raw.upgraded());
  // 1 GiB declared, masked, no payload sent: the server answers at the header
  raw.write(std::string{'\x82', '\xff', 0, 0, 0, 0, '\x40', 0, 0, 0, 1, 2, 3, 4});
  auto got = raw.frames(1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].op, transport::ws::Opcode::kClose);
  EXPECT_EQ(got[0].payload, transport::ws::close_payload(transport::ws::kCloseTooBig));
}

TEST(WebSocketAgent, FragmentsAndAPingBetweenThemAreServed) {
  WsFixture f;
  RawSocket raw(f.port());
  ASSERT_TRUE(raw.upgraded());
  using transport::ws::Opcode;
  transport::ws::MaskKey k{9, 8, 7, 6};
  std::string req = R"({"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"no-such-task"}})";
  raw.write(transport::ws::encode_frame(Opcode::kText, req.substr(0, 10), false, &k) +
            transport::ws::encode_frame(Opcode::kPing, "p", true, &k) +
            transport::ws::encode_frame(Opcode::kContinuation, req.substr(10), true, &k));
  auto got = raw.frames(2);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].op, Opcode::kPong);
  EXPECT_EQ(got[0].payload, "p");
  EXPECT_EQ(got[1].op, Opcode::kText);
  Json answer = Json::parse(got[1].payload, nullptr, false);
  EXPECT_EQ(answer["id"], 7);
  EXPECT_TRUE(answer.contains("error")) << got[1].payload;
}

}  // namespace
}  // namespace a2a::agent::testing
