// An HTTP/1.1 client on Boost.Beast for the HTTP bindings (JSON-RPC over
// HTTP, REST), card discovery, raw ACTS steps and webhook delivery. One
// HttpClient owns at most one connection to one origin (keep-alive, reopened
// when the peer closed it); it is not thread-safe, except interrupt().
//
// Every call is bounded: by its deadline (connect, write, each read), by
// HttpLimits (header and body bytes), and by interrupt(). A hostile server
// (never answers, trickles bytes, endless body, closes mid-chunk) gives an
// Error (kTimeout / kEof / kProtocol with what and where), never a hang or
// unbounded memory. https uses OpenSSL (system trust store unless insecure).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/transport/transcript.hpp"
#include "runner/transport/url.hpp"

namespace a2a::transport {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// Case-insensitive lookup; the first match.
std::optional<std::string> find_header(const HeaderList& headers, std::string_view name);

struct HttpRequest {
  std::string method = "GET";  // sent as written (raw steps may use any token)
  std::string target = "/";    // origin-form: path + optional "?query"
  HeaderList headers;          // Host, User-Agent and Content-Length (body, POST/PUT/PATCH) added when absent
  std::string body;
};

struct HttpResponse {
  int status = 0;
  std::string reason;
  HeaderList headers;
  std::string body;       // empty for streaming calls (the body went to on_data)
  bool truncated = false; // body above max_body: the rest was read and dropped, or the connection closed
  std::optional<std::string> header(std::string_view name) const { return find_header(headers, name); }
  std::string content_type() const;  // media type only, lower-cased, no parameters ("" when absent)
};

struct HttpLimits {
  size_t max_header = 64u << 10;
  size_t max_body = 16u << 20;
};

struct HttpClientOptions {
  HttpLimits limits;
  bool insecure_tls = false;          // skip certificate verification (https only)
  Transcript* transcript = nullptr;   // when set, request and response bytes are recorded
  std::string user_agent = "a2a-conform";
};

class HttpClient {
 public:
  // `origin`: scheme, host and port are used; path/query ignored.
  explicit HttpClient(Url origin, HttpClientOptions options = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // One request, whole response. Connection reused when possible; a request
  // that fails because a reused connection was closed by the peer before any
  // response byte is retried once on a fresh connection.
  core::Expected<HttpResponse> request(const HttpRequest& req, core::Deadline deadline);

  // Streaming: on_head gets status and headers (return false to stop before
  // the body), then on_data gets body bytes as they arrive (chunked decoding
  // done) until the body ends, the deadline passes, interrupt() is called, or
  // on_data returns false (the connection is then closed). The returned
  // response has status and headers, an empty body. Ending because on_data
  // returned false is success; a deadline is kTimeout; a peer close before
  // the body's end is kEof ("connection closed mid-body after N bytes ...").
  core::Expected<HttpResponse> stream(const HttpRequest& req, core::Deadline deadline,
                                      const std::function<bool(const HttpResponse& head)>& on_head,
                                      const std::function<bool(std::string_view bytes)>& on_data);

  // Raw bytes on a fresh connection (malformed-request tests): writes `bytes`
  // as they are, then reads one response (parsed) or whatever arrives until
  // the peer closes or the deadline. The connection is closed afterwards.
  core::Expected<HttpResponse> raw(std::string_view bytes, core::Deadline deadline);

  // From any thread: every current and later wait of this client returns
  // kTimeout ("interrupted") promptly. Idempotent.
  void interrupt();
  // Closes the connection (the next request opens a new one).
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Convenience for one-off calls (card fetch, webhook delivery): a fresh
// client, one request, closed.
core::Expected<HttpResponse> http_fetch(const Url& url, HttpRequest req, core::Deadline deadline,
                                        HttpClientOptions options = {});

}  // namespace a2a::transport
