#include "peers/a2a-ref-agent/websocket/websocket_server.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include <boost/asio.hpp>

#include "peers/a2a-ref-agent/http_binding.hpp"
#include "peers/a2a-ref-agent/websocket/websocket_faults.hpp"
#include "peers/a2a-ref-agent/worker_pool.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/result/utf8.hpp"
#include "runner/transport/ws_codec.hpp"

namespace a2a::agent {
namespace {

namespace net = boost::asio;
namespace ws = transport::ws;
using ws::has_token;
using ws::iequals;
using ws::trim;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

constexpr core::Millis kPollSlice{250};  // how often a stream's worker looks at the connection
constexpr core::Millis kStopGrace{1000};
constexpr size_t kMaxUpgradeHeader = 16u << 10;
constexpr size_t kReadChunk = 16u << 10;
constexpr int kServerError = -32000;
constexpr size_t kGatherFrames = 64;  // queued frames sent in one write at most

std::string url_host(const std::string& bind) {
  if (bind == "0.0.0.0" || bind.empty()) return "127.0.0.1";
  if (bind == "::") return "[::1]";
  if (bind.find(':') != std::string::npos) return "[" + bind + "]";
  return bind;
}

// "1", "1.0", "1.3": major version 1.
bool served_version(std::string_view v) { return v.substr(0, v.find('.')) == "1"; }

// The upgrade request's request line and headers (RFC 9112 §3, §5), read by
// hand: the server needs only these, and no body is allowed on an upgrade.
struct UpgradeRequest {
  std::string method, target;
  int minor = 1;  // HTTP/1.minor
  std::vector<std::pair<std::string, std::string>> headers;

  std::string_view get(std::string_view name) const {
    for (const auto& [n, v] : headers)
      if (iequals(n, name)) return v;
    return {};
  }

  // `head` is everything before the blank line. False: not HTTP/1.x.
  bool parse(std::string_view head) {
    size_t eol = head.find("\r\n");
    std::string_view line = head.substr(0, eol);
    size_t sp1 = line.find(' ');
    size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp1 == 0 || sp2 == std::string_view::npos || sp2 == sp1 + 1) return false;
    std::string_view version = line.substr(sp2 + 1);
    if (version.size() != 8 || version.substr(0, 7) != "HTTP/1." || !std::isdigit(static_cast<unsigned char>(version[7])))
      return false;
    method.assign(line.substr(0, sp1));
    target.assign(line.substr(sp1 + 1, sp2 - sp1 - 1));
    minor = version[7] - '0';
    while (eol != std::string_view::npos) {
      head.remove_prefix(eol + 2);
      eol = head.find("\r\n");
      std::string_view h = head.substr(0, eol);
      size_t colon = h.find(':');
      if (colon == std::string_view::npos || colon == 0 || h.front() == ' ' || h.front() == '\t') return false;
      headers.emplace_back(std::string(h.substr(0, colon)), std::string(trim(h.substr(colon + 1))));
    }
    return true;
  }
};

std::string_view reason_phrase(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 426: return "Upgrade Required";
    default: return "Error";
  }
}

Json error_object(int code, std::string message) { return CallError{code, std::move(message), nullptr}.to_json(); }

}  // namespace

class WsConnection;

// One io_context per I/O thread, each run by that thread alone, and every
// connection on one of them for its whole life (docs/websocket.md,
// "Threads"): a connection's reads, answers and writes never change thread,
// so a request costs no wake-up of another thread and no strand.
class WsService {
 public:
  // `contexts` is initialised first (it is declared first), from `o` before
  // `options` takes it over.
  explicit WsService(WebSocketAgentOptions o)
      : contexts(make_contexts(o.io_threads)),
        options(std::move(o)),
        policy(ws_policy(options.faults)),
        acceptor(contexts.front()->get_executor()),
        backoff(acceptor.get_executor()),
        pool(options.workers, options.max_workers, options.max_queue) {
    for (auto& c : contexts) guards.push_back(net::make_work_guard(*c));
  }

  static std::vector<std::unique_ptr<net::io_context>> make_contexts(int n) {
    std::vector<std::unique_ptr<net::io_context>> out;
    // Concurrency hint 1: one thread runs each (other threads still post to it).
    for (int i = 0; i < std::max(1, n); ++i) out.push_back(std::make_unique<net::io_context>(1));
    return out;
  }

  // Round robin over the I/O threads; only the acceptor's thread calls it.
  net::io_context& next_context() { return *contexts[next_context_++ % contexts.size()]; }

  void log(const std::string& what) const {
    if (options.log_fd < 0) return;
    std::string line = "a2a-ref-agent: websocket: " + what + "\n";
    [[maybe_unused]] ssize_t n = ::write(options.log_fd, line.data(), line.size());
  }

  void accept();
  void admit(tcp::socket socket);
  void shutdown();

  // The io_contexts first: destroyed last, after everything that uses them.
  std::vector<std::unique_ptr<net::io_context>> contexts;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> guards;
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

 private:
  size_t next_context_ = 0;
};

// One WebSocket connection. Everything touching the socket runs on the
// connection's I/O thread (its "strand": the one thread that runs its
// io_context); workers hand frames over by posting. One write is
// in flight at a time (frames go out in the order they were posted). The
// frames are RFC 6455's, through our codec (runner/transport/ws_codec.hpp).
class WsConnection : public std::enable_shared_from_this<WsConnection> {
 public:
  // One frame for the writer, or the mark that a request's answer is all
  // queued (its slot is free once the frames before it are written).
  struct Out {
    WsFrame frame;
    bool release = false;
  };

  WsConnection(WsService& svc, tcp::socket socket)
      : svc_(svc),
        socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        parser_(ws::ParserOptions{true, svc.policy.max_message}) {}

  void start() {
    net::dispatch(socket_.get_executor(), [self = shared_from_this()] {
      self->arm_timer();  // the whole upgrade request within the handshake timeout
      self->read_upgrade();
    });
  }

  // From any thread: closes the connection (a close handshake when upgraded).
  void request_close() {
    net::post(socket_.get_executor(), [self = shared_from_this()] { self->close_now(); });
  }

  // From any thread. On the connection's strand (an answer made on the I/O
  // thread) the frame is queued at once, no handler to allocate and run,
  // unless frames posted from other threads are still on their way: it
  // then queues behind them, or a stream's completion made on the strand
  // would overtake its last events made on a worker.
  void post(Out o) {
    if (on_strand() && posts_pending_.load(std::memory_order_acquire) == 0) return push(std::move(o));
    posts_pending_.fetch_add(1, std::memory_order_acq_rel);
    net::post(socket_.get_executor(), [self = shared_from_this(), o = std::move(o)]() mutable {
      self->push(std::move(o));
      self->posts_pending_.fetch_sub(1, std::memory_order_acq_rel);
    });
  }

  bool closed() const { return closed_; }

  // True on this connection's I/O thread (accept() puts every socket on an
  // io_context that one thread runs, so that thread is its strand).
  bool on_strand() {
    const auto* ex = socket_.get_executor().target<net::io_context::executor_type>();
    return ex && ex->running_in_this_thread();
  }

  // Only once no I/O thread runs (the end of stop()): the socket closes now.
  void close_socket() {
    error_code ignored;
    socket_.close(ignored);
    closed_ = true;
  }

 private:
  // One encoded frame in the write queue.
  struct Queued {
    std::string wire;
    size_t counted = 0;    // payload bytes counted in queued_bytes_
    bool release = false;  // frees a request's slot (no bytes)
    bool last = false;     // a close frame: nothing after it
  };

  // ---- the upgrade (RFC 6455 §4.2) ----
  void read_upgrade() {
    socket_.async_read_some(net::buffer(chunk_), [self = shared_from_this()](error_code ec, size_t n) {
      self->on_upgrade_bytes(ec, n);
    });
  }

  void on_upgrade_bytes(error_code ec, size_t n) {
    if (ec || closed_) return finish();  // too slow, or gone: nothing to answer
    head_.append(chunk_.data(), n);
    size_t end = head_.find("\r\n\r\n");
    if (end == std::string::npos) {
      if (head_.size() > kMaxUpgradeHeader) return finish();  // not an upgrade request we serve
      return read_upgrade();
    }
    if (end > kMaxUpgradeHeader) return finish();
    UpgradeRequest req;
    if (!req.parse(std::string_view(head_).substr(0, end))) return finish();  // not HTTP: nothing to answer
    std::string rest = head_.substr(end + 4);
    head_.clear();
    head_.shrink_to_fit();
    on_upgrade(req, std::move(rest));
  }

  void on_upgrade(const UpgradeRequest& req, std::string rest) {
    if (req.method != "GET" || req.minor < 1 || !has_token(req.get("Connection"), "upgrade") ||
        !has_token(req.get("Upgrade"), "websocket")) {
      return refuse(426, "FAILED_PRECONDITION",
                    "this endpoint serves the A2A WebSocket binding only: send a WebSocket upgrade "
                    "(Connection: Upgrade, Upgrade: websocket) with A2A-Version: 1.0");
    }
    if (svc_.policy.check_version) {
      std::string_view v = trim(req.get("A2A-Version"));
      if (v.empty()) {
        return refuse(400, "FAILED_PRECONDITION",
                      "A2A version '0.3' is not supported by this server; expected '1.0' (a missing or empty "
                      "A2A-Version header means 0.3: send A2A-Version: 1.0)",
                      "", "VERSION_NOT_SUPPORTED");
      }
      if (!served_version(v)) {
        return refuse(400, "FAILED_PRECONDITION",
                      "unsupported A2A version: '" + std::string(v) + "'; this server supports 1.x (A2A-Version: 1.0)",
                      "", "VERSION_NOT_SUPPORTED");
      }
    }
    // §4.2.1: the key is 16 bytes in base64, the version 13.
    std::string key(trim(req.get("Sec-WebSocket-Key")));
    std::string decoded;
    if (!result::base64_decode(key, decoded) || decoded.size() != 16) {
      return refuse(400, "INVALID_ARGUMENT",
                    "Sec-WebSocket-Key must be 16 bytes in base64 (RFC 6455 §4.2.1), got '" +
                        core::escape_bytes(key, 60) + "'");
    }
    if (trim(req.get("Sec-WebSocket-Version")) != "13") {
      return refuse(426, "INVALID_ARGUMENT",
                    "Sec-WebSocket-Version must be 13 (RFC 6455 §4.2.1), got '" +
                        core::escape_bytes(trim(req.get("Sec-WebSocket-Version")), 60) + "'",
                    "Sec-WebSocket-Version: 13\r\n");
    }
    authorization_.assign(req.get("Authorization"));
    Queued q;
    q.wire = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " +
             ws::accept_key(key) + "\r\n\r\n";
    outq_.push_back(std::move(q));
    writing_ = true;
    net::async_write(socket_, net::buffer(outq_.front().wire),
                     [self = shared_from_this(), rest = std::move(rest)](error_code ec, size_t) mutable {
                       self->on_accepted(ec, std::move(rest));
                     });
  }

  // An upgrade refused with an HTTP status and a JSON body
  // {"error":{"code":<http status>,"status":<grpc status name>,"message":...}},
  // with `reason`: "details": [a google.rpc.ErrorInfo of that reason] as on
  // REST (AIP-193; a2a-rust's test ws_version_rejection_body_carries_error_details
  // asserts the details of a version refusal, docs/websocket.md "Interop").
  void refuse(int status, std::string_view grpc_status, const std::string& message, const std::string& extra = "",
              std::string_view reason = {}) {
    Json error = {{"code", status}, {"status", grpc_status}, {"message", message}};
    if (!reason.empty())
      error["details"] = Json::array({{{"@type", "type.googleapis.com/google.rpc.ErrorInfo"},
                                       {"reason", reason},
                                       {"domain", "a2a-protocol.org"}}});
    std::string body = jsonrpc::dump(Json{{"error", error}});
    Queued q;
    q.wire = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason_phrase(status)) +
             "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
             "\r\nConnection: close\r\n" + extra + "\r\n" + body;
    outq_.push_back(std::move(q));
    writing_ = true;
    net::async_write(socket_, net::buffer(outq_.front().wire), [self = shared_from_this()](error_code, size_t) {
      self->writing_ = false;
      self->outq_.clear();
      error_code ignored;
      self->socket_.shutdown(tcp::socket::shutdown_send, ignored);
      self->finish();
    });
  }

  void on_accepted(error_code ec, std::string rest) {
    writing_ = false;
    outq_.clear();
    if (ec || closed_) return finish();
    upgraded_ = true;
    timer_.cancel();
    if (svc_.stopping || close_requested_) return close_now();
    if (!rest.empty() && !on_bytes(rest)) return;
    read();
  }

  // ---- reading ----
  void read() {
    socket_.async_read_some(net::buffer(chunk_),
                            [self = shared_from_this()](error_code ec, size_t n) { self->on_read(ec, n); });
  }

  void on_read(error_code ec, size_t n) {
    // EOF or a lost peer: the connection is over.
    if (ec || closed_) return finish();
    if (on_bytes(std::string_view(chunk_.data(), n))) read();
  }

  // Frames off the wire; false once nothing more is read.
  bool on_bytes(std::string_view bytes) {
    got_.clear();  // reused: one read's messages, no vector allocated per read
    auto r = parser_.feed(bytes, got_);
    for (auto& m : got_) {
      if (!on_message(m)) return false;
    }
    if (r) return true;
    // A protocol error (1002), text that is not UTF-8 (1007), a message
    // above the limit (1009): a close frame with the code, then the end.
    if (parser_.close_code() == ws::kCloseTooBig) svc_.log("a message above the size limit: connection closed (1009)");
    send_close(ws::close_payload(parser_.close_code()), false);
    return false;
  }

  bool on_message(ws::Message& m) {
    switch (m.op) {
      case ws::Opcode::kText:
        if (!closing_) on_text(m.payload);
        return !closed_;
      case ws::Opcode::kBinary:
        if (!closing_ && svc_.policy.answer_binary) {
          answer(false)->send({WsKind::kError, nullptr,
                               error_object(jsonrpc::kParseError,
                                            "binary frames are not supported; send JSON-RPC as text frames")});
        }
        return !closed_;
      case ws::Opcode::kPing: {  // §5.5.3: a pong with the ping's payload
        if (closing_ || !svc_.policy.answer_control) return true;
        // Counted with the answers: pings from a client that does not read are bounded too.
        size_t n = m.payload.size() + 2;
        queued_bytes_ += n;
        enqueue({ws::encode_frame(ws::Opcode::kPong, m.payload), n, false, false});
        if (queued_bytes_ > svc_.options.max_queued_bytes) {
          svc_.log("a client that does not read: connection closed");
          abort();
        }
        return !closed_;
      }
      case ws::Opcode::kPong:
        return true;
      case ws::Opcode::kClose: {
        if (closing_) {  // the answer to our close: the handshake is done
          finish();
          return false;
        }
        if (!svc_.policy.answer_control) {  // the fault: the TCP connection ends, no close frame
          finish();
          return false;
        }
        // §5.5.1: answered with the code it carried, then the server ends the TCP connection.
        auto c = ws::parse_close_payload(m.payload);
        int code = c && c->code != ws::kCloseNoStatus ? c->code : 0;
        send_close(code ? ws::close_payload(code) : std::string(), false);
        return false;
      }
      case ws::Opcode::kContinuation:
        break;
    }
    return true;
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

  // The result as text (AgentCore::call_text): the bytes call() would give,
  // without a tree for a send's task.
  static void answer_call(AgentCore& core, WsMessageSink& out, const Json& id, model::Operation op, const Json& params) {
    AgentCore::CallText r = core.call_text(op, params);
    if (r.error) return out.send({WsKind::kError, id, r.error->to_json()});
    out.send(WsMessage::serialized(WsKind::kResult, id, std::move(r.text)));
  }

  // On a worker: the stream's events, then its completion (or its error).
  void pump(AgentCore& core, WsMessageSink& out, const Json& id, model::Operation op, const Json& params) {
    StreamOpen opened = core.open_stream(op, params);
    if (!opened.stream) {
      return out.send({WsKind::kStreamError, id, opened.error.value_or(internal_error("stream refused")).to_json()});
    }
    EventStream& stream = *opened.stream;
    core::Deadline until = core::Deadline::after(svc_.options.max_stream);
    // Events as text (EventStream::next_text): logged events are sent as
    // they are kept, not parsed into a tree and dumped again. The callback
    // may run with the store locked, so it only copies.
    std::string text;
    const std::function<void(std::string_view)> take = [&text](std::string_view t) { text.assign(t); };
    while (!closed_) {  // a closed connection has nobody to tell
      if (until.expired()) {
        out.send({WsKind::kStreamError, id,
                  error_object(kServerError, "the stream was open for the agent's longest stream time; subscribe again")});
        break;
      }
      StreamItem item = stream.next_text(core::Deadline::after(kPollSlice).min(until), take);
      if (item.kind == StreamItem::Kind::kTimeout) continue;
      if (item.kind == StreamItem::Kind::kEvent) {
        out.send(WsMessage::serialized(WsKind::kEvent, id, std::move(text)));
        text.clear();  // moved from: valid, made empty for the next event
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
    if (o.release) {
      enqueue({std::string(), 0, true, false});
      return;
    }
    size_t n = o.frame.text.size();
    queued_bytes_ += n;
    enqueue({ws::encode_frame(o.frame.binary ? ws::Opcode::kBinary : ws::Opcode::kText, o.frame.text), n, false, false});
    if (queued_bytes_ > svc_.options.max_queued_bytes) {
      svc_.log("a client that does not read: connection closed");
      return abort();
    }
  }

  void enqueue(Queued q) {
    outq_.push_back(std::move(q));
    if (!writing_) write_next();
  }

  void write_next() {
    while (!outq_.empty() && outq_.front().release) {
      outq_.pop_front();
      --in_flight_;
    }
    if (closed_) return;
    if (outq_.empty()) {
      if (close_requested_ && !closing_) start_close();
      return;
    }
    // What is queued goes out in one write: pipelined answers cost one send
    // per burst, not one per answer. A close frame ends a batch.
    bufs_.clear();
    batch_ = 0;
    for (const Queued& q : outq_) {
      if (batch_ == kGatherFrames) break;
      ++batch_;
      if (!q.release) bufs_.push_back(net::buffer(q.wire));
      if (q.last) break;
    }
    writing_ = true;
    net::async_write(socket_, bufs_, [self = shared_from_this()](error_code ec, size_t) { self->on_write(ec); });
  }

  void on_write(error_code ec) {
    writing_ = false;
    bool last = false;
    for (size_t i = 0; i < batch_ && !outq_.empty(); ++i) {
      const Queued& q = outq_.front();
      queued_bytes_ -= q.counted;
      if (q.release) --in_flight_;
      last = last || q.last;
      outq_.pop_front();
    }
    batch_ = 0;
    if (ec || closed_) return finish();
    // Our close frame is out: when it answered the peer's (or ended a
    // protocol error), the TCP connection ends now (§7.1.1: the server
    // closes first); when it started the handshake, the reader waits for
    // the answer, bounded by the timer.
    if (last && !await_close_) return finish();
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

  void start_close() { send_close(ws::close_payload(ws::kCloseGoingAway), true); }

  // Queued frames are dropped and the close frame goes next; `await`: the
  // peer's answer is read (until the timer) before the connection ends.
  void send_close(std::string payload, bool await) {
    if (closed_ || closing_) return;
    closing_ = true;
    await_close_ = await;
    drop_queue();
    arm_timer();
    enqueue({ws::encode_frame(ws::Opcode::kClose, payload), 0, false, true});
  }

  void arm_timer() {
    timer_.expires_after(svc_.options.handshake_timeout);
    timer_.async_wait([self = shared_from_this()](error_code ec) {
      // The upgrade or the closing handshake took too long (a cancelled
      // timer whose handler was already queued finds neither going on).
      if (!ec && (!self->upgraded_ || self->closing_)) self->abort();
    });
  }

  void abort() { finish(); }

  // The connection is over: nothing more is written, queued frames are
  // dropped, the socket closes (pending operations end with operation_aborted).
  void finish() {
    if (closed_ && !socket_.is_open()) return;
    closed_ = true;
    drop_queue();
    timer_.cancel();
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

  // Drops every queued frame but those being written (their buffers are in use).
  void drop_queue() {
    size_t keep = writing_ ? std::max<size_t>(batch_, 1) : 0;
    while (outq_.size() > keep) {
      if (outq_.back().release) --in_flight_;
      queued_bytes_ -= outq_.back().counted;
      outq_.pop_back();
    }
  }

  WsService& svc_;
  tcp::socket socket_;
  net::steady_timer timer_;  // the upgrade, then the closing handshake
  ws::FrameParser parser_;
  std::array<char, kReadChunk> chunk_{};
  std::vector<ws::Message> got_;  // the messages of the last read (on_bytes)
  std::string head_;           // the upgrade request, until its blank line
  std::string authorization_;  // the upgrade's Authorization, for every request
  // strand state
  std::deque<Queued> outq_;
  std::vector<net::const_buffer> bufs_;  // the write in flight: the first batch_ entries of outq_
  size_t batch_ = 0;
  size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool upgraded_ = false;
  bool closing_ = false;
  bool await_close_ = false;
  bool close_requested_ = false;
  // read by workers
  std::atomic<bool> closed_{false};
  std::atomic<int> in_flight_{0};
  std::atomic<int> posts_pending_{0};  // frames posted to the strand, not yet queued (post())
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
  acceptor.async_accept(next_context().get_executor(), [this](error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || stopping || !acceptor.is_open()) return;
    if (!ec) {
      admit(std::move(socket));
      return accept();
    }
    backoff.expires_after(std::chrono::milliseconds(50));
    backoff.async_wait([this](error_code e) {
      if (!e && !stopping) accept();
    });
  });
}

void WsService::admit(tcp::socket socket) {
  // A stream's frames are small writes in a row: without TCP_NODELAY each
  // after the first waits for the client's delayed ACK (40 ms), as the HTTP
  // server's do (runner/transport/http_server_session.cpp).
  error_code nodelay_ec;
  socket.set_option(tcp::no_delay(true), nodelay_ec);
  std::shared_ptr<WsConnection> c;
  {
    std::lock_guard<std::mutex> lk(mu);
    std::erase_if(connections, [](const std::weak_ptr<WsConnection>& w) { return w.expired(); });
    if (connections.size() >= options.max_connections) {
      error_code ignored;
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
    error_code ignored;
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
  guards.clear();
  for (auto& c : contexts) c->stop();
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
  error_code ec;
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
  for (auto& context : svc.contexts) {
    svc.threads.emplace_back([&svc, &ioc = *context] {
      for (;;) {
        try {
          ioc.run();
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
