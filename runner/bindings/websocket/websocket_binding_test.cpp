// The WebSocket binding against a scripted agent on 127.0.0.1 (a Beast
// WebSocket server in this test): what goes on the wire, what comes back as
// OpResult, and which departures are violations.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "runner/engine/binding_registry.hpp"
#include "runner/engine/operations.hpp"
#include "runner/transport/ws_client.hpp"

namespace a2a::engine {
namespace {

[[maybe_unused]] const bool registered = (register_bindings(), true);

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Json = nlohmann::json;

struct Out {
  std::string payload;
  bool text = true;
};

// One connection at a time; every request frame goes to `script`, whose
// frames are written back in order. The upgrade request is kept;
// `refuse_status` != 0 declines the upgrade with that status.
class ScriptedWsAgent {
 public:
  using Script = std::function<std::vector<Out>(const Json& request)>;
  explicit ScriptedWsAgent(Script script, int refuse_status = 0)
      : script_(std::move(script)), refuse_(refuse_status), acceptor_(ioc_, {net::ip::make_address("127.0.0.1"), 0}) {
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { serve(); });
  }
  ~ScriptedWsAgent() {
    stop_ = true;
    beast::error_code ec;
    {
      std::lock_guard<std::mutex> lk(mu_);
      if (sock_) sock_->shutdown(tcp::socket::shutdown_both, ec);
    }
    // A blocking accept() is not woken by close(): one connection wakes it.
    net::io_context poke_ioc;
    tcp::socket poke(poke_ioc);
    poke.connect({net::ip::make_address("127.0.0.1"), port_}, ec);
    poke.close(ec);
    thread_.join();
    acceptor_.close(ec);
  }
  std::string url() const { return "ws://127.0.0.1:" + std::to_string(port_) + "/a2a"; }
  std::string header(const std::string& name) {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = upgrade_.find(name);
    return it == upgrade_.end() ? "" : std::string(it->value());
  }
  std::vector<Json> requests() {
    std::lock_guard<std::mutex> lk(mu_);
    return requests_;
  }

 private:
  void serve() {
    while (!stop_) {
      beast::error_code ec;
      tcp::socket sock(ioc_);
      acceptor_.accept(sock, ec);
      if (ec) return;
      {
        std::lock_guard<std::mutex> lk(mu_);
        sock_ = &sock;
      }
      session(sock);
      std::lock_guard<std::mutex> lk(mu_);
      sock_ = nullptr;
    }
  }
  void session(tcp::socket& sock) {
    beast::error_code ec;
    beast::flat_buffer buf;
    beast::http::request<beast::http::string_body> req;
    beast::http::read(sock, buf, req, ec);
    if (ec) return;
    {
      std::lock_guard<std::mutex> lk(mu_);
      upgrade_ = req.base();
    }
    if (refuse_) {
      beast::http::response<beast::http::string_body> res{static_cast<beast::http::status>(refuse_), 11};
      res.set(beast::http::field::content_type, "application/json");
      res.body() = R"({"error":{"code":400,"message":"unsupported A2A version"}})";
      res.prepare_payload();
      beast::http::write(sock, res, ec);
      return;
    }
    websocket::stream<tcp::socket&> ws(sock);
    ws.accept(req, ec);
    if (ec) return;
    for (;;) {
      beast::flat_buffer in;
      ws.read(in, ec);
      if (ec) return;
      Json j = Json::parse(beast::buffers_to_string(in.data()), nullptr, false);
      {
        std::lock_guard<std::mutex> lk(mu_);
        requests_.push_back(j);
      }
      for (const auto& o : script_(j)) {
        ws.text(o.text);
        ws.write(net::buffer(o.payload), ec);
        if (ec) return;
      }
    }
  }

  Script script_;
  int refuse_;
  net::io_context ioc_;
  tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  tcp::socket* sock_ = nullptr;
  beast::http::fields upgrade_;
  std::vector<Json> requests_;
};

std::string frame(const Json& id, const char* member, const Json& v) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {member, v}}.dump();
}

Json status_event(const char* state) {
  return {{"statusUpdate", {{"taskId", "t"}, {"contextId", "c"}, {"status", {{"state", state}}}}}};
}

const Json kComplete = {{"status", "stream_complete"}};

struct Fixture {
  explicit Fixture(const std::string& url, std::vector<std::pair<std::string, std::string>> headers = {}) {
    cfg.http_headers = std::move(headers);
    target = BindingTarget{"websocket", url, "", "1.0"};
    s.config = &cfg;
    s.target = &target;
    s.deadline = core::Deadline::after(core::Millis(20000));
  }
  OpResult call(const std::string& op, const Json& params, int within_ms = 3000) {
    return call_operation(s, op, params, core::Deadline::after(core::Millis(within_ms)));
  }
  RunConfig cfg;
  BindingTarget target;
  Session s;
};

Json msg() {
  return {{"message", {{"role", "ROLE_USER"}, {"messageId", "m-1"}, {"parts", Json::array({{{"text", "hi"}}})}}}};
}

TEST(WebSocketBinding, UnaryCallIsOneTextFrameWithTheV1MethodAndTheUpgradeCarriesVersionAndHeaders) {
  ScriptedWsAgent agent([](const Json& req) { return std::vector<Out>{{frame(req["id"], "result", {{"id", "t-1"}})}}; });
  Fixture f(agent.url(), {{"Authorization", "Bearer tok"}});
  OpResult r = f.call("get_task", {{"id", "t-1"}});
  EXPECT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  EXPECT_EQ(r.result, (Json{{"id", "t-1"}}));
  EXPECT_TRUE(r.violations.empty()) << r.violations.front();
  EXPECT_EQ(r.binding, "websocket");
  ASSERT_EQ(agent.requests().size(), 1u);
  EXPECT_EQ(agent.requests()[0]["method"], "GetTask");
  EXPECT_EQ(agent.requests()[0]["jsonrpc"], "2.0");
  EXPECT_EQ(agent.header("A2A-Version"), "1.0");
  EXPECT_EQ(agent.header("Authorization"), "Bearer tok");
}

TEST(WebSocketBinding, ErrorFrameIsAnError) {
  ScriptedWsAgent agent([](const Json& req) {
    return std::vector<Out>{{frame(req["id"], "error", {{"code", -32001}, {"message", "no such task"}})}};
  });
  Fixture f(agent.url());
  OpResult r = f.call("get_task", {{"id", "x"}});
  EXPECT_EQ(r.status, OpResult::Status::kError);
  EXPECT_EQ(r.error["code"], -32001);
}

TEST(WebSocketBinding, StreamGivesEventsUntilTheCompletionFrame) {
  ScriptedWsAgent agent([](const Json& req) {
    Json id = req["id"];
    return std::vector<Out>{{frame(id, "result", status_event("TASK_STATE_WORKING"))},
                            {frame(id, "result", status_event("TASK_STATE_COMPLETED"))},
                            {frame(id, "result", kComplete)}};
  });
  Fixture f(agent.url());
  OpResult r = f.call("send_streaming_message", msg());
  EXPECT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.events[1]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
  EXPECT_TRUE(r.violations.empty()) << r.violations.front();
  EXPECT_EQ(agent.requests()[0]["method"], "SendStreamingMessage");
}

TEST(WebSocketBinding, StreamWithoutCompletionIsNoResponseWithTheEventCount) {
  ScriptedWsAgent agent([](const Json& req) {
    return std::vector<Out>{{frame(req["id"], "result", status_event("TASK_STATE_WORKING"))}};
  });
  Fixture f(agent.url());
  OpResult r = f.call("send_streaming_message", msg(), 300);
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("stream_complete"), std::string::npos) << r.problem;
  EXPECT_NE(r.problem.find("after 1 event(s)"), std::string::npos) << r.problem;
}

TEST(WebSocketBinding, EventsAfterTheTerminalOneAreAViolation) {
  ScriptedWsAgent agent([](const Json& req) {
    Json id = req["id"];
    return std::vector<Out>{{frame(id, "result", status_event("TASK_STATE_COMPLETED"))},
                            {frame(id, "result", status_event("TASK_STATE_WORKING"))},
                            {frame(id, "result", kComplete)}};
  });
  Fixture f(agent.url());
  OpResult r = f.call("send_streaming_message", msg());
  EXPECT_EQ(r.status, OpResult::Status::kResult);
  ASSERT_FALSE(r.violations.empty());
  EXPECT_NE(r.violations[0].find("follows the terminal event"), std::string::npos) << r.violations[0];
}

TEST(WebSocketBinding, AFrameAfterTheCompletionIsAViolation) {
  ScriptedWsAgent agent([](const Json& req) {
    Json id = req["id"];
    return std::vector<Out>{{frame(id, "result", status_event("TASK_STATE_COMPLETED"))},
                            {frame(id, "result", kComplete)},
                            {frame(id, "result", status_event("TASK_STATE_COMPLETED"))}};
  });
  Fixture f(agent.url());
  OpResult r = f.call("send_streaming_message", msg());
  EXPECT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_NE(r.violations[0].find("after its final frame"), std::string::npos) << r.violations[0];
}

TEST(WebSocketBinding, ALateFrameOfAnEarlierRequestCountsAgainstTheNextStep) {
  std::atomic<int> n{0};
  ScriptedWsAgent agent([&](const Json& req) {
    Json id = req["id"];
    if (n++ == 0)  // a second response to the first request
      return std::vector<Out>{{frame(id, "result", Json::object())}, {frame(id, "result", Json::object())}};
    return std::vector<Out>{{frame(id, "result", Json::object())}};
  });
  Fixture f(agent.url());
  OpResult first = f.call("get_task", {{"id", "t"}});
  EXPECT_EQ(first.status, OpResult::Status::kResult);
  OpResult second = f.call("get_task", {{"id", "t"}});
  EXPECT_EQ(second.status, OpResult::Status::kResult);
  // The duplicate is found by whichever step looks after it arrived.
  size_t flagged = first.violations.size() + second.violations.size();
  EXPECT_EQ(flagged, 1u);
}

TEST(WebSocketBinding, ErrorAfterEventsEndsTheStreamAsAStreamError) {
  ScriptedWsAgent agent([](const Json& req) {
    Json id = req["id"];
    return std::vector<Out>{{frame(id, "result", status_event("TASK_STATE_WORKING"))},
                            {frame(id, "error", {{"code", -32000}, {"message", "lagged"}})}};
  });
  Fixture f(agent.url());
  OpResult r = f.call("send_streaming_message", msg());
  EXPECT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  ASSERT_EQ(r.stream_errors.size(), 1u);
  EXPECT_EQ(r.stream_errors[0]["code"], -32000);
}

TEST(WebSocketBinding, WrongEnvelopeAndBinaryAnswerAreViolations) {
  ScriptedWsAgent agent([](const Json& req) {
    return std::vector<Out>{{Json{{"jsonrpc", "1.0"}, {"id", req["id"]}, {"result", Json::object()}}.dump(), false}};
  });
  Fixture f(agent.url());
  OpResult r = f.call("get_task", {{"id", "t"}});
  EXPECT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  ASSERT_EQ(r.violations.size(), 2u);
  EXPECT_NE(r.violations[0].find("binary frame"), std::string::npos) << r.violations[0];
  EXPECT_NE(r.violations[1].find("jsonrpc"), std::string::npos) << r.violations[1];
}

TEST(WebSocketBinding, AnswerWithAnotherIdIsNoResponseNamingTheFrame) {
  ScriptedWsAgent agent([](const Json&) { return std::vector<Out>{{frame("other", "result", Json::object())}}; });
  Fixture f(agent.url());
  OpResult r = f.call("get_task", {{"id", "t"}}, 300);
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("1 unconsumed frame(s)"), std::string::npos) << r.problem;
  EXPECT_NE(r.problem.find("\"other\""), std::string::npos) << r.problem;
}

TEST(WebSocketBinding, OneConnectionServesEveryOperationOfAScenario) {
  ScriptedWsAgent agent([](const Json& req) { return std::vector<Out>{{frame(req["id"], "result", Json::object())}}; });
  Fixture f(agent.url());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(f.call("get_task", {{"id", "t"}}).status, OpResult::Status::kResult);
  auto reqs = agent.requests();
  ASSERT_EQ(reqs.size(), 3u);  // one session on the server: all three came on one connection
  EXPECT_NE(reqs[0]["id"], reqs[1]["id"]);
}

TEST(WebSocketBinding, DeclinedUpgradeIsNoResponseWithTheStatus) {
  ScriptedWsAgent agent([](const Json&) { return std::vector<Out>{}; }, 400);
  Fixture f(agent.url());
  OpResult r = f.call("get_task", {{"id", "t"}});
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("declined: HTTP 400"), std::string::npos) << r.problem;
}

TEST(WebSocketBinding, NothingListeningIsNoResponse) {
  uint16_t port;
  {
    net::io_context ioc;
    tcp::acceptor a(ioc, {net::ip::make_address("127.0.0.1"), 0});
    port = a.local_endpoint().port();
  }
  Fixture f("ws://127.0.0.1:" + std::to_string(port));
  OpResult r = f.call("get_task", {{"id", "t"}});
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("could not open the WebSocket connection"), std::string::npos) << r.problem;
}

TEST(WebSocketBinding, CardUrlsAreCheckedAndFound) {
  const auto* b = find_binding_by_card_name("WEBSOCKET", "1");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->key, "websocket");
  EXPECT_EQ(b->check_url("ws://127.0.0.1:9000"), "");
  EXPECT_NE(b->check_url("http://127.0.0.1:9000"), "");
  EXPECT_EQ(b->check_url("wss://127.0.0.1:9000/a2a"), "");  // TLS: ws_tls.hpp
  EXPECT_NE(b->check_url("wss://"), "");
}

}  // namespace
}  // namespace a2a::engine
