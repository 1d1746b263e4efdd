#include "runner/transport/ws_client.hpp"

#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "runner/core/escape.hpp"
#include "runner/transport/url.hpp"

namespace a2a::transport {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

core::Expected<WsUrl> WsUrl::parse(const std::string& url) {
  WsUrl w;
  std::string http;
  if (url.rfind("ws://", 0) == 0) {
    http = "http://" + url.substr(5);
  } else if (url.rfind("wss://", 0) == 0) {
    w.tls = true;
    http = "https://" + url.substr(6);
  } else {
    return core::fail(core::ErrorKind::kInvalidArgument, "not a ws:// or wss:// URL: " + core::escape_bytes(url, 120));
  }
  auto u = Url::parse(http);
  if (!u) return core::fail(core::ErrorKind::kInvalidArgument, u.error().message);
  w.host = u->host;
  w.port = u->port;
  w.target = u->target();
  if (w.target.empty()) w.target = "/";
  return w;
}

std::string WsUrl::host_header() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (port != (tls ? 443 : 80)) h += ":" + std::to_string(port);
  return h;
}

struct WsConnection::Impl {
  net::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  std::thread io;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> guard;
  beast::flat_buffer buf;
  WsOptions opt;

  mutable std::mutex mu;
  std::condition_variable cv;
  std::deque<WsFrame> inbox;
  size_t inbox_bytes = 0;
  bool is_closed = false;
  std::string reason;
  int code = 0;

  std::timed_mutex write_mu;  // one write (or ping) at a time
  std::mutex close_mu;
  bool shut = false;

  std::string describe(const beast::error_code& ec) {
    if (ec == websocket::error::closed) {
      auto r = ws.reason();
      code = static_cast<int>(r.code);
      std::string s = "the peer closed the connection (close code " + std::to_string(r.code);
      if (!r.reason.empty()) s += ": " + core::escape_bytes(std::string(r.reason.c_str()), 120);
      return s + ")";
    }
    if (ec == websocket::error::message_too_big)
      return "the peer sent a message over " + std::to_string(opt.max_message >> 20) + " MiB";
    if (ec == net::error::eof || ec == beast::http::error::end_of_stream || ec == net::error::connection_reset)
      return "the peer closed the TCP connection without a close frame (" + ec.message() + ")";
    if (ec == net::error::operation_aborted) return "the connection was closed by the runner";
    return "the connection failed: " + ec.message();
  }

  void finish(std::string why) {
    {
      std::lock_guard<std::mutex> lk(mu);
      if (!is_closed) {
        is_closed = true;
        reason = std::move(why);
      }
    }
    cv.notify_all();
  }

  void start_read() {
    ws.async_read(buf, [this](beast::error_code ec, size_t) { on_read(ec); });
  }

  void on_read(const beast::error_code& ec) {
    if (ec) {
      finish(describe(ec));
      return;
    }
    WsFrame f{ws.got_text(), beast::buffers_to_string(buf.data())};
    buf.consume(buf.size());
    bool over = false;
    {
      std::lock_guard<std::mutex> lk(mu);
      if (inbox.size() >= opt.max_inbox_frames || inbox_bytes + f.payload.size() > opt.max_inbox_bytes) {
        over = true;
      } else {
        inbox_bytes += f.payload.size();
        inbox.push_back(std::move(f));
      }
    }
    if (over) {
      // A flood nobody takes: stop reading rather than grow without bound.
      finish("the peer sent more than " + std::to_string(opt.max_inbox_frames) + " frames or " +
             std::to_string(opt.max_inbox_bytes >> 20) + " MiB that no step took; the rest was not read");
      beast::error_code ignored;
      beast::get_lowest_layer(ws).socket().close(ignored);
      return;
    }
    cv.notify_all();
    start_read();
  }

  // Runs `start(done)` on the I/O thread and waits for its completion until
  // `deadline`; at the deadline the connection is broken (kTimeout).
  core::Expected<void> io_op(const std::string& what, core::Deadline deadline,
                             std::function<void(std::shared_ptr<std::promise<beast::error_code>>)> start) {
    std::unique_lock<std::timed_mutex> wl(write_mu, std::defer_lock);
    if (deadline.is_never()) wl.lock();
    else if (!wl.try_lock_until(deadline.time()))
      return core::fail(core::ErrorKind::kTimeout, what + ": another write did not finish before the deadline");
    if (closed()) return core::fail(core::ErrorKind::kBrokenPipe, what + ": the connection is closed (" + why() + ")");
    auto done = std::make_shared<std::promise<beast::error_code>>();
    auto fut = done->get_future();
    net::post(ioc, [start, done] { start(done); });
    if (!deadline.is_never() && fut.wait_until(deadline.time()) == std::future_status::timeout) {
      finish(what + " did not complete before the deadline");
      net::post(ioc, [this] {
        beast::error_code ignored;
        beast::get_lowest_layer(ws).socket().close(ignored);
      });
      return core::fail(core::ErrorKind::kTimeout, what + " did not complete before the deadline");
    }
    auto ec = fut.get();
    if (ec) {
      finish(describe(ec));
      return core::fail(core::ErrorKind::kBrokenPipe, what + " failed: " + why());
    }
    return {};
  }

  bool closed() const {
    std::lock_guard<std::mutex> lk(mu);
    return is_closed;
  }
  std::string why() const {
    std::lock_guard<std::mutex> lk(mu);
    return reason;
  }
};

WsConnection::WsConnection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

WsConnection::~WsConnection() { close(); }

core::Expected<std::unique_ptr<WsConnection>> WsConnection::connect(const std::string& url, WsOptions options,
                                                                   core::Deadline deadline, WsRefusal* refusal) {
  auto u = WsUrl::parse(url);
  if (!u) return core::fail(u.error());
  if (u->tls)
    return core::fail(core::ErrorKind::kInvalidArgument,
                      url + ": wss:// (WebSocket over TLS) is not supported by this runner yet (docs/websocket.md)");
  auto impl = std::make_unique<Impl>();
  impl->opt = std::move(options);
  Impl* p = impl.get();
  auto& layer = beast::get_lowest_layer(p->ws);
  auto budget = deadline.is_never() ? std::chrono::milliseconds(30000)
                                    : std::chrono::duration_cast<std::chrono::milliseconds>(deadline.remaining());
  if (budget.count() <= 0) return core::fail(core::ErrorKind::kTimeout, "no time left to connect to " + url);
  layer.expires_after(budget);
  tcp::resolver resolver(p->ioc);
  websocket::response_type res;
  beast::error_code result{net::error::timed_out};
  bool done = false;
  std::string stage = "resolve";
  resolver.async_resolve(u->host, std::to_string(u->port), [&](beast::error_code ec, tcp::resolver::results_type rs) {
    if (ec) {
      result = ec;
      done = true;
      return;
    }
    stage = "TCP connect";
    layer.async_connect(rs, [&](beast::error_code ec2, const tcp::endpoint&) {
      if (ec2) {
        result = ec2;
        done = true;
        return;
      }
      stage = "WebSocket upgrade";
      layer.expires_never();
      websocket::stream_base::timeout t{};
      t.handshake_timeout = budget;
      t.idle_timeout = websocket::stream_base::none();
      t.keep_alive_pings = false;
      p->ws.set_option(t);
      auto headers = p->opt.headers;
      p->ws.set_option(websocket::stream_base::decorator([headers](websocket::request_type& req) {
        req.set(beast::http::field::user_agent, "a2a-conform");
        for (const auto& [name, value] : headers) req.set(name, value);
      }));
      p->ws.read_message_max(p->opt.max_message);
      p->ws.async_handshake(res, u->host_header(), u->target, [&](beast::error_code ec3) {
        result = ec3;
        done = true;
      });
    });
  });
  p->ioc.run_for(budget + std::chrono::milliseconds(200));
  if (!done) {
    return core::fail(core::ErrorKind::kTimeout, url + ": the " + stage + " did not complete within " +
                                                     std::to_string(budget.count()) + " ms");
  }
  if (result) {
    if (result == websocket::error::upgrade_declined) {
      if (refusal) {
        refusal->status = static_cast<int>(res.result_int());
        refusal->body = res.body();
      }
      return core::fail(core::ErrorKind::kProtocol, url + ": the upgrade was declined: HTTP " +
                                                        std::to_string(res.result_int()) + " " +
                                                        core::escape_bytes(res.body(), 200));
    }
    return core::fail(core::ErrorKind::kIo, url + ": the " + stage + " failed: " + result.message());
  }
  p->ioc.restart();
  p->guard.emplace(net::make_work_guard(p->ioc));
  p->start_read();
  p->io = std::thread([p] { p->ioc.run(); });
  return std::unique_ptr<WsConnection>(new WsConnection(std::move(impl)));
}

core::Expected<void> WsConnection::send(std::string_view payload, bool text, core::Deadline deadline) {
  auto data = std::make_shared<std::string>(payload);
  Impl* p = impl_.get();
  return p->io_op(text ? "writing a text frame" : "writing a binary frame", deadline, [p, data, text](auto done) {
    p->ws.text(text);
    p->ws.async_write(net::buffer(*data), [data, done](beast::error_code ec, size_t) { done->set_value(ec); });
  });
}

core::Expected<void> WsConnection::ping(core::Deadline deadline) {
  Impl* p = impl_.get();
  return p->io_op("writing a ping", deadline, [p](auto done) {
    p->ws.async_ping({}, [done](beast::error_code ec) { done->set_value(ec); });
  });
}

std::optional<WsFrame> WsConnection::take(const std::function<bool(const WsFrame&)>& pred, core::Deadline deadline) {
  Impl* p = impl_.get();
  std::unique_lock<std::mutex> lk(p->mu);
  for (;;) {
    for (auto it = p->inbox.begin(); it != p->inbox.end(); ++it) {
      if (!pred(*it)) continue;
      WsFrame f = std::move(*it);
      p->inbox_bytes -= f.payload.size();
      p->inbox.erase(it);
      return f;
    }
    if (p->is_closed) return std::nullopt;
    if (deadline.is_never()) p->cv.wait(lk);
    else if (p->cv.wait_until(lk, deadline.time()) == std::cv_status::timeout && deadline.expired()) {
      for (auto it = p->inbox.begin(); it != p->inbox.end(); ++it) {
        if (!pred(*it)) continue;
        WsFrame f = std::move(*it);
        p->inbox_bytes -= f.payload.size();
        p->inbox.erase(it);
        return f;
      }
      return std::nullopt;
    }
  }
}

bool WsConnection::wait_closed(core::Deadline deadline) {
  Impl* p = impl_.get();
  std::unique_lock<std::mutex> lk(p->mu);
  auto done = [&] { return p->is_closed; };
  if (deadline.is_never()) {
    p->cv.wait(lk, done);
    return true;
  }
  return p->cv.wait_until(lk, deadline.time(), done);
}

std::string WsConnection::why() const { return impl_->why(); }
bool WsConnection::closed() const { return impl_->closed(); }
int WsConnection::close_code() const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return impl_->code;
}

size_t WsConnection::unconsumed() const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return impl_->inbox.size();
}

std::vector<WsFrame> WsConnection::pending(size_t max_frames) const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  std::vector<WsFrame> out;
  for (const auto& f : impl_->inbox) {
    if (out.size() >= max_frames) break;
    out.push_back(f);
  }
  return out;
}

void WsConnection::close() {
  Impl* p = impl_.get();
  {
    std::lock_guard<std::mutex> lk(p->close_mu);
    if (p->shut) return;
    p->shut = true;
  }
  if (!p->io.joinable()) return;
  if (!p->closed()) {
    // The closing handshake, bounded: the peer gets 500 ms to answer it.
    auto done = std::make_shared<std::promise<void>>();
    auto fut = done->get_future();
    net::post(p->ioc, [p, done] {
      p->ws.async_close(websocket::close_code::normal, [done](beast::error_code) { done->set_value(); });
    });
    fut.wait_for(std::chrono::milliseconds(500));
    p->finish("the connection was closed by the runner");
  }
  net::post(p->ioc, [p] {
    beast::error_code ignored;
    beast::get_lowest_layer(p->ws).socket().close(ignored);
  });
  p->guard.reset();
  p->ioc.stop();
  p->io.join();
}

}  // namespace a2a::transport
