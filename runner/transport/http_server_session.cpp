#include "runner/transport/http_server_session.hpp"

#include <cstdio>
#include <sstream>

namespace a2a::transport::detail {
namespace {

constexpr size_t kReadChunk = 16u << 10;
// One gathered write takes at most this many queued pieces, or bytes.
constexpr size_t kMaxGather = 64;
constexpr size_t kMaxGatherBytes = 256u << 10;
// A lingering close (after an error reply) discards what the client still
// sends so our reply is not lost to a TCP reset; bounded in time and bytes.
constexpr core::Millis kLinger{1000};
constexpr size_t kLingerBytes = 16u << 20;

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool server_owned(std::string_view name) {
  return iequals(name, "Content-Length") || iequals(name, "Transfer-Encoding") || iequals(name, "Connection");
}

template <class Header>
void add_headers(Header& h, const HeaderList& headers) {
  for (const auto& [name, value] : headers) {
    if (!server_owned(name)) h.insert(name, value);
  }
}

// Written by hand rather than through Beast's serializer and an ostream (a
// third of the time of a small reply); the bytes are the ones Beast wrote:
// the caller's headers in order, Connection when it differs from the
// version's default, Content-Length unless the status has no body.
std::string serialize_reply(const ServerRequest& req, ServerReply& r, bool close) {
  std::string out;
  out.reserve(r.body.size() + 256);
  out += "HTTP/" + std::to_string(req.version / 10) + "." + std::to_string(req.version % 10) + " ";
  out += std::to_string(r.status);
  out += ' ';
  out += http::obsolete_reason(static_cast<http::status>(r.status));
  out += "\r\n";
  for (const auto& [name, value] : r.headers) {
    if (server_owned(name)) continue;
    out.append(name).append(": ").append(value).append("\r\n");
  }
  if (req.version >= 11 && close) out += "Connection: close\r\n";
  if (req.version < 11 && !close) out += "Connection: keep-alive\r\n";
  bool no_body = (r.status >= 100 && r.status < 200) || r.status == 204 || r.status == 304;
  if (!no_body) out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
  out += "\r\n";
  if (!no_body && req.method != "HEAD") out += r.body;  // HEAD: Content-Length stays that of the GET
  return out;
}

// One chunk of a chunked body: hex size, CRLF, the bytes, CRLF.
std::string make_chunk(const std::string& bytes) {
  char size[24];
  int n = std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
  std::string out;
  out.reserve(bytes.size() + static_cast<size_t>(n) + 2);
  out.append(size, static_cast<size_t>(n)).append(bytes).append("\r\n");
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------
// Exchange

Exchange::Exchange(std::weak_ptr<Session> session, ServerRequest request, bool keep_alive)
    : session_(std::move(session)), request_(std::move(request)), keep_alive_(keep_alive) {}

bool Exchange::send(std::unique_lock<std::mutex>& lk, std::string bytes, After after, bool capped) {
  // Called with mu_ held: stop() marks us closed under the same mutex, so no
  // post can race with the io_context's destruction.
  auto s = session_.lock();
  if (!s) return false;
  if (!s->reserve(bytes.size(), capped)) {
    net::post(s->executor(), [s] { s->close_now(); });
    return false;
  }
  if (!bytes.empty() && s->on_own_thread()) {
    // A handler answering at once, or a stream's ready events sent from the
    // I/O thread: queued and written from here, no post and no wake-up.
    // Bytes queued by other threads before are already in out_ (posts run
    // on this thread, which is busy here). Unlocked first: nothing here
    // takes mu_ again (non-empty bytes never complete the exchange before
    // their write does), but the writer must not run under our lock.
    lk.unlock();
    s->enqueue(std::move(bytes), after);
    return true;
  }
  net::post(s->executor(), [s, bytes = std::move(bytes), after]() mutable { s->enqueue(std::move(bytes), after); });
  return true;
}

void Exchange::reply(ServerReply r) {
  std::unique_lock<std::mutex> lk(mu_);
  if (state_ != State::kPending || closed_) return;
  state_ = State::kReplied;
  bool close = r.close || !keep_alive_;
  std::string bytes = serialize_reply(request_, r, close);
  send(lk, std::move(bytes), close ? After::kDoneClose : After::kDone, false);
}

bool Exchange::start_stream(int status, HeaderList headers) {
  std::unique_lock<std::mutex> lk(mu_);
  if (state_ != State::kPending || closed_) return false;
  state_ = State::kStreaming;
  http::response<http::empty_body> res;
  res.version(request_.version);
  res.result(static_cast<unsigned>(status));
  add_headers(res, headers);
  // HTTP/1.0 has no chunked encoding: the body ends when the connection does.
  chunked_ = request_.version >= 11;
  if (chunked_) res.chunked(true);
  keep_alive_ = keep_alive_ && chunked_;
  res.keep_alive(keep_alive_);
  std::ostringstream os;
  os << res.base();
  return send(lk, os.str(), After::kNone, false);
}

bool Exchange::write(std::string bytes) {
  std::unique_lock<std::mutex> lk(mu_);
  if (state_ != State::kStreaming || closed_) return false;
  if (bytes.empty()) return true;  // an empty chunk would end the body
  if (chunked_) bytes = make_chunk(bytes);
  return send(lk, std::move(bytes), After::kNone, true);
}

void Exchange::end() {
  std::unique_lock<std::mutex> lk(mu_);
  if (state_ != State::kStreaming || closed_) return;
  state_ = State::kEnded;
  std::string last = chunked_ ? beast::buffers_to_string(http::make_chunk_last()) : std::string();
  send(lk, std::move(last), keep_alive_ ? After::kDone : After::kDoneClose, false);
}

void Exchange::abort() {
  std::unique_lock<std::mutex> lk(mu_);
  if (state_ == State::kEnded || closed_) return;
  state_ = State::kEnded;
  send(lk, std::string(), After::kClose, false);
}

void Exchange::on_close(std::function<void()> fn) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (completed_) return;
    if (!closed_) {
      on_close_ = std::move(fn);
      return;
    }
  }
  fn();
}

void Exchange::mark_closed() {
  std::function<void()> fn;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (closed_) return;
    closed_ = true;
    if (!completed_) fn = std::move(on_close_);
    on_close_ = nullptr;
  }
  if (fn) fn();
}

void Exchange::mark_completed() {
  std::lock_guard<std::mutex> lk(mu_);
  completed_ = true;
  on_close_ = nullptr;
}

// ---------------------------------------------------------------------------
// Session: reading

Session::Session(tcp::socket socket, std::shared_ptr<ServerShared> shared)
    : socket_(std::move(socket)), timer_(socket_.get_executor()), shared_(std::move(shared)) {
  if (auto* e = socket_.get_executor().target<net::io_context::executor_type>()) own_ = *e;
  beast::error_code ec;
  auto ep = socket_.remote_endpoint(ec);
  if (!ec) remote_ = ep.address().to_string() + ":" + std::to_string(ep.port());
  // A stream is written in pieces as events come: Nagle's algorithm would
  // hold each small piece until the client's delayed ACK (40 ms).
  socket_.set_option(tcp::no_delay(true), ec);
  ++shared_->connections;
}

Session::~Session() {
  if (exchange_) exchange_->mark_closed();
  if (--shared_->connections > 0 || shared_->stopping) return;
  {
    // An expired weak_ptr keeps its Session's memory (make_shared): after a
    // burst of thousands of connections that would stay until new ones come.
    std::lock_guard<std::mutex> lk(shared_->mu);
    std::erase_if(shared_->sessions, [](const std::weak_ptr<Session>& w) { return w.expired(); });
  }
  if (shared_->options.on_idle) shared_->options.on_idle();
}

void Session::start() {
  net::post(executor(), [self = shared_from_this()] { self->next_request(); });
}

void Session::next_request() {
  if (closed_) return;
  busy_ = false;
  // A pending read (started as a close watch while the last request was
  // handled) only runs while the buffer is empty; its completion goes on.
  if (reading_) {
    arm_timer(shared_->options.idle_timeout);
    return;
  }
  if (buffer_.size() > 0) {
    parse();
    return;
  }
  arm_timer(shared_->options.idle_timeout);
  read_some();
}

void Session::read_some() {
  reading_ = true;
  socket_.async_read_some(buffer_.prepare(kReadChunk), [self = shared_from_this()](beast::error_code ec, size_t n) {
    self->on_read_some(ec, n);
  });
}

void Session::on_read_some(beast::error_code ec, size_t n) {
  reading_ = false;
  if (closed_) return;
  if (ec) {
    close_now();  // EOF or reset: the client is gone
    return;
  }
  buffer_.commit(n);
  if (lingering_) {
    discarded_ += buffer_.size();
    buffer_.consume(buffer_.size());
    if (discarded_ > kLingerBytes) {
      close_now();
    } else {
      read_some();
    }
    return;
  }
  // While a request is handled the read only watches for the client leaving;
  // pipelined bytes wait in the buffer for the next parse.
  if (busy_) return;
  if (parser_) {
    feed();  // more of the request being read
  } else {
    parse();
  }
}

void Session::parse() {
  arm_timer(shared_->options.request_timeout);
  parser_.emplace();
  parser_->header_limit(static_cast<uint32_t>(std::min<size_t>(shared_->options.max_header, UINT32_MAX)));
  parser_->body_limit(static_cast<uint64_t>(shared_->options.max_body));
  parser_->eager(false);  // stop after the header: Expect: 100-continue is answered before the body
  feed();
}

// Gives the parser what the buffer holds and reads more only when it needs
// more: a request already whole in the buffer is parsed here, with no
// composed read operation and no posted completion (Beast's async_read_header
// and async_read posted one each). The parser enforces the header and body
// limits (431, 413) as Beast's reads did. Bounded: each pass consumes
// buffered bytes or turns the parser to the body (once), else it returns.
void Session::feed() {
  for (;;) {
    if (buffer_.size() == 0) {
      read_some();
      return;
    }
    beast::error_code ec;
    size_t used = parser_->put(buffer_.data(), ec);
    buffer_.consume(used);
    if (ec == http::error::need_more) {
      read_some();
      return;
    }
    if (ec) return on_parsed(ec);
    if (parser_->is_done()) return on_parsed(ec);
    if (parser_->is_header_done() && !parser_->eager()) {
      parser_->eager(true);  // from now on put() takes body bytes as well
      const auto& req = parser_->get();
      auto expect = req.find(http::field::expect);
      if (expect != req.end() && iequals(expect->value(), "100-continue")) {
        continue_bytes_ = "HTTP/1.1 100 Continue\r\n\r\n";
        net::async_write(socket_, net::buffer(continue_bytes_),
                         [self = shared_from_this()](beast::error_code wec, size_t) {
                           if (wec) {
                             self->close_now();
                             return;
                           }
                           if (!self->closed_) self->feed();
                         });
        return;
      }
      continue;
    }
    if (used == 0) break;  // no progress: wait for more bytes
  }
  read_some();
}

void Session::on_parsed(beast::error_code ec) {
  if (closed_) return;
  if (ec == http::error::header_limit) return protocol_error(431, "request header fields too large");
  if (ec == http::error::body_limit) return protocol_error(413, "request body too large");
  if (ec == http::error::end_of_stream || ec == http::error::partial_message || ec == net::error::eof ||
      ec == net::error::connection_reset || ec == net::error::operation_aborted) {
    close_now();
    return;
  }
  if (ec) return protocol_error(400, "bad request: " + ec.message());
  disarm_timer();
  dispatch();
}

void Session::dispatch() {
  auto& msg = parser_->get();
  ServerRequest req;
  req.method = std::string(msg.method_string());
  req.target = std::string(msg.target());
  req.version = static_cast<int>(msg.version());
  for (const auto& f : msg) req.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
  req.body = std::move(msg.body());
  req.remote = remote_;
  bool keep_alive = msg.keep_alive() && !shared_->stopping;
  parser_.reset();
  exchange_ = std::make_shared<Exchange>(weak_from_this(), std::move(req), keep_alive);
  busy_ = true;
  if (buffer_.size() == 0) read_some();  // notices a client that goes away mid-request
  auto ex = exchange_;
  try {
    shared_->handler(ex);
  } catch (const std::exception& e) {
    ex->reply(ServerReply{500, {{"Content-Type", "text/plain"}}, std::string("handler failed: ") + e.what(), true});
  }
}

void Session::protocol_error(int status, std::string_view why) {
  busy_ = true;
  disarm_timer();
  ServerReply r;
  if (shared_->options.protocol_error) {
    r = shared_->options.protocol_error(status, why);
  } else {
    r.status = status;
    r.headers = {{"Content-Type", "text/plain; charset=utf-8"}};
    r.body = std::to_string(status) + " " + std::string(why) + "\n";
  }
  ServerRequest req;  // the request could not be read: answer as HTTP/1.1
  std::string bytes = serialize_reply(req, r, true);
  queued_ += bytes.size();
  enqueue(std::move(bytes), After::kDoneClose);
}

// ---------------------------------------------------------------------------
// Session: writing and closing

bool Session::reserve(size_t n, bool capped) {
  size_t now = queued_.fetch_add(n) + n;
  return !capped || now <= shared_->options.max_queued_bytes;
}

void Session::enqueue(std::string bytes, After after) {
  if (closed_) return;
  out_.push_back(Out{std::move(bytes), after});
  if (!writing_) write_next();
}

void Session::write_next() {
  while (!out_.empty() && out_.front().bytes.empty()) {
    After after = out_.front().after;
    out_.pop_front();
    if (after != After::kNone) {
      finish_exchange(after);
      return;
    }
  }
  if (out_.empty() || closed_) return;
  // Everything queued up to the end of the exchange goes in one gathered
  // write: a stream's events queued while the last write was on the wire
  // cost one send, not one each.
  gather_.clear();
  gathered_ = 0;
  size_t bytes = 0;
  for (const Out& o : out_) {
    gather_.push_back(net::buffer(o.bytes));
    ++gathered_;
    bytes += o.bytes.size();
    if (o.after != After::kNone || gathered_ >= kMaxGather || bytes >= kMaxGatherBytes) break;
  }
  writing_ = true;
  net::async_write(socket_, gather_,
                   [self = shared_from_this()](beast::error_code ec, size_t n) { self->on_written(ec, n); });
}

void Session::on_written(beast::error_code ec, size_t n) {
  writing_ = false;
  if (closed_) return;
  if (ec) {
    close_now();  // the client went away (or reset us)
    return;
  }
  After after = After::kNone;
  for (size_t i = 0; i < gathered_; ++i) {
    queued_ -= out_.front().bytes.size();
    after = out_.front().after;
    out_.pop_front();
  }
  gathered_ = 0;
  if (after != After::kNone) {
    finish_exchange(after);
    return;
  }
  write_next();
}

void Session::finish_exchange(After after) {
  if (after == After::kClose) {
    close_now();
    return;
  }
  if (exchange_) exchange_->mark_completed();
  exchange_.reset();
  if (after == After::kDoneClose || shared_->stopping) {
    linger_close();
  } else {
    next_request();
  }
}

void Session::linger_close() {
  lingering_ = true;
  beast::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_send, ec);
  buffer_.consume(buffer_.size());
  arm_timer(kLinger);
  if (!reading_) read_some();
}

void Session::close_now() {
  if (closed_) return;
  closed_ = true;
  disarm_timer();
  timer_.cancel();  // the pending wait holds this session
  beast::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  out_.clear();
  if (exchange_) exchange_->mark_closed();
}

void Session::arm_timer(core::Millis d) {
  deadline_ = net::steady_timer::clock_type::now() + d;
  timer_on_ = true;
  if (timer_waiting_ && timer_.expiry() <= deadline_) return;  // fires first, then waits again
  wait_timer();
}

// (Re)starts the wait for deadline_; a wait still pending is cancelled and
// its handler, of an older generation, does nothing.
void Session::wait_timer() {
  uint64_t gen = ++timer_gen_;
  timer_waiting_ = true;
  timer_.expires_at(deadline_);
  timer_.async_wait([self = shared_from_this(), gen](beast::error_code ec) { self->on_timer(ec, gen); });
}

void Session::on_timer(beast::error_code ec, uint64_t gen) {
  if (gen != timer_gen_) return;
  timer_waiting_ = false;
  if (ec || closed_ || !timer_on_) return;
  if (net::steady_timer::clock_type::now() >= deadline_) {
    close_now();
  } else {
    wait_timer();  // the deadline moved on since this wait began
  }
}

// Leaves a pending wait in place (it finds the timer off when it fires):
// the next arm_timer() usually needs no new wait.
void Session::disarm_timer() { timer_on_ = false; }

}  // namespace a2a::transport::detail
