// An HTTP/1.1 server on Boost.Beast (Asio, N I/O threads) for loopback peers:
// the reference agent's HTTP bindings, the runner's webhook receiver, and the
// scripted servers of tests. Requests are read whole (bounded); a handler
// answers with one reply or with a stream (chunked transfer encoding, for SSE)
// from any thread, at any later time.
//
// Handlers run on an I/O thread and must not block: long work goes to the
// caller's own threads, which answer through the HttpExchange (thread-safe).
// Bounded everywhere: header bytes (431), body bytes (413), time to read a
// request (slowloris), idle keep-alive time, connections, and bytes queued
// for a client that does not read (the connection is closed past the cap).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/transport/http_client.hpp"  // HeaderList, find_header

namespace a2a::transport {

struct ServerRequest {
  std::string method;  // as received ("GET", "POST", ...)
  std::string target;  // as received: path + optional "?query", not decoded
  int version = 11;    // 10 or 11
  HeaderList headers;
  std::string body;
  std::string remote;  // "127.0.0.1:54321"
  std::optional<std::string> header(std::string_view name) const { return find_header(headers, name); }
  std::string path() const;   // target before '?'
  std::string query() const;  // after '?', "" when none
};

struct ServerReply {
  int status = 200;
  HeaderList headers;  // Content-Length is set by the server; Content-Type is the caller's
  std::string body;
  bool close = false;  // close the connection after this reply
};

class HttpExchange {
 public:
  virtual ~HttpExchange() = default;
  virtual const ServerRequest& request() const = 0;

  // Exactly one of reply() or start_stream() per exchange; later calls are ignored.
  virtual void reply(ServerReply reply) = 0;
  // Sends status and headers (Transfer-Encoding: chunked is added); then
  // write() sends body bytes as chunks, end() the last chunk. false when the
  // connection is gone (the client went away) or the queue cap was hit.
  virtual bool start_stream(int status, HeaderList headers) = 0;
  virtual bool write(std::string bytes) = 0;
  virtual void end() = 0;
  // Ends the stream without the last chunk and closes the connection (fault
  // injection: "closes mid-stream").
  virtual void abort() = 0;

  // The client closed the connection (or the server stopped). Thread-safe.
  virtual bool closed() const = 0;
  // Called once, from an I/O thread, when the connection closes before end()
  // or reply() was written; runs at once if it already has.
  virtual void on_close(std::function<void()> fn) = 0;
};

using HttpHandler = std::function<void(std::shared_ptr<HttpExchange>)>;

struct HttpServerOptions {
  std::string address = "127.0.0.1";
  uint16_t port = 0;             // 0 = the system picks; see HttpServer::port()
  int threads = 2;               // I/O threads
  size_t max_header = 64u << 10; // request line + headers; above: 431
  size_t max_body = 8u << 20;    // above: 413 (callers that want a lower cap check it themselves)
  core::Millis request_timeout{10000};  // to read one whole request once its first byte came
  core::Millis idle_timeout{60000};     // keep-alive wait for the next request
  size_t max_connections = 4096;        // above: accepted then closed at once
  size_t max_queued_bytes = 16u << 20;  // per connection, unsent stream bytes
  // Replies for protocol-level errors the server detects itself (400 bad
  // request syntax, 413, 431). Default: a text/plain body naming the problem.
  std::function<ServerReply(int status, std::string_view why)> protocol_error;
  // Called when the last open connection closed (from the thread that closed
  // it; it must not block): a server that just served a burst may give
  // memory back here.
  std::function<void()> on_idle;
};

class HttpServer {
 public:
  // Binds and listens before returning (so port() is final), then serves on
  // its own threads until stop() or destruction.
  static core::Expected<std::unique_ptr<HttpServer>> start(HttpServerOptions options, HttpHandler handler);
  virtual ~HttpServer() = default;
  virtual uint16_t port() const = 0;
  // Stops accepting, closes every connection (open streams see closed()),
  // joins the threads. Idempotent; bounded by `grace`.
  virtual void stop(core::Millis grace = core::Millis(1000)) = 0;
  virtual size_t connection_count() const = 0;
};

}  // namespace a2a::transport
