// A closed-loop HTTP load generator for A2A JSON-RPC agents (bench/http_bench
// and tests/e2e/load_test): N keep-alive connections on Boost.Beast, each
// sending its next request as soon as the last answer is whole, so the rate
// measured is what the agent sustains at that concurrency. Header-only because
// bench/ builds one executable per .cpp.
//
// Unary mode: SendMessage "hello" (the echo behaviour: a blocking send that
// returns the COMPLETED task). Stream mode: SendStreamingMessage
// "tck-stream-many count=K", whose K+3 events (task, WORKING, K chunks whose
// texts carry their index, COMPLETED) let every stream be checked for lost,
// duplicated or reordered events. With `rest` the same two requests go to the
// HTTP+JSON/REST binding instead (POST {path}/message:send and
// /message:stream, the bare SendMessageRequest; answers and events are bare
// SendMessageResponse / StreamResponse objects). Any other answer is a
// failure, kept as a sample. Bounded: a run ends at its deadline whatever the
// agent does.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "bench/http_load_check.hpp"
#include "runner/core/deadline.hpp"

namespace a2a::bench {

enum class LoadMode { kUnary, kStream };

struct LoadOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;
  std::string path = "/";  // where JSON-RPC is POSTed; with `rest`, the REST base ("/" or "/a2a/rest")
  LoadMode mode = LoadMode::kUnary;
  bool rest = false;       // HTTP+JSON/REST rather than JSON-RPC
  int connections = 16;
  // Each connection stops starting requests after `duration`, or after
  // `per_connection` requests when that is > 0 (then duration is ignored).
  core::Millis duration{3000};
  long long per_connection = 0;
  int stream_events = 10;             // K: artifact chunks per stream
  bool full_check = false;            // parse every answer as JSON (tests); else byte checks
  core::Millis deadline{120000};      // the whole run, whatever the agent does
  int threads = 1;                    // I/O threads of the generator
};

struct LoadResult {
  long long ok = 0;        // requests answered correctly (unary) or streams complete and in order
  long long events = 0;    // SSE events received
  long long failures = 0;  // error answers, bad status, lost/reordered events, I/O errors, deadline
  std::vector<std::string> samples;  // the first few failures, for a message
  double seconds = 0;                // from the first connect to the last answer
  std::vector<uint32_t> latency_us;  // one per ok request (stream: request to last event)

  double per_second(long long n) const { return seconds > 0 ? static_cast<double>(n) / seconds : 0; }
  // p in [0, 100]; 0 when nothing was measured. Sorts latency_us.
  double percentile_ms(double p) {
    if (latency_us.empty()) return 0;
    std::sort(latency_us.begin(), latency_us.end());
    size_t i = static_cast<size_t>(p / 100.0 * static_cast<double>(latency_us.size() - 1) + 0.5);
    return latency_us[std::min(i, latency_us.size() - 1)] / 1000.0;
  }
};

namespace detail {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr size_t kMaxSamples = 8;

// The JSON-RPC body of request `seq` of connection `client`.
inline std::string rpc_body(const LoadOptions& o, int client, long long seq) {
  bool stream = o.mode == LoadMode::kStream;
  std::string text = stream ? "tck-stream-many count=" + std::to_string(o.stream_events) : "hello";
  return std::string(R"({"jsonrpc":"2.0","id":)") + std::to_string(seq) + R"(,"method":")" +
         (stream ? "SendStreamingMessage" : "SendMessage") +
         R"(","params":{"message":{"role":"ROLE_USER","parts":[{"text":")" + text + R"("}],"messageId":"load-)" +
         std::to_string(client) + "-" + std::to_string(seq) + R"("}}})";
}

// The REST body of the same request: the SendMessageRequest alone.
inline std::string rest_body(const LoadOptions& o, int client, long long seq) {
  bool stream = o.mode == LoadMode::kStream;
  std::string text = stream ? "tck-stream-many count=" + std::to_string(o.stream_events) : "hello";
  return R"({"message":{"role":"ROLE_USER","parts":[{"text":")" + text + R"("}],"messageId":"load-)" +
         std::to_string(client) + "-" + std::to_string(seq) + R"("}})";
}

inline std::string request_target(const LoadOptions& o) {
  if (!o.rest) return o.path;
  std::string base = o.path;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + (o.mode == LoadMode::kStream ? "/message:stream" : "/message:send");
}

inline std::string http_request(const LoadOptions& o, const std::string& host, int client, long long seq) {
  std::string body = o.rest ? rest_body(o, client, seq) : rpc_body(o, client, seq);
  std::string accept = o.mode == LoadMode::kStream ? "text/event-stream" : "application/json";
  return "POST " + request_target(o) + " HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nAccept: " +
         accept + "\r\nA2A-Version: 1.0\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

struct Shared {
  const LoadOptions& options;
  tcp::endpoint endpoint;
  std::string host_header;
  Clock::time_point stop_at;
  std::atomic<int> running{0};
  net::steady_timer* deadline = nullptr;  // canceled when the last client finishes
};

// One connection: connect, then request, answer, request... on its strand.
// Its result is read only after the io_context stopped.
class Client : public std::enable_shared_from_this<Client> {
 public:
  Client(net::io_context& ioc, Shared& shared, int index)
      : shared_(shared), socket_(net::make_strand(ioc)), index_(index) {}

  void start() {
    net::dispatch(socket_.get_executor(), [self = shared_from_this()] { self->connect(); });
  }
  // From any thread: the run's deadline passed.
  void abort() {
    net::post(socket_.get_executor(), [self = shared_from_this()] {
      if (self->finished_) return;
      self->fail("deadline: request " + std::to_string(self->seq_) + " unanswered");
      self->finish();
    });
  }
  LoadResult& result() { return result_; }
  Clock::time_point last_answer() const { return last_answer_; }

 private:
  void connect() {
    socket_.async_connect(shared_.endpoint, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->io_failed("connect", ec);
      beast::error_code ignored;
      self->socket_.set_option(tcp::no_delay(true), ignored);
      self->next();
    });
  }

  bool more() const {
    const LoadOptions& o = shared_.options;
    if (o.per_connection > 0) return sent_ < o.per_connection;
    return Clock::now() < shared_.stop_at;
  }

  void next() {
    if (finished_ || !more()) return finish();
    ++seq_;
    ++sent_;
    const LoadOptions& o = shared_.options;
    check_ = AnswerCheck(o.mode == LoadMode::kStream, o.stream_events, o.full_check, seq_, o.rest);
    request_ = http_request(o, shared_.host_header, index_, seq_);
    started_ = Clock::now();
    net::async_write(socket_, net::buffer(request_), [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->io_failed("write", ec);
      self->read();
    });
  }

  void read() {
    parser_.emplace();
    parser_->body_limit(boost::none);
    // Chunked bodies (SSE) go to the check as they arrive; a Content-Length
    // body (a plain JSON-RPC answer) lands in the string body.
    parser_->on_chunk_body(on_chunk_);
    http::async_read(socket_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->io_failed("read", ec);
      self->on_answer();
    });
  }

  void on_answer() {
    auto& res = parser_->get();
    std::string why = check_.finish(static_cast<int>(res.result_int()), res.body());
    result_.events += check_.events();
    last_answer_ = Clock::now();
    if (!why.empty()) {
      fail("request " + std::to_string(seq_) + ": " + why);
    } else {
      ++result_.ok;
      auto us = std::chrono::duration_cast<std::chrono::microseconds>(last_answer_ - started_).count();
      result_.latency_us.push_back(static_cast<uint32_t>(std::min<long long>(us, UINT32_MAX)));
    }
    if (res.keep_alive()) return next();
    beast::error_code ignored;
    socket_.close(ignored);
    buffer_.clear();
    if (more()) return connect();
    finish();
  }

  void io_failed(const char* what, beast::error_code ec) {
    if (finished_) return;
    fail(std::string(what) + " (request " + std::to_string(seq_) + "): " + ec.message());
    finish();  // a broken connection ends this client; the failure is in the result
  }

  void fail(std::string why) {
    ++result_.failures;
    if (result_.samples.size() < kMaxSamples) {
      result_.samples.push_back("connection " + std::to_string(index_) + ": " + std::move(why));
    }
  }

  void finish() {
    if (finished_) return;
    finished_ = true;
    beast::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    if (--shared_.running == 0) net::post(shared_.deadline->get_executor(), [t = shared_.deadline] { t->cancel(); });
  }

  Shared& shared_;
  tcp::socket socket_;
  int index_;
  long long seq_ = 0;
  long long sent_ = 0;
  std::string request_;
  beast::flat_buffer buffer_;
  std::optional<http::response_parser<http::string_body>> parser_;
  AnswerCheck check_{false, 0, false, 0};
  // The parser keeps a reference to it: it lives as long as the client.
  std::function<size_t(uint64_t, beast::string_view, beast::error_code&)> on_chunk_ =
      [this](uint64_t, beast::string_view data, beast::error_code&) {
        check_.feed(std::string_view(data.data(), data.size()));
        return data.size();
      };
  Clock::time_point started_{};
  Clock::time_point last_answer_{};
  bool finished_ = false;
  LoadResult result_;
};

inline void merge(LoadResult& into, LoadResult& from) {
  into.ok += from.ok;
  into.events += from.events;
  into.failures += from.failures;
  for (auto& s : from.samples) {
    if (into.samples.size() < kMaxSamples) into.samples.push_back(std::move(s));
  }
  into.latency_us.insert(into.latency_us.end(), from.latency_us.begin(), from.latency_us.end());
}

}  // namespace detail

// Runs one load and returns what it measured. Agent behaviour never throws:
// a refused connection or a wrong answer is a failure in the result.
inline LoadResult run_load(const LoadOptions& o) {
  using namespace detail;
  net::io_context ioc;
  net::steady_timer deadline(net::make_strand(ioc), o.deadline);
  Shared shared{o, tcp::endpoint(net::ip::make_address(o.host), o.port), o.host + ":" + std::to_string(o.port)};
  shared.deadline = &deadline;
  auto begin = Clock::now();
  shared.stop_at = begin + o.duration;
  shared.running = o.connections;
  std::vector<std::shared_ptr<Client>> clients;
  clients.reserve(static_cast<size_t>(o.connections));
  for (int i = 0; i < o.connections; ++i) clients.push_back(std::make_shared<Client>(ioc, shared, i));
  // Pending until the deadline, or canceled by the last client to finish: run() returns then.
  deadline.async_wait([&clients](boost::system::error_code ec) {
    if (ec) return;
    for (auto& c : clients) c->abort();
  });
  for (auto& c : clients) c->start();
  if (o.connections <= 0) deadline.cancel();
  std::vector<std::thread> threads;
  for (int i = 1; i < std::max(1, o.threads); ++i) threads.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : threads) t.join();
  LoadResult total;
  Clock::time_point last = begin;
  for (auto& c : clients) {
    merge(total, c->result());
    last = std::max(last, c->last_answer());
  }
  total.seconds = std::chrono::duration<double>(last - begin).count();
  return total;
}

}  // namespace a2a::bench
