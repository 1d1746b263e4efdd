// Test-only (header-only): a raw HTTP/1.1 client on POSIX sockets for the
// server tests here and the reference agent's HTTP tests. It writes bytes as
// given and parses responses with Beast's parser fed by hand, so a test can
// send malformed or partial requests and read streams piece by piece. Every
// read has a deadline.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http.hpp>

#include "runner/core/deadline.hpp"
#include "runner/transport/http_client.hpp"
#include "runner/transport/transport_test_util.hpp"

namespace a2a::transport::testing {

struct RawResponse {
  int status = 0;
  HeaderList headers;
  std::string body;
  bool complete = false;  // the parser saw the whole message
  std::optional<std::string> header(std::string_view name) const {
    for (const auto& [n, v] : headers) {
      if (n.size() == name.size() &&
          std::equal(n.begin(), n.end(), name.begin(), [](char a, char b) { return std::tolower(a) == std::tolower(b); })) {
        return v;
      }
    }
    return std::nullopt;
  }
};

// "METHOD target HTTP/1.1" with Host, the given header lines and, when a
// body is given, Content-Length.
inline std::string raw_request(std::string_view method, std::string_view target, const HeaderList& headers = {},
                               std::optional<std::string> body = std::nullopt) {
  std::string r = std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  for (const auto& [n, v] : headers) r += n + ": " + v + "\r\n";
  if (body) r += "Content-Length: " + std::to_string(body->size()) + "\r\n";
  r += "\r\n";
  if (body) r += *body;
  return r;
}

class RawConn {
 public:
  using Parser = boost::beast::http::response_parser<boost::beast::http::string_body>;

  explicit RawConn(uint16_t port) {
    fd_ = testing::connect_loopback(port);
  }
  ~RawConn() { close(); }
  RawConn(const RawConn&) = delete;
  RawConn& operator=(const RawConn&) = delete;

  bool ok() const { return fd_ >= 0; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  bool send(std::string_view bytes) {
    while (!bytes.empty() && fd_ >= 0) {
      ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return fd_ >= 0;
  }

  // Some bytes (appended to `pending_`): > 0 read, 0 EOF, -1 error or deadline.
  int fill(core::Deadline deadline) {
    if (fd_ < 0) return -1;
    pollfd p{fd_, POLLIN, 0};
    int r = ::poll(&p, 1, deadline.poll_timeout_ms());
    if (r <= 0) return -1;
    char buf[16384];
    ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n < 0) return -1;
    pending_.append(buf, static_cast<size_t>(n));
    return n > 0 ? 1 : 0;
  }

  // True when the peer closes (EOF or reset) before the deadline; data is kept.
  bool wait_eof(core::Deadline deadline) {
    for (;;) {
      if (fd_ < 0) return false;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, deadline.poll_timeout_ms()) <= 0) return false;
      char buf[16384];
      ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) return true;
      pending_.append(buf, static_cast<size_t>(n));
    }
  }

  // Starts reading a response: status and headers (the parser is kept for body reads).
  bool read_head(core::Deadline deadline, bool head_request = false) {
    parser_ = std::make_unique<Parser>();
    parser_->eager(true);
    parser_->body_limit(boost::none);
    parser_->skip(head_request);
    while (!parser_->is_header_done()) {
      if (!feed(deadline)) return false;
    }
    return true;
  }
  // Reads body bytes until `pred(body so far)` holds, the message ends, EOF or the deadline.
  template <class Pred>
  bool read_body_until(core::Deadline deadline, Pred pred) {
    while (!pred(parser_->get().body())) {
      if (parser_->is_done() || !feed(deadline)) return pred(parser_->get().body());
    }
    return true;
  }
  bool done() const { return parser_ && parser_->is_done(); }
  RawResponse response() const {
    RawResponse r;
    const auto& m = parser_->get();
    r.status = static_cast<int>(m.result_int());
    for (const auto& f : m) r.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
    r.body = m.body();
    r.complete = parser_->is_done();
    return r;
  }
  // One whole response.
  std::optional<RawResponse> read_response(core::Deadline deadline, bool head_request = false) {
    if (!read_head(deadline, head_request)) return std::nullopt;
    while (!parser_->is_done()) {
      if (!feed(deadline)) break;
    }
    return response();
  }

  std::string& pending() { return pending_; }

 private:
  // Feeds pending bytes (reading more when none): false at EOF, error or deadline.
  bool feed(core::Deadline deadline) {
    boost::beast::error_code ec;
    if (!pending_.empty()) {
      size_t used = parser_->put(boost::asio::buffer(pending_), ec);
      pending_.erase(0, used);
      if (ec && ec != boost::beast::http::error::need_more) return false;
      if (used > 0) return true;
    }
    int r = fill(deadline);
    if (r == 0) {
      parser_->put_eof(ec);
      return false;
    }
    return r > 0;
  }

  int fd_ = -1;
  std::string pending_;
  std::unique_ptr<Parser> parser_;
};

}  // namespace a2a::transport::testing
