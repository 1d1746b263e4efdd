// Helpers for the agent's WebSocket tests (header-only): a real
// WebSocketAgent on 127.0.0.1:0 over a real AgentCore, and a small Beast
// WebSocket client. Every client operation is asynchronous and run for a
// bounded time (cancelled at its deadline), so no test can hang.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/test_support.hpp"
#include "peers/a2a-ref-agent/websocket/websocket_server.hpp"

namespace a2a::agent::testing {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

using Headers = std::vector<std::pair<std::string, std::string>>;
inline const Headers kV1Headers = {{"A2A-Version", "1.0"}};
constexpr core::Millis kWait{3000};

// Runs `ioc` until `done` or `timeout`; at the deadline `cancel` runs and the
// aborted operations finish (bounded too).
template <class Cancel>
bool run_until(net::io_context& ioc, const bool& done, core::Millis timeout, Cancel cancel) {
  ioc.restart();
  auto deadline = core::Deadline::after(timeout);
  while (!done && !deadline.expired()) ioc.run_one_for(std::chrono::milliseconds(20));
  if (done) return true;
  cancel();
  ioc.restart();
  auto grace = core::Deadline::after(core::Millis(2000));
  while (!done && !grace.expired()) ioc.run_one_for(std::chrono::milliseconds(20));
  return false;
}

// A plain HTTP request/response on a fresh connection (for refused upgrades).
inline std::optional<http::response<http::string_body>> http_upgrade(uint16_t port, const Headers& headers,
                                                                      bool upgrade = true) {
  net::io_context ioc;
  beast::tcp_stream s(ioc);
  beast::error_code ec;
  s.socket().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
  if (ec) return std::nullopt;
  http::request<http::empty_body> req(http::verb::get, "/any/path", 11);
  req.set(http::field::host, "127.0.0.1");
  if (upgrade) {
    req.set(http::field::connection, "Upgrade");
    req.set(http::field::upgrade, "websocket");
    req.set(http::field::sec_websocket_version, "13");
    req.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
  }
  for (const auto& [k, v] : headers) req.set(k, v);
  http::response<http::string_body> res;
  beast::flat_buffer buf;
  bool done = false;
  beast::error_code result;
  http::async_write(s, req, [&](beast::error_code e, size_t) {
    if (e) {
      result = e;
      done = true;
      return;
    }
    // A 101 has no body: read the header only then.
    http::async_read(s, buf, res, [&](beast::error_code e2, size_t) {
      result = e2;
      done = true;
    });
  });
  if (!run_until(ioc, done, kWait, [&] { s.cancel(); })) return std::nullopt;
  if (result && res.result_int() == 0) return std::nullopt;
  return res;
}

struct WsRead {
  bool ok = false;
  std::string text;
  bool binary = false;
  beast::error_code ec;
  Json json() const { return Json::parse(text, nullptr, false); }
};

class WsClient {
 public:
  WsClient() : ws_(ioc_) {}

  // Connects and upgrades; false (and `ec()`) when refused.
  bool connect(uint16_t port, const Headers& headers = kV1Headers) {
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
    if (ec) {
      ec_ = ec;
      return false;
    }
    ws_.set_option(websocket::stream_base::decorator([headers](websocket::request_type& r) {
      for (const auto& [k, v] : headers) r.set(k, v);
    }));
    ws_.read_message_max(64u << 20);
    bool done = false;
    ws_.async_handshake("127.0.0.1", "/", [&](beast::error_code e) {
      ec_ = e;
      done = true;
    });
    if (!run_until(ioc_, done, kWait, [&] { beast::get_lowest_layer(ws_).cancel(); })) return false;
    return !ec_;
  }

  bool send_text(const std::string& text, core::Millis timeout = kWait) { return write(text, false, timeout); }
  bool send_binary(const std::string& bytes) { return write(bytes, true, kWait); }
  bool send(const Json& j) { return send_text(j.dump()); }
  bool request(const Json& id, const std::string& method, const Json& params) {
    Json r = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.is_null()) r["params"] = params;
    return send(r);
  }

  // The next frame, or !ok at the deadline (the read is cancelled) or when the connection ends.
  WsRead read(core::Millis timeout = kWait) {
    WsRead out;
    bool done = false;
    buf_.consume(buf_.size());
    ws_.async_read(buf_, [&](beast::error_code e, size_t) {
      out.ec = e;
      done = true;
    });
    if (!run_until(ioc_, done, timeout, [&] { beast::get_lowest_layer(ws_).cancel(); })) {
      broken_ = true;  // a cancelled read leaves the stream unusable
      return out;
    }
    if (out.ec) return out;
    out.ok = true;
    out.binary = !ws_.got_text();
    out.text = beast::buffers_to_string(buf_.data());
    return out;
  }
  std::optional<Json> read_json(core::Millis timeout = kWait) {
    WsRead r = read(timeout);
    if (!r.ok) return std::nullopt;
    return r.json();
  }
  // True when no frame arrives within `d` (the read is then cancelled: use no further).
  bool silent_for(core::Millis d) { return !read(d).ok; }

  // Frames until a completion or error frame with `id` (or the deadline).
  std::vector<Json> read_stream(const Json& id, core::Millis timeout = core::Millis(5000)) {
    std::vector<Json> out;
    auto deadline = core::Deadline::after(timeout);
    while (!deadline.expired()) {
      auto j = read_json(core::Millis(deadline.poll_timeout_ms()));
      if (!j) break;
      out.push_back(*j);
      if (j->is_object() && (*j)["id"] == id &&
          (j->contains("error") || (*j)["result"] == Json{{"status", "stream_complete"}}))
        break;
    }
    return out;
  }

  const beast::error_code& ec() const { return ec_; }
  websocket::close_reason close_reason() const { return ws_.reason(); }
  websocket::stream<beast::tcp_stream>& stream() { return ws_; }
  net::io_context& ioc() { return ioc_; }

 private:
  bool write(const std::string& data, bool binary, core::Millis timeout) {
    bool done = false;
    beast::error_code ec;
    ws_.binary(binary);
    ws_.async_write(net::buffer(data), [&](beast::error_code e, size_t) {
      ec = e;
      done = true;
    });
    if (!run_until(ioc_, done, timeout, [&] { beast::get_lowest_layer(ws_).cancel(); })) return false;
    return !ec;
  }

  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buf_;
  beast::error_code ec_;
  bool broken_ = false;
};

// A core and a WebSocket server over it (no HTTP), torn down in order.
struct WsFixture {
  explicit WsFixture(Faults faults = {}, AgentConfig config = fast_config()) {
    config.faults = faults;
    core = std::make_unique<AgentCore>(config);
    WebSocketAgentOptions o;
    o.faults = faults;
    o.log_fd = -1;
    auto started = WebSocketAgent::start(o);
    EXPECT_TRUE(started.ok()) << (started.ok() ? "" : started.error().str());
    if (started.ok()) {
      server = std::move(*started);
      server->attach(*core);
    }
  }
  ~WsFixture() {
    if (server) server->stop();
  }
  uint16_t port() const { return server ? server->port() : 0; }
  // A connected client (A2A-Version: 1.0 and `extra` headers).
  std::unique_ptr<WsClient> client(const Headers& extra = {}) {
    auto c = std::make_unique<WsClient>();
    Headers h = kV1Headers;
    h.insert(h.end(), extra.begin(), extra.end());
    EXPECT_TRUE(c->connect(port(), h)) << c->ec().message();
    return c;
  }
  std::unique_ptr<AgentCore> core;
  std::unique_ptr<WebSocketAgent> server;
};

inline Faults one_fault(Fault f) {
  Faults faults;
  faults.add(f);
  return faults;
}

inline bool is_complete(const Json& frame) { return frame.value("result", Json()) == Json{{"status", "stream_complete"}}; }

}  // namespace a2a::agent::testing
