// Private to http_server.cpp: one connection (Session) and one request on it
// (Exchange). A Session's members are touched only on its strand; an
// Exchange is the thread-safe face a handler holds and posts to the strand.
//
// Lifetimes: the io_context's pending handlers and the current request own
// a Session; an Exchange holds it weakly, so a handler that keeps an Exchange
// past the connection's end keeps nothing alive. HttpServer::stop() marks the
// current Exchange of every Session closed under the Exchange's mutex before
// the io_context goes away, so no thread posts to a dead io_context.
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "runner/transport/http_server.hpp"

namespace a2a::transport::detail {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;

class Session;

// What the server shares with its sessions (they may outlive the server object briefly).
struct ServerShared {
  HttpServerOptions options;
  HttpHandler handler;
  std::atomic<size_t> connections{0};
  std::atomic<bool> stopping{false};
  std::mutex mu;
  std::vector<std::weak_ptr<Session>> sessions;  // for stop(); pruned as it grows
};

// What the writer does once a queued piece of bytes is on the wire.
enum class After {
  kNone,
  kDone,       // the exchange is complete; read the next request
  kDoneClose,  // the exchange is complete; close the connection gracefully
  kClose,      // close now (abort, queue cap)
};

class Exchange : public HttpExchange {
 public:
  Exchange(std::weak_ptr<Session> session, ServerRequest request, bool keep_alive);

  const ServerRequest& request() const override { return request_; }
  void reply(ServerReply reply) override;
  bool start_stream(int status, HeaderList headers) override;
  bool write(std::string bytes) override;
  void end() override;
  void abort() override;
  bool closed() const override { return closed_.load(); }
  void on_close(std::function<void()> fn) override;

  // The connection closed: fires on_close unless the exchange completed.
  void mark_closed();
  // Every byte of the reply or stream was written.
  void mark_completed();

 private:
  enum class State { kPending, kReplied, kStreaming, kEnded };
  // Hands `bytes` to the session's writer: at once on the connection's own
  // thread (`lk`, holding mu_, is released first), else posted to it. false
  // when the session is gone or over its cap.
  bool send(std::unique_lock<std::mutex>& lk, std::string bytes, After after, bool capped);

  mutable std::mutex mu_;
  State state_ = State::kPending;
  bool completed_ = false;
  bool chunked_ = true;
  std::atomic<bool> closed_{false};
  std::function<void()> on_close_;
  std::weak_ptr<Session> session_;
  ServerRequest request_;
  bool keep_alive_;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, std::shared_ptr<ServerShared> shared);
  ~Session();

  void start();  // any thread
  net::any_io_executor executor() { return socket_.get_executor(); }
  // True on the thread that runs this connection's io_context.
  bool on_own_thread() const { return own_ && own_->running_in_this_thread(); }
  // Any thread: accounts bytes about to be queued; false past max_queued_bytes.
  bool reserve(size_t n, bool capped);

  // Strand only (or once the I/O threads are joined, in HttpServer::stop).
  void enqueue(std::string bytes, After after);
  void close_now();

 private:
  void next_request();
  void read_some();
  void on_read_some(beast::error_code ec, size_t n);
  void parse();
  void feed();
  void on_parsed(beast::error_code ec);
  void dispatch();
  void protocol_error(int status, std::string_view why);
  void write_next();
  void on_written(beast::error_code ec, size_t n);
  void finish_exchange(After after);
  void linger_close();
  void arm_timer(core::Millis d);
  void wait_timer();
  void on_timer(beast::error_code ec, uint64_t gen);
  void disarm_timer();

  tcp::socket socket_;
  std::optional<net::io_context::executor_type> own_;  // unset when the socket's executor is not a bare io_context's
  // One timer for the request and idle timeouts: arm_timer() moves deadline_
  // and re-waits only when the pending wait would fire after it; a wait that
  // fires early waits again (docs/performance.md, "HTTP": no timer system
  // call and no cancelled handler per request).
  net::steady_timer timer_;
  net::steady_timer::time_point deadline_{};
  bool timer_on_ = false;       // deadline_ applies
  bool timer_waiting_ = false;  // an async_wait is pending
  std::shared_ptr<ServerShared> shared_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<Exchange> exchange_;
  struct Out {
    std::string bytes;
    After after;
  };
  std::deque<Out> out_;
  std::vector<net::const_buffer> gather_;  // the write on the wire: the first gathered_ pieces of out_
  size_t gathered_ = 0;
  std::atomic<size_t> queued_{0};
  std::string continue_bytes_;  // "100 Continue" being written
  uint64_t timer_gen_ = 0;
  size_t discarded_ = 0;  // lingering close
  bool writing_ = false;
  bool reading_ = false;  // an async_read_some is pending
  bool busy_ = false;     // a request is being handled (or an error answered)
  bool lingering_ = false;
  bool closed_ = false;
  std::string remote_;
};

}  // namespace a2a::transport::detail
