#include "runner/transport/http_server.hpp"

#include <thread>
#include <vector>

#include "runner/transport/http_server_session.hpp"

namespace a2a::transport {

std::string ServerRequest::path() const { return target.substr(0, target.find('?')); }

std::string ServerRequest::query() const {
  size_t q = target.find('?');
  return q == std::string::npos ? std::string() : target.substr(q + 1);
}

namespace {

using namespace detail;

// After an accept error (EMFILE, ...) the acceptor waits this long instead of spinning.
constexpr core::Millis kAcceptBackoff{50};

class ServerImpl : public HttpServer {
 public:
  explicit ServerImpl(std::shared_ptr<ServerShared> shared)
      : shared_(std::move(shared)),
        iocs_(make_contexts(std::max(1, shared_->options.threads))),
        acceptor_(iocs_.front()->get_executor()),
        backoff_(acceptor_.get_executor()) {
    for (auto& ioc : iocs_) guards_.push_back(net::make_work_guard(*ioc));
  }

  ~ServerImpl() override { stop(core::Millis(1000)); }

  core::Expected<void> listen() {
    beast::error_code ec;
    std::string host = shared_->options.address == "localhost" ? "127.0.0.1" : shared_->options.address;
    auto addr = net::ip::make_address(host, ec);
    if (ec) return core::fail(core::ErrorKind::kInvalidArgument, "HTTP server: bad listen address '" + host + "'");
    tcp::endpoint ep(addr, shared_->options.port);
    std::string where = host + ":" + std::to_string(shared_->options.port);
    if (acceptor_.open(ep.protocol(), ec); ec) return io_error("open", where, ec);
    acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (acceptor_.bind(ep, ec); ec) return io_error("bind", where, ec);
    if (acceptor_.listen(net::socket_base::max_listen_connections, ec); ec) return io_error("listen", where, ec);
    port_ = acceptor_.local_endpoint(ec).port();
    return {};
  }

  void run() {
    accept();
    for (auto& ioc : iocs_) threads_.emplace_back([ctx = ioc.get()] { ctx->run(); });
  }

  uint16_t port() const override { return port_; }
  size_t connection_count() const override { return shared_->connections.load(); }

  void stop(core::Millis grace) override {
    std::lock_guard<std::mutex> stop_lock(stop_mu_);
    if (stopped_) return;
    stopped_ = true;
    shared_->stopping = true;
    std::atomic<bool> acceptor_closed{false};
    net::post(acceptor_.get_executor(), [this, &acceptor_closed] {
      close_acceptor();
      acceptor_closed = true;
    });
    // Closed sessions die as their pending operations complete. A session
    // accepted while stop() began is closed by a later round.
    // A server that never ran (listen failed) has nothing to wait for.
    auto deadline = core::Deadline::after(threads_.empty() ? core::Millis(0) : grace);
    for (int round = 0;; ++round) {
      if (round % 10 == 0) {
        for (auto& s : live_sessions()) net::post(s->executor(), [s] { s->close_now(); });
      }
      if ((acceptor_closed && shared_->connections.load() == 0) || deadline.expired()) break;
      std::this_thread::sleep_for(core::Millis(2));
    }
    for (auto& g : guards_) g.reset();
    for (auto& ioc : iocs_) ioc->stop();
    for (auto& t : threads_) {
      if (t.joinable()) t.join();
    }
    // No I/O thread runs now: what is left is closed from here.
    close_acceptor();
    for (auto& s : live_sessions()) s->close_now();
  }

 private:
  static core::Unexpected io_error(const char* what, const std::string& where, const beast::error_code& ec) {
    return core::fail(core::ErrorKind::kIo, std::string("HTTP server: cannot ") + what + " " + where + ": " + ec.message());
  }

  void close_acceptor() {
    beast::error_code ec;
    acceptor_.close(ec);
    backoff_.cancel();
  }

  std::vector<std::shared_ptr<Session>> live_sessions() {
    std::vector<std::shared_ptr<Session>> out;
    std::lock_guard<std::mutex> lk(shared_->mu);
    for (auto& w : shared_->sessions) {
      if (auto s = w.lock()) out.push_back(std::move(s));
    }
    return out;
  }

  // The acceptor runs on the first context's thread; each connection goes
  // to the next context in turn and stays there (see the note on iocs_).
  void accept() {
    net::io_context& ctx = *iocs_[next_ctx_++ % iocs_.size()];
    acceptor_.async_accept(ctx, [this](beast::error_code ec, tcp::socket socket) {
      if (ec == net::error::operation_aborted || shared_->stopping) return;
      if (ec) {
        backoff_.expires_after(kAcceptBackoff);
        backoff_.async_wait([this](beast::error_code wec) {
          if (!wec && !shared_->stopping) accept();
        });
        return;
      }
      on_accept(std::move(socket));
      accept();
    });
  }

  void on_accept(tcp::socket socket) {
    if (shared_->connections.load() >= shared_->options.max_connections) {
      beast::error_code ec;
      socket.close(ec);
      return;
    }
    auto s = std::make_shared<Session>(std::move(socket), shared_);
    {
      std::lock_guard<std::mutex> lk(shared_->mu);
      auto& v = shared_->sessions;
      if (v.size() >= 64 && v.size() >= 2 * shared_->connections.load()) {
        std::erase_if(v, [](const std::weak_ptr<Session>& w) { return w.expired(); });
      }
      v.push_back(s);
    }
    s->start();
  }

  static std::vector<std::unique_ptr<net::io_context>> make_contexts(int n) {
    std::vector<std::unique_ptr<net::io_context>> out;
    // Concurrency hint 1: one thread runs each context, so a handler's own
    // posts (a reply written from the handler, a completed read or write) go
    // to that thread's private queue without waking anyone.
    for (int i = 0; i < n; ++i) out.push_back(std::make_unique<net::io_context>(1));
    return out;
  }

  std::shared_ptr<ServerShared> shared_;
  // One io_context per I/O thread, each run by its thread alone: a
  // connection is read, served and written on one thread. With one context
  // shared by N threads every post (a reply, a read's completion) could wake
  // another thread, and the two I/O threads woke each other for every reply
  // (docs/performance.md, "HTTP"). The contexts come before everything that
  // uses them (destroyed after them), after shared_ (their pending handlers
  // hold sessions that touch shared_).
  std::vector<std::unique_ptr<net::io_context>> iocs_;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> guards_;
  size_t next_ctx_ = 0;  // acceptor thread only
  tcp::acceptor acceptor_;
  net::steady_timer backoff_;
  std::vector<std::thread> threads_;
  uint16_t port_ = 0;
  std::mutex stop_mu_;
  bool stopped_ = false;
};

}  // namespace

core::Expected<std::unique_ptr<HttpServer>> HttpServer::start(HttpServerOptions options, HttpHandler handler) {
  auto shared = std::make_shared<ServerShared>();
  shared->options = std::move(options);
  shared->handler = std::move(handler);
  auto server = std::make_unique<ServerImpl>(shared);
  if (auto r = server->listen(); !r) return core::fail(r.error());
  server->run();
  return std::unique_ptr<HttpServer>(std::move(server));
}

}  // namespace a2a::transport
