// Private to the HTTP client: the connection (plain or TLS) and the
// deadline-bounded I/O primitives its .cpp files share. Not for other modules:
// it pulls in Asio and OpenSSL, which the public header keeps out.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>

#include "runner/transport/http_client.hpp"

namespace a2a::transport {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

// How one bounded I/O step ended.
struct IoResult {
  enum class Wait { kDone, kTimeout, kInterrupted } wait = Wait::kDone;
  error_code ec;
  size_t n = 0;
  bool ok() const { return wait == Wait::kDone && !ec; }
  bool eof() const;           // the peer closed (FIN, or TLS without close_notify)
  bool peer_dropped() const;  // eof, reset or broken pipe: what a stale keep-alive connection gives
};

// What a response read is for; see read_response().
struct ReadSpec {
  bool head_request = false;  // HEAD: a Content-Length but no body follows
  const std::function<bool(const HttpResponse&)>* on_head = nullptr;
  const std::function<bool(std::string_view)>* on_data = nullptr;  // null: collect into body
};

struct ReadOutcome {
  HttpResponse response;
  bool keep_alive = false;  // the connection may carry the next request
};

// The client's state and I/O; HttpClient::Impl is this (the public header
// keeps Impl private, so the .cpp files share this name instead).
class HttpConnection {
 public:
  HttpConnection(Url origin, HttpClientOptions options);
  ~HttpConnection();

  // Opens a connection (resolve, connect, TLS handshake) within `deadline`.
  core::Expected<void> connect(core::Deadline deadline);
  IoResult write_all(std::string bytes, core::Deadline deadline);
  // Appends what arrives to `inbuf` (at most kReadChunk bytes) and records it.
  IoResult read_some(core::Deadline deadline);
  void close(std::string_view why);
  bool connected() const { return plain_.has_value() || tls_.has_value(); }

  // One response from the connection; `received` counts raw bytes read for it
  // (0 after an error means the peer sent nothing: a stale connection).
  core::Expected<ReadOutcome> read_response(const ReadSpec& spec, core::Deadline deadline, size_t& received);

  // "timed out ..." / "interrupted ..." / "<ec> ..." for an I/O step that failed.
  core::Error io_error(const IoResult& r, std::string_view doing) const;
  std::string peer() const { return origin.host + ":" + std::to_string(origin.port); }
  void note(std::string_view text) const;

  Url origin;
  HttpClientOptions options;
  std::atomic<bool> interrupted{false};
  bool reused = false;              // the open connection has carried a whole exchange
  boost::beast::flat_buffer inbuf;  // bytes read and not yet parsed

  asio::io_context ioc;  // private, run only by the calling thread (interrupt() posts to it)

 private:
  struct Op;
  // Runs the io_context until `op` completes, the deadline passes or
  // interrupt() is called; on the latter two the connection is closed (that
  // cancels the operation) and the op is drained before returning.
  IoResult run(const std::shared_ptr<Op>& op, core::Deadline deadline);
  template <class F>
  void with_stream(F&& f);
  tcp::socket& socket();
  IoResult handshake(core::Deadline deadline);

  std::unique_ptr<asio::ssl::context> tls_ctx_;
  tcp::resolver resolver_;
  std::optional<tcp::socket> plain_;
  std::optional<asio::ssl::stream<tcp::socket>> tls_;
  std::string out_;  // the bytes being written: owned here so a cancelled write never points at a dead frame
};

}  // namespace a2a::transport
