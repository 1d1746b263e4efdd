#include "peers/a2a-ref-agent/websocket/websocket_server.hpp"

#include <unistd.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "peers/a2a-ref-agent/http_binding.hpp"
#include "peers/a2a-ref-agent/websocket/websocket_faults.hpp"
#include "peers/a2a-ref-agent/worker_pool.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

constexpr core::Millis kPollSlice{250};  // how often a stream's worker looks at the connection
constexpr core::Millis kStopGrace{1000};
constexpr size_t kMaxUpgradeHeader = 16u << 10;
constexpr size_t kKeptReadBuffer = 64u << 10;  // a larger read buffer is given back after its message
constexpr int kServerError = -32000;

std::string url_host(const std::string& bind) {
  if (bind == "0.0.0.0" || bind.empty()) return "127.0.0.1";
  if (bind == "::") return "[::1]";
  if (bind.find(':') != std::string::npos) return "[" + bind + "]";
  return bind;
}

std::string_view trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

// "1", "1.0", "1.3": major version 1.
bool served_version(std::string_view v) { return v.substr(0, v.find('.')) == "1"; }

Json error_object(int code, std::string message) { return CallError{code, std::move(message), nullptr}.to_json(); }

}  // namespace

class WsConnection;

class WsService {
 public:
  explicit WsService(WebSocketAgentOptions o)
      : options(std::move(o)),
        policy(ws_policy(options.faults)),
        acceptor(net::make_strand(ioc)),
        backoff(acceptor.get_executor()),
        pool(options.workers, options.max_workers, options.max_queue) {}

  void log(const std::string& what) const {
    if (options.log_fd < 0) return;
    std::string line = "a2a-ref-agent: websocket: " + what + "\n";
    [[maybe_unused]] ssize_t n = ::write(options.log_fd, line.data(), line.size());
  }

  void accept();
  void admit(tcp::socket socket);
  void shutdown();

  // The io_context first: destroyed last, after everything that uses it.
  net::io_context ioc;
  net::executor_work_guard<net::io_context::executor_type> guard{ioc.get_executor()};
  const WebSocketAgentOptions options;
  const WsPolicy policy;
  tcp::acceptor acceptor;
  net::steady_timer backoff;  // after an accept error (EMFILE, ...), instead of spinning
  WorkerPool pool;
  std::atomic<AgentCore*> core{nullptr};
  std::atomic<bool> stopping{false};
  std::mutex mu;
  std::vector<std::weak_ptr<WsConnection>> connections;
  std::vector<std::thread> threads;
};

// One WebSocket connection. Everything touching the stream runs on the
// connection's strand; workers hand frames over by posting. One write is
// in flight at a time (frames go out in the order they were posted).
class WsConnection : public std::enable_shared_from_this<WsConnection> {
 public:
  // One frame for the writer, or the mark that a request's answer is all
  // queued (its slot is free once the frames before it are written).
  struct Out {
    WsFrame frame;
    bool release = false;
  };

  WsConnection(WsService& svc, tcp::socket socket) : svc_(svc), ws_(std::move(socket)) {}

  void start() { net::dispatch(ws_.get_executor(), [self = shared_from_this()] { self->read_upgrade(); }); }

  // From any thread: closes the connection (a close handshake when upgraded).
  void request_close() {
    net::post(ws_.get_executor(), [self = shared_from_this()] { self->close_now(); });
  }

  // From any thread.
  void post(Out o) {
    net::post(ws_.get_executor(), [self = shared_from_this(), o = std::move(o)]() mutable { self->push(std::move(o)); });
  }

  bool closed() const { return closed_; }

  // Only once no I/O thread runs (the end of stop()): the socket closes now.
  void close_socket() {
    beast::error_code ignored;
    ws_.next_layer().socket().close(ignored);
    closed_ = true;
  }

 private:
  // ---- the upgrade ----
  void read_upgrade() {
    parser_.emplace();
    parser_->header_limit(kMaxUpgradeHeader);
    ws_.next_layer().expires_after(svc_.options.handshake_timeout);
    http::async_read(ws_.next_layer(), hbuf_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->on_upgrade(ec); });
  }

  void on_upgrade(beast::error_code ec) {
    if (ec) return finish();  // not HTTP, too slow, or gone: nothing to answer
    auto& req = parser_->get();
    if (!websocket::is_upgrade(req)) {
      return refuse(http::status::upgrade_required, "FAILED_PRECONDITION",
                    "this endpoint serves the A2A WebSocket binding only: send a WebSocket upgrade "
                    "(Connection: Upgrade, Upgrade: websocket) with A2A-Version: 1.0");
    }
    if (svc_.policy.check_version) {
      std::string_view v = trim(std::string_view(req["A2A-Version"].data(), req["A2A-Version"].size()));
      if (v.empty()) {
        return refuse(http::status::bad_request, "FAILED_PRECONDITION",
                      "A2A version '0.3' is not supported by this server; expected '1.0' (a missing or empty "
                      "A2A-Version header means 0.3: send A2A-Version: 1.0)");
      }
      if (!served_version(v)) {
        return refuse(http::status::bad_request, "FAILED_PRECONDITION",
                      "unsupported A2A version: '" + std::string(v) + "'; this server supports 1.x (A2A-Version: 1.0)");
      }
    }
    auto auth = req[http::field::authorization];
    authorization_.assign(auth.data(), auth.size());
    ws_.next_layer().expires_never();
    ws_.set_option(websocket::stream_base::timeout{svc_.options.handshake_timeout, websocket::stream_base::none(),
                                                   false});
    ws_.read_message_max(svc_.policy.max_message);
    ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) { self->on_accepted(ec); });
  }

  // An upgrade refused with an HTTP status and a JSON body
  // {"error":{"code":<http status>,"status":<grpc status name>,"message":...}}.
  void refuse(http::status status, std::string_view grpc_status, const std::string& message) {
    res_.emplace(status, parser_->get().version());
    res_->set(http::field::content_type, "application/json");
    res_->keep_alive(false);
    res_->body() = jsonrpc::dump(
        Json{{"error", {{"code", static_cast<int>(status)}, {"status", grpc_status}, {"message", message}}}});
    res_->prepare_payload();
    ws_.next_layer().expires_after(svc_.options.handshake_timeout);
    http::async_write(ws_.next_layer(), *res_, [self = shared_from_this()](beast::error_code, size_t) {
      beast::error_code ignored;
      self->ws_.next_layer().socket().shutdown(tcp::socket::shutdown_send, ignored);
      self->finish();
    });
  }

  void on_accepted(beast::error_code ec) {
    parser_.reset();
    if (ec) return finish();
    upgraded_ = true;
    if (svc_.stopping || close_requested_) return close_now();
    read();
  }

  // ---- reading ----
  void read() {
    ws_.async_read(rbuf_, [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec) {
      // A close frame, a message above the limit (Beast closed with 1009),
      // a protocol error or a lost peer: the connection is over.
      if (ec == websocket::error::message_too_big) svc_.log("a message above the size limit: connection closed (1009)");
      return finish();
    }
    bool text = ws_.got_text();
    std::string data = beast::buffers_to_string(rbuf_.data());
    rbuf_.consume(rbuf_.size());
    if (rbuf_.capacity() > kKeptReadBuffer) rbuf_.shrink_to_fit();
    if (text) {
      on_text(data);
    } else if (svc_.policy.answer_binary) {
      answer(false)->send({WsKind::kError, nullptr,
                           error_object(jsonrpc::kParseError,
                                        "binary frames are not supported; send JSON-RPC as text frames")});
    }
    if (!closed_ && !closing_) read();
  }

  // ---- requests ----
  void on_text(std::string_view text) {
    jsonrpc::Incoming in = jsonrpc::classify_incoming(text, jsonrpc::Strictness::kStrict);
    if (!in.message) {
      // Not JSON (-32700, id null), not a request (-32600, its id when usable),
      // bad params (-32602); nothing for a notification with bad params.
      if (in.reply) answer(false)->send({WsKind::kError, in.reply->value("id", Json()), (*in.reply)["error"]});
      return;
    }
    jsonrpc::Message& m = *in.message;
    // JSON-RPC 2.0 §4.1: a notification is never answered, so it is not
    // served either. (a2a-rust serves it and answers with id null; we follow
    // JSON-RPC here, docs/websocket.md.)
    if (m.kind == jsonrpc::Kind::kNotification && !svc_.policy.answer_notifications) return;
    Json id = m.kind == jsonrpc::Kind::kNotification ? Json(nullptr) : m.id;
    if (!take_slot()) {
      answer(false)->send({WsKind::kError, id, error_object(kServerError, "server busy: too many concurrent requests")});
      return;
    }
    serve(answer(true), id, m.method, m.params);
  }

  // Only the strand takes slots; the writer gives them back.
  bool take_slot() {
    int limit = svc_.policy.max_in_flight;
    if (limit > 0 && in_flight_.load() >= limit) return false;
    ++in_flight_;
    return true;
  }

  std::unique_ptr<WsMessageSink> answer(bool holds_slot);

  void serve(std::unique_ptr<WsMessageSink> out, const Json& id, const std::string& method, const Json& params) {
    AgentCore* core = svc_.core.load();
    if (!core || svc_.stopping) return out->send({WsKind::kError, id, error_object(kServerError, "the agent is not serving")});
    auto op = model::operation_from_method(method, model::MethodNaming::kV1);
    if (!op) {
      return out->send({WsKind::kError, id,
                        error_object(jsonrpc::kMethodNotFound,
                                     "Method not found: '" + method + "' is not an A2A 1.0 method")});
    }
    if (*op == model::Operation::kGetExtendedAgentCard && !authorized())
      return out->send({WsKind::kError, id, unauthenticated_error().to_json()});
    bool streaming = model::is_streaming(*op);
    // A call that cannot wait is answered here, like on HTTP's I/O threads.
    if (!streaming && !core->may_block(*op, params)) return guarded(*out, id, [&] { answer_call(*core, *out, id, *op, params); });
    std::shared_ptr<WsMessageSink> sink = std::move(out);
    auto job = [self = shared_from_this(), core, sink, id, op = *op, params, streaming] {
      self->guarded(*sink, id, [&] {
        if (streaming) {
          self->pump(*core, *sink, id, op, params);
        } else {
          answer_call(*core, *sink, id, op, params);
        }
      });
    };
    if (!svc_.pool.submit(std::move(job)))
      sink->send({WsKind::kError, id, error_object(kServerError, "server busy: no worker is free")});
  }

  template <class Fn>
  void guarded(WsMessageSink& out, const Json& id, Fn&& fn) {
    try {
      fn();
    } catch (const std::exception& e) {
      // A bug of ours costs one request, not the agent.
      svc_.log(std::string("internal error: ") + e.what());
      out.send({WsKind::kError, id, internal_error("internal error").to_json()});
    }
  }

  static void answer_call(AgentCore& core, WsMessageSink& out, const Json& id, model::Operation op, const Json& params) {
    CallResult r = core.call(op, params);
    if (!r.ok()) return out.send({WsKind::kError, id, r.error().to_json()});
    out.send({WsKind::kResult, id, std::move(r.value())});
  }

  // On a worker: the stream's events, then its completion (or its error).
  void pump(AgentCore& core, WsMessageSink& out, const Json& id, model::Operation op, const Json& params) {
    StreamOpen opened = core.open_stream(op, params);
    if (!opened.stream) {
      return out.send({WsKind::kStreamError, id, opened.error.value_or(internal_error("stream refused")).to_json()});
    }
    EventStream& stream = *opened.stream;
    core::Deadline until = core::Deadline::after(svc_.options.max_stream);
    while (!closed_) {  // a closed connection has nobody to tell
      if (until.expired()) {
        out.send({WsKind::kStreamError, id,
                  error_object(kServerError, "the stream was open for the agent's longest stream time; subscribe again")});
        break;
      }
      StreamItem item = stream.next(core::Deadline::after(kPollSlice).min(until));
      if (item.kind == StreamItem::Kind::kTimeout) continue;
      if (item.kind == StreamItem::Kind::kEvent) {
        out.send({WsKind::kEvent, id, std::move(item.event)});
        continue;
      }
      if (item.kind == StreamItem::Kind::kError) {
        out.send({WsKind::kStreamError, id, item.error.to_json()});  // the stream ends with its error
      } else if (!closed_) {
        out.send({WsKind::kComplete, id, nullptr});
      }
      break;
    }
    stream.cancel();
  }

  bool authorized() const {
    if (!svc_.policy.carry_upgrade_auth) return false;
    std::string_view v = authorization_;
    // RFC 9110 §11.1: the scheme name is case-insensitive.
    if (v.size() < 7 || (v.substr(0, 7) != "Bearer " && v.substr(0, 7) != "bearer ")) return false;
    v.remove_prefix(7);
    for (const auto& t : svc_.options.auth_tokens)
      if (v == t) return true;
    return false;
  }

  // ---- writing (on the strand) ----
  void push(Out o) {
    if (closed_ || closing_) {
      if (o.release) --in_flight_;
      return;
    }
    queued_bytes_ += o.frame.text.size();
    outq_.push_back(std::move(o));
    if (queued_bytes_ > svc_.options.max_queued_bytes) {
      svc_.log("a client that does not read: connection closed");
      return abort();
    }
    if (!writing_) write_next();
  }

  void write_next() {
    while (!outq_.empty() && outq_.front().release) {
      outq_.pop_front();
      --in_flight_;
    }
    if (outq_.empty() || closing_) {
      if (close_requested_ && !closing_) start_close();
      return;
    }
    writing_ = true;
    const WsFrame& f = outq_.front().frame;
    ws_.text(!f.binary);
    ws_.async_write(net::buffer(f.text), [self = shared_from_this()](beast::error_code ec, size_t) { self->on_write(ec); });
  }

  void on_write(beast::error_code ec) {
    writing_ = false;
    if (!outq_.empty()) {
      queued_bytes_ -= outq_.front().frame.text.size();
      outq_.pop_front();
    }
    if (ec || closed_) return finish();
    write_next();
  }

  // The server ends the connection (stop): a close handshake when upgraded
  // and no write is in flight (else after it), bounded by the handshake timeout.
  void close_now() {
    close_requested_ = true;
    if (closed_ || closing_) return;
    if (!upgraded_) return abort();  // still in the upgrade
    if (!writing_) start_close();
  }

  void start_close() {
    closing_ = true;
    drop_queue();
    ws_.async_close(websocket::close_reason(websocket::close_code::going_away),
                    [self = shared_from_this()](beast::error_code) { self->finish(); });
  }

  void abort() {
    beast::error_code ignored;
    ws_.next_layer().socket().close(ignored);  // pending operations end with operation_aborted
    finish();
  }

  // The connection is over: nothing more is written, queued frames are dropped.
  void finish() {
    closed_ = true;
    drop_queue();
  }

  // Drops every queued frame but the one being written (its buffer is in use).
  void drop_queue() {
    size_t keep = writing_ ? 1 : 0;
    while (outq_.size() > keep) {
      if (outq_.back().release) --in_flight_;
      queued_bytes_ -= outq_.back().frame.text.size();
      outq_.pop_back();
    }
  }

  WsService& svc_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer hbuf_;
  beast::flat_buffer rbuf_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  std::optional<http::response<http::string_body>> res_;
  std::string authorization_;  // the upgrade's Authorization, for every request
  // strand state
  std::deque<Out> outq_;
  size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool upgraded_ = false;
  bool closing_ = false;
  bool close_requested_ = false;
  // read by workers
  std::atomic<bool> closed_{false};
  std::atomic<int> in_flight_{0};
};

namespace {

// The end of one request's answer path: frames to the connection; when the
// path goes (the request is done), its slot is freed after its frames.
class ConnectionFrames : public WsFrameSink {
 public:
  ConnectionFrames(std::shared_ptr<WsConnection> c, bool holds_slot) : c_(std::move(c)), slot_(holds_slot) {}
  ~ConnectionFrames() override {
    if (slot_) c_->post({WsFrame{}, true});
  }
  void write(WsFrame f) override { c_->post({std::move(f), false}); }

 private:
  std::shared_ptr<WsConnection> c_;
  bool slot_;
};

}  // namespace

std::unique_ptr<WsMessageSink> WsConnection::answer(bool holds_slot) {
  return ws_answer_path(svc_.options.faults, std::make_unique<ConnectionFrames>(shared_from_this(), holds_slot));
}

void WsService::accept() {
  acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || stopping || !acceptor.is_open()) return;
    if (!ec) {
      admit(std::move(socket));
      return accept();
    }
    backoff.expires_after(std::chrono::milliseconds(50));
    backoff.async_wait([this](beast::error_code e) {
      if (!e && !stopping) accept();
    });
  });
}

void WsService::admit(tcp::socket socket) {
  std::shared_ptr<WsConnection> c;
  {
    std::lock_guard<std::mutex> lk(mu);
    std::erase_if(connections, [](const std::weak_ptr<WsConnection>& w) { return w.expired(); });
    if (connections.size() >= options.max_connections) {
      beast::error_code ignored;
      socket.close(ignored);
      return;
    }
    c = std::make_shared<WsConnection>(*this, std::move(socket));
    connections.push_back(c);
  }
  c->start();
}

void WsService::shutdown() {
  stopping = true;
  // Blocked sends return and streams end now, so every request can finish.
  if (AgentCore* c = core.load()) c->shutdown();
  net::post(acceptor.get_executor(), [this] {
    beast::error_code ignored;
    acceptor.close(ignored);
    backoff.cancel();
  });
  std::vector<std::shared_ptr<WsConnection>> live;
  {
    std::lock_guard<std::mutex> lk(mu);
    for (auto& w : connections)
      if (auto c = w.lock()) live.push_back(std::move(c));
  }
  for (auto& c : live) c->request_close();
  auto deadline = core::Deadline::after(kStopGrace);
  while (!deadline.expired()) {
    bool open = false;
    for (auto& c : live) open = open || !c->closed();
    if (!open) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  live.clear();
  pool.stop();
  guard.reset();
  ioc.stop();
  for (auto& t : threads)
    if (t.joinable()) t.join();
  threads.clear();
  // Connections that did not finish their close in the grace are cut.
  std::lock_guard<std::mutex> lk(mu);
  for (auto& w : connections)
    if (auto c = w.lock()) c->close_socket();
  connections.clear();
}

core::Expected<std::unique_ptr<WebSocketAgent>> WebSocketAgent::start(WebSocketAgentOptions options) {
  std::unique_ptr<WebSocketAgent> a(new WebSocketAgent());
  a->service_ = std::make_unique<WsService>(std::move(options));
  WsService& svc = *a->service_;
  std::string where = svc.options.bind + ":" + std::to_string(svc.options.port);
  beast::error_code ec;
  auto address = net::ip::make_address(svc.options.bind, ec);
  if (ec) return core::fail(core::ErrorKind::kIo, "websocket: bad listen address '" + svc.options.bind + "'");
  tcp::endpoint ep(address, svc.options.port);
  auto failed = [&](const char* what) {
    svc.pool.stop();
    return core::fail(core::ErrorKind::kIo, "websocket: cannot listen on " + where + " (" + what + ": " + ec.message() + ")");
  };
  if (svc.acceptor.open(ep.protocol(), ec); ec) return failed("open");
  svc.acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (svc.acceptor.bind(ep, ec); ec) return failed("bind");
  if (svc.acceptor.listen(net::socket_base::max_listen_connections, ec); ec) return failed("listen");
  a->port_ = svc.acceptor.local_endpoint(ec).port();
  a->url_ = "ws://" + url_host(svc.options.bind) + ":" + std::to_string(a->port_);
  svc.accept();
  int n = std::max(1, svc.options.io_threads);
  for (int i = 0; i < n; ++i) {
    svc.threads.emplace_back([&svc] {
      for (;;) {
        try {
          svc.ioc.run();
          return;
        } catch (const std::exception& e) {
          svc.log(std::string("I/O thread: ") + e.what());  // a bug of ours: keep serving
        }
      }
    });
  }
  return a;
}

WebSocketAgent::~WebSocketAgent() { stop(); }

uint16_t WebSocketAgent::port() const { return port_; }
std::string WebSocketAgent::url() const { return url_; }

Json WebSocketAgent::interface() const {
  return Json{{"url", url_}, {"protocolBinding", "WEBSOCKET"}, {"protocolVersion", "1.0"}};
}

void WebSocketAgent::attach(AgentCore& core) { service_->core = &core; }

void WebSocketAgent::stop() {
  if (stopped_ || !service_) return;
  stopped_ = true;
  service_->shutdown();
}

}  // namespace a2a::agent
