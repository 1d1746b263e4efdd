#include "runner/transport/ws_client.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "runner/core/escape.hpp"
#include "runner/transport/url.hpp"
#include "runner/transport/ws_codec.hpp"
#include "runner/transport/ws_tls.hpp"

namespace a2a::transport {

core::Expected<WsUrl> WsUrl::parse(const std::string& url) {
  WsUrl w;
  std::string http;
  if (url.rfind("ws://", 0) == 0) {
    http = "http://" + url.substr(5);
  } else if (url.rfind("wss://", 0) == 0) {
    w.tls = true;
    http = "https://" + url.substr(6);
  } else {
    return core::fail(core::ErrorKind::kInvalidArgument, "not a ws:// or wss:// URL: " + core::escape_bytes(url, 120));
  }
  auto u = Url::parse(http);
  if (!u) return core::fail(core::ErrorKind::kInvalidArgument, u.error().message);
  w.host = u->host;
  w.port = u->port;
  w.target = u->target();
  if (w.target.empty()) w.target = "/";
  return w;
}

std::string WsUrl::host_header() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (port != (tls ? 443 : 80)) h += ":" + std::to_string(port);
  return h;
}

// The client's socket helpers (named: the unity batch holds other files' helpers).
namespace wsio {
namespace {

using ws::has_token;
using ws::iequals;
using ws::trim;

constexpr size_t kMaxUpgradeAnswer = 64u << 10;  // the 101 (or refusal) header
constexpr size_t kMaxRefusalBody = 64u << 10;    // a refusal's body kept for the caller
constexpr size_t kReadChunk = 64u << 10;
constexpr core::Millis kCloseWait{500};     // the closing handshake
constexpr core::Millis kControlWrite{1000};  // a pong or a close frame the reader writes

std::string errno_text(int e) { return std::strerror(e); }

// All of `data` on a non-blocking socket, each wait for room bounded by `deadline`.
core::Expected<void> write_all(int fd, std::string_view data, core::Deadline deadline) {
  size_t done = 0;
  while (done < data.size()) {  // each pass writes or waits until the deadline
    ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      int r = ::poll(&p, 1, deadline.poll_timeout_ms());
      if (r == 0)
        return core::fail(core::ErrorKind::kTimeout, std::to_string(done) + " of " + std::to_string(data.size()) +
                                                         " bytes written at the deadline");
      if (r < 0 && errno != EINTR) return core::fail(core::ErrorKind::kIo, "poll: " + errno_text(errno));
      continue;
    }
    return core::fail(core::ErrorKind::kBrokenPipe, n < 0 ? errno_text(errno) : "send wrote nothing");
  }
  return {};
}

// Some bytes into `out` (appended), waiting until `deadline`; 0 at EOF.
core::Expected<size_t> read_some(int fd, std::string& out, size_t max, core::Deadline deadline) {
  char buf[16384];
  for (;;) {  // each pass reads or waits until the deadline
    ssize_t n = ::recv(fd, buf, std::min(max, sizeof buf), 0);
    if (n >= 0) {
      out.append(buf, static_cast<size_t>(n));
      return static_cast<size_t>(n);
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return core::fail(core::ErrorKind::kIo, errno_text(errno));
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, deadline.poll_timeout_ms());
    if (r == 0) return core::fail(core::ErrorKind::kTimeout, "no answer before the deadline");
    if (r < 0 && errno != EINTR) return core::fail(core::ErrorKind::kIo, "poll: " + errno_text(errno));
  }
}

// A non-blocking TCP connection to host:port, bounded by `deadline`.
core::Expected<int> connect_tcp(const WsUrl& u, const std::string& url, core::Deadline deadline) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* res = nullptr;
  std::string port = std::to_string(u.port);
  if (int rc = ::getaddrinfo(u.host.c_str(), port.c_str(), &hints, &res); rc != 0)
    return core::fail(core::ErrorKind::kIo, url + ": the resolve failed: " + ::gai_strerror(rc));
  std::string last = "no address";
  core::ErrorKind kind = core::ErrorKind::kIo;
  int fd = -1;
  for (addrinfo* a = res; a && fd < 0; a = a->ai_next) {
    int s = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (s < 0) {
      last = errno_text(errno);
      continue;
    }
    int rc = ::connect(s, a->ai_addr, a->ai_addrlen);
    if (rc < 0 && errno == EINPROGRESS) {
      pollfd p{s, POLLOUT, 0};
      int r;
      do r = ::poll(&p, 1, deadline.poll_timeout_ms());
      while (r < 0 && errno == EINTR);
      if (r == 0) {
        ::close(s);
        kind = core::ErrorKind::kTimeout;
        last = "no answer before the deadline";
        break;
      }
      int err = 0;
      socklen_t len = sizeof err;
      if (r < 0) err = errno;
      else if (::getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
      rc = err ? -1 : 0;
      errno = err;
    }
    if (rc < 0) {
      last = errno_text(errno);
      ::close(s);
      continue;
    }
    int one = 1;
    ::setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fd = s;
  }
  ::freeaddrinfo(res);
  if (fd < 0) {
    if (kind == core::ErrorKind::kTimeout)
      return core::fail(kind, url + ": the TCP connect did not complete before the deadline");
    return core::fail(kind, url + ": the TCP connect failed: " + last);
  }
  return fd;
}

struct UpgradeAnswer {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string rest;  // the bytes after the header

  std::string_view get(std::string_view name) const {
    for (const auto& [n, v] : headers)
      if (iequals(n, name)) return v;
    return {};
  }
  bool has(std::string_view name) const {
    for (const auto& h : headers)
      if (iequals(h.first, name)) return true;
    return false;
  }
};

// The status line and headers of `head` (up to, not including, CRLFCRLF).
core::Expected<UpgradeAnswer> parse_answer(std::string_view head) {
  UpgradeAnswer a;
  size_t eol = head.find("\r\n");
  std::string_view line = head.substr(0, eol);
  // "HTTP/1.1 101 Switching Protocols"
  if (line.size() < 12 || line.substr(0, 7) != "HTTP/1." || line[8] != ' ' || !std::isdigit(static_cast<unsigned char>(line[9])) ||
      !std::isdigit(static_cast<unsigned char>(line[10])) || !std::isdigit(static_cast<unsigned char>(line[11])))
    return core::fail(core::ErrorKind::kProtocol, "not an HTTP/1.x status line: " + core::escape_bytes(line, 120));
  a.status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
  while (eol != std::string_view::npos) {
    head.remove_prefix(eol + 2);
    eol = head.find("\r\n");
    std::string_view h = head.substr(0, eol);
    if (h.empty()) continue;
    size_t colon = h.find(':');
    if (colon == std::string_view::npos || colon == 0)
      return core::fail(core::ErrorKind::kProtocol, "a header line without a name: " + core::escape_bytes(h, 120));
    a.headers.emplace_back(std::string(h.substr(0, colon)), std::string(trim(h.substr(colon + 1))));
  }
  return a;
}

// A chunked body's data (RFC 9112 §7.1), as far as `raw` holds whole chunks.
std::string dechunk(std::string_view raw) {
  std::string out;
  while (!raw.empty()) {  // each pass takes one chunk off `raw`
    size_t eol = raw.find("\r\n");
    if (eol == std::string_view::npos) break;
    size_t size = 0;
    size_t i = 0;
    for (; i < eol && std::isxdigit(static_cast<unsigned char>(raw[i])) && size < (1u << 24); ++i)
      size = size * 16 + static_cast<size_t>(std::isdigit(static_cast<unsigned char>(raw[i]))
                                                 ? raw[i] - '0'
                                                 : std::tolower(static_cast<unsigned char>(raw[i])) - 'a' + 10);
    if (i == 0 || size == 0) break;
    raw.remove_prefix(eol + 2);
    out.append(raw.substr(0, size));
    if (raw.size() < size + 2) break;
    raw.remove_prefix(size + 2);
  }
  return out;
}

bool clean_header_text(std::string_view s) {
  for (char c : s)
    if (c == '\r' || c == '\n' || c == '\0') return false;
  return true;
}

}  // namespace
}  // namespace wsio

struct WsConnection::Impl {
  static constexpr size_t kMaxPongs = 16;
  int fd = -1;
  std::unique_ptr<WsTls> tls;  // wss://: every byte goes through it
  WsOptions opt;
  ws::FrameParser parser;
  std::thread reader;
  std::string leftover;  // frame bytes that came with the upgrade answer

  mutable std::mutex mu;
  std::condition_variable cv;
  std::deque<WsFrame> inbox;
  size_t inbox_bytes = 0;
  std::deque<std::string> pongs;  // payloads of pongs not taken (the last kMaxPongs)
  bool is_closed = false;
  std::string reason;
  int code = 0;

  std::timed_mutex write_mu;  // one frame on the wire at a time
  std::mutex close_mu;
  bool shut = false;
  std::atomic<bool> close_sent{false};
  std::atomic<bool> runner_closing{false};

  Impl(int socket, WsOptions o) : fd(socket), opt(std::move(o)), parser(ws::ParserOptions{false, opt.max_message}) {}
  ~Impl() {
    tls.reset();  // before the socket it uses
    if (fd >= 0) ::close(fd);
  }

  core::Expected<void> write_all(std::string_view data, core::Deadline deadline) {
    return tls ? tls->write_all(data, deadline) : wsio::write_all(fd, data, deadline);
  }
  core::Expected<size_t> read_some(std::string& out, size_t max, core::Deadline deadline) {
    return tls ? tls->read_some(out, max, deadline) : wsio::read_some(fd, out, max, deadline);
  }

  void finish(std::string why) {
    {
      std::lock_guard<std::mutex> lk(mu);
      if (!is_closed) {
        is_closed = true;
        reason = std::move(why);
      }
    }
    cv.notify_all();
  }

  bool closed() const {
    std::lock_guard<std::mutex> lk(mu);
    return is_closed;
  }
  std::string why() const {
    std::lock_guard<std::mutex> lk(mu);
    return reason;
  }

  // One frame, masked (§5.3), bounded by `deadline`; at the deadline the
  // connection is broken (a half-written frame leaves it unusable).
  core::Expected<void> write_frame(const std::string& what, ws::Opcode op, std::string_view payload,
                                   core::Deadline deadline) {
    return write_bytes(what, op, ws::encode_client_frame(op, payload), deadline);
  }

  core::Expected<void> write_bytes(const std::string& what, ws::Opcode op, const std::string& frame,
                                   core::Deadline deadline) {
    std::unique_lock<std::timed_mutex> wl(write_mu, std::defer_lock);
    if (deadline.is_never()) wl.lock();
    else if (!wl.try_lock_until(deadline.time()))
      return core::fail(core::ErrorKind::kTimeout, what + ": another write did not finish before the deadline");
    if (closed()) return core::fail(core::ErrorKind::kBrokenPipe, what + ": the connection is closed (" + why() + ")");
    if (op == ws::Opcode::kClose) close_sent = true;
    auto w = write_all(frame, deadline);
    if (w) return {};
    if (w.error().kind == core::ErrorKind::kTimeout) {
      finish(what + " did not complete before the deadline");
      ::shutdown(fd, SHUT_RDWR);
      return core::fail(core::ErrorKind::kTimeout, what + " did not complete before the deadline");
    }
    finish("the connection failed: " + w.error().message);
    return core::fail(core::ErrorKind::kBrokenPipe, what + " failed: " + why());
  }

  std::string over_limit() const {
    size_t m = opt.max_message;
    return m >= (1u << 20) && m % (1u << 20) == 0 ? std::to_string(m >> 20) + " MiB" : std::to_string(m) + " bytes";
  }

  // One message or control frame from the peer; false: the connection is over.
  bool deliver(ws::Message& m) {
    switch (m.op) {
      case ws::Opcode::kText:
      case ws::Opcode::kBinary: {
        WsFrame f{m.op == ws::Opcode::kText, std::move(m.payload)};
        bool over = false;
        {
          std::lock_guard<std::mutex> lk(mu);
          if (inbox.size() >= opt.max_inbox_frames || inbox_bytes + f.payload.size() > opt.max_inbox_bytes) {
            over = true;
          } else {
            inbox_bytes += f.payload.size();
            inbox.push_back(std::move(f));
          }
        }
        if (over) {
          // A flood nobody takes: stop reading rather than grow without bound.
          finish("the peer sent more than " + std::to_string(opt.max_inbox_frames) + " frames or " +
                 std::to_string(opt.max_inbox_bytes >> 20) + " MiB that no step took; the rest was not read");
          ::shutdown(fd, SHUT_RDWR);
          return false;
        }
        cv.notify_all();
        return true;
      }
      case ws::Opcode::kPing:
        (void)write_frame("answering a ping", ws::Opcode::kPong, m.payload, core::Deadline::after(wsio::kControlWrite));
        return true;
      case ws::Opcode::kPong: {
        {
          std::lock_guard<std::mutex> lk(mu);
          pongs.push_back(std::move(m.payload));
          if (pongs.size() > kMaxPongs) pongs.pop_front();
        }
        cv.notify_all();
        return true;
      }
      case ws::Opcode::kClose: {
        auto c = ws::parse_close_payload(m.payload);  // the parser checked it
        int got = c && c->code != ws::kCloseNoStatus ? c->code : 0;
        {
          std::lock_guard<std::mutex> lk(mu);
          code = got;
        }
        if (runner_closing || close_sent) {
          finish("the connection was closed by the runner");
          return false;
        }
        // §5.5.1: the close is answered with the status code it carried.
        (void)write_frame("answering the close frame", ws::Opcode::kClose, got ? ws::close_payload(got) : "",
                          core::Deadline::after(wsio::kControlWrite));
        std::string s = "the peer closed the connection (close code " + std::to_string(got);
        if (c && !c->reason.empty()) s += ": " + core::escape_bytes(c->reason, 120);
        finish(s + ")");
        return false;
      }
      case ws::Opcode::kContinuation:
        break;
    }
    return true;
  }

  bool consume(std::string_view bytes) {
    std::vector<ws::Message> got;
    auto r = parser.feed(bytes, got);
    for (auto& m : got)
      if (!deliver(m)) return false;
    if (r) return true;
    int c = parser.close_code();
    (void)write_frame("writing a close frame", ws::Opcode::kClose, ws::close_payload(c),
                      core::Deadline::after(wsio::kControlWrite));
    finish(c == ws::kCloseTooBig ? "the peer sent a message over " + over_limit()
                                 : "the peer broke the WebSocket protocol: " + r.error().message);
    ::shutdown(fd, SHUT_RDWR);
    return false;
  }

  // The reader thread: until the connection ends or close() shuts the socket down.
  void read_loop() {
    if (!leftover.empty() && !consume(leftover)) return;
    leftover.clear();
    std::string buf(wsio::kReadChunk, '\0');
    if (tls) return read_loop_tls(buf);
    for (;;) {  // ends at EOF, an error, a close frame, or shutdown() by close()
      ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
      if (n > 0) {
        if (!consume(std::string_view(buf.data(), static_cast<size_t>(n)))) return;
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, -1);  // woken by data, EOF, or close()'s shutdown()
        continue;
      }
      if (runner_closing) {
        finish("the connection was closed by the runner");
      } else if (n == 0 || errno == ECONNRESET) {
        finish(std::string("the peer closed the TCP connection without a close frame (") +
               (n == 0 ? "end of stream" : wsio::errno_text(errno)) + ")");
      } else {
        finish("the connection failed: " + wsio::errno_text(errno));
      }
      return;
    }
  }

  void read_loop_tls(std::string& buf) {
    for (;;) {  // ends at EOF, an error, a close frame, or shutdown() by close()
      auto n = tls->read_blocking(buf.data(), buf.size());
      if (n && *n > 0) {
        if (!consume(std::string_view(buf.data(), *n))) return;
        continue;
      }
      if (runner_closing) finish("the connection was closed by the runner");
      else if (n) finish("the peer closed the TLS connection without a WebSocket close frame (end of stream)");
      else finish("the connection failed: " + n.error().message);
      return;
    }
  }
};

WsConnection::WsConnection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

WsConnection::~WsConnection() { close(); }

core::Expected<std::unique_ptr<WsConnection>> WsConnection::connect(const std::string& url, WsOptions options,
                                                                   core::Deadline deadline, WsRefusal* refusal) {
  auto u = WsUrl::parse(url);
  if (!u) return core::fail(u.error());
  if (deadline.is_never()) deadline = core::Deadline::after(core::Millis(30000));
  if (deadline.expired()) return core::fail(core::ErrorKind::kTimeout, "no time left to connect to " + url);
  // The upgrade request (§4.1): the defaults, each replaced by a header of the same name in `options`.
  std::string key = ws::random_key();
  std::vector<std::pair<std::string, std::string>> fields = {
      {"Host", u->host_header()}, {"Upgrade", "websocket"},  {"Connection", "Upgrade"},
      {"Sec-WebSocket-Key", key}, {"Sec-WebSocket-Version", "13"}, {"User-Agent", "a2a-conform"}};
  for (const auto& [name, value] : options.headers) {
    if (name.empty() || !wsio::clean_header_text(name) || name.find(':') != std::string::npos || !wsio::clean_header_text(value))
      return core::fail(core::ErrorKind::kInvalidArgument,
                        url + ": the header " + core::escape_bytes(name, 60) + " cannot be sent (CR, LF, NUL or ':' in it)");
    bool replaced = false;
    for (auto& f : fields) {
      if (wsio::iequals(f.first, name)) {
        f.second = value;
        replaced = true;
      }
    }
    if (!replaced) fields.emplace_back(name, value);
  }
  std::string req = "GET " + u->target + " HTTP/1.1\r\n";
  for (const auto& [name, value] : fields) req += name + ": " + value + "\r\n";
  req += "\r\n";

  auto fd = wsio::connect_tcp(*u, url, deadline);
  if (!fd) return core::fail(fd.error());
  auto impl = std::make_unique<Impl>(*fd, std::move(options));
  if (u->tls) {
    auto t = WsTls::handshake(*fd, u->host, impl->opt.insecure_tls, deadline);
    if (!t) {
      if (t.error().kind == core::ErrorKind::kTimeout)
        return core::fail(core::ErrorKind::kTimeout, url + ": " + t.error().message);
      return core::fail(core::ErrorKind::kIo, url + ": " + t.error().message);
    }
    impl->tls = std::move(*t);
  }
  auto upgrade_failed = [&](const core::Error& e) {
    if (e.kind == core::ErrorKind::kTimeout)
      return core::fail(core::ErrorKind::kTimeout, url + ": the WebSocket upgrade did not complete before the deadline");
    return core::fail(core::ErrorKind::kIo, url + ": the WebSocket upgrade failed: " + e.message);
  };
  if (auto w = impl->write_all(req, deadline); !w) return upgrade_failed(w.error());
  std::string in;
  size_t end = std::string::npos;
  while ((end = in.find("\r\n\r\n")) == std::string::npos) {  // bounded by kMaxUpgradeAnswer and the deadline
    if (in.size() >= wsio::kMaxUpgradeAnswer)
      return core::fail(core::ErrorKind::kProtocol, url + ": the upgrade answer's header is over " +
                                                        std::to_string(wsio::kMaxUpgradeAnswer >> 10) + " KiB");
    auto n = impl->read_some(in, wsio::kMaxUpgradeAnswer - in.size(), deadline);
    if (!n) return upgrade_failed(n.error());
    if (*n == 0)
      return core::fail(core::ErrorKind::kIo, url + ": the WebSocket upgrade failed: the peer closed the connection after " +
                                                  std::to_string(in.size()) + " bytes of its answer: " +
                                                  core::escape_bytes(in, 200));
  }
  auto ans = wsio::parse_answer(std::string_view(in).substr(0, end));
  if (!ans) return core::fail(core::ErrorKind::kProtocol, url + ": the WebSocket upgrade failed: " + ans.error().message);
  std::string rest = in.substr(end + 4);
  if (ans->status != 101) {
    // The refusal's body: its Content-Length (or up to EOF), at most kMaxRefusalBody, until the deadline.
    size_t want = wsio::kMaxRefusalBody;
    if (ans->has("Content-Length")) {
      std::string cl(ans->get("Content-Length"));
      char* stop = nullptr;
      unsigned long long v = std::strtoull(cl.c_str(), &stop, 10);
      if (!cl.empty() && stop && *stop == '\0') {
        want = static_cast<size_t>(std::min<unsigned long long>(v, wsio::kMaxRefusalBody));
      }
    }
    bool chunked = wsio::has_token(ans->get("Transfer-Encoding"), "chunked");
    auto last_chunk = [&] {  // the zero-size chunk that ends a chunked body
      return chunked && (rest.rfind("0\r\n", 0) == 0 || rest.find("\r\n0\r\n") != std::string::npos);
    };
    while (rest.size() < want && !last_chunk()) {  // bounded by `want` and the deadline
      auto n = impl->read_some(rest, want - rest.size(), deadline);
      if (!n || *n == 0) break;
    }
    if (rest.size() > want) rest.resize(want);
    if (chunked) rest = wsio::dechunk(rest);
    if (refusal) {
      refusal->status = ans->status;
      refusal->body = rest;
    }
    return core::fail(core::ErrorKind::kProtocol, url + ": the upgrade was declined: HTTP " + std::to_string(ans->status) +
                                                      " " + core::escape_bytes(rest, 200));
  }
  // §4.1, the client's checks of a 101.
  std::string bad;
  if (!wsio::has_token(ans->get("Upgrade"), "websocket"))
    bad = "Upgrade is " + core::escape_bytes(ans->get("Upgrade"), 60) + ", not websocket";
  else if (!wsio::has_token(ans->get("Connection"), "upgrade"))
    bad = "Connection is " + core::escape_bytes(ans->get("Connection"), 60) + ", without upgrade";
  else if (ans->get("Sec-WebSocket-Accept") != ws::accept_key(key))
    bad = "Sec-WebSocket-Accept is " + core::escape_bytes(ans->get("Sec-WebSocket-Accept"), 60) + ", not " +
          ws::accept_key(key) + " (the key's SHA-1, §4.2.2)";
  else if (ans->has("Sec-WebSocket-Extensions"))
    bad = "an extension the client did not ask for: " + core::escape_bytes(ans->get("Sec-WebSocket-Extensions"), 60);
  if (!bad.empty()) return core::fail(core::ErrorKind::kProtocol, url + ": the WebSocket upgrade failed: " + bad);
  impl->leftover = std::move(rest);
  Impl* p = impl.get();
  p->reader = std::thread([p] { p->read_loop(); });
  return std::unique_ptr<WsConnection>(new WsConnection(std::move(impl)));
}

core::Expected<void> WsConnection::send(std::string_view payload, bool text, core::Deadline deadline) {
  return impl_->write_frame(text ? "writing a text frame" : "writing a binary frame",
                            text ? ws::Opcode::kText : ws::Opcode::kBinary, payload, deadline);
}

core::Expected<void> WsConnection::ping(core::Deadline deadline) {
  return impl_->write_frame("writing a ping", ws::Opcode::kPing, "", deadline);
}

core::Expected<void> WsConnection::send_frame(uint8_t opcode, std::string_view payload, core::Deadline deadline) {
  auto op = static_cast<ws::Opcode>(opcode & 0x0F);
  ws::MaskKey mask = ws::random_mask();
  return impl_->write_bytes("writing a " + std::string(ws::to_string(op)) + " frame", op,
                            ws::encode_frame(op, payload, true, &mask), deadline);
}

std::optional<WsFrame> WsConnection::peek(const std::function<bool(const WsFrame&)>& pred, core::Deadline deadline) {
  Impl* p = impl_.get();
  std::unique_lock<std::mutex> lk(p->mu);
  for (;;) {  // each pass looks at the inbox, then waits for more until the deadline
    for (const auto& f : p->inbox)
      if (pred(f)) return f;
    if (p->is_closed || deadline.expired()) return std::nullopt;
    if (deadline.is_never()) p->cv.wait(lk);
    else p->cv.wait_until(lk, deadline.time());
  }
}

std::optional<std::string> WsConnection::take_pong(core::Deadline deadline) {
  Impl* p = impl_.get();
  std::unique_lock<std::mutex> lk(p->mu);
  auto ready = [p] { return !p->pongs.empty() || p->is_closed; };
  if (deadline.is_never()) p->cv.wait(lk, ready);
  else p->cv.wait_until(lk, deadline.time(), ready);
  if (p->pongs.empty()) return std::nullopt;
  std::string out = std::move(p->pongs.front());
  p->pongs.pop_front();
  return out;
}

std::optional<WsFrame> WsConnection::take(const std::function<bool(const WsFrame&)>& pred, core::Deadline deadline) {
  Impl* p = impl_.get();
  std::unique_lock<std::mutex> lk(p->mu);
  for (;;) {
    for (auto it = p->inbox.begin(); it != p->inbox.end(); ++it) {
      if (!pred(*it)) continue;
      WsFrame f = std::move(*it);
      p->inbox_bytes -= f.payload.size();
      p->inbox.erase(it);
      return f;
    }
    if (p->is_closed) return std::nullopt;
    if (deadline.is_never()) p->cv.wait(lk);
    else if (p->cv.wait_until(lk, deadline.time()) == std::cv_status::timeout && deadline.expired()) {
      for (auto it = p->inbox.begin(); it != p->inbox.end(); ++it) {
        if (!pred(*it)) continue;
        WsFrame f = std::move(*it);
        p->inbox_bytes -= f.payload.size();
        p->inbox.erase(it);
        return f;
      }
      return std::nullopt;
    }
  }
}

bool WsConnection::wait_closed(core::Deadline deadline) {
  Impl* p = impl_.get();
  std::unique_lock<std::mutex> lk(p->mu);
  auto done = [&] { return p->is_closed; };
  if (deadline.is_never()) {
    p->cv.wait(lk, done);
    return true;
  }
  return p->cv.wait_until(lk, deadline.time(), done);
}

std::string WsConnection::why() const { return impl_->why(); }
bool WsConnection::closed() const { return impl_->closed(); }
int WsConnection::close_code() const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return impl_->code;
}

size_t WsConnection::unconsumed() const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return impl_->inbox.size();
}

std::vector<WsFrame> WsConnection::pending(size_t max_frames) const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  std::vector<WsFrame> out;
  for (const auto& f : impl_->inbox) {
    if (out.size() >= max_frames) break;
    out.push_back(f);
  }
  return out;
}

void WsConnection::abort(const std::string& why) {
  Impl* p = impl_.get();
  p->runner_closing = true;
  p->finish(why);
  ::shutdown(p->fd, SHUT_RDWR);  // wakes the reader; close() or the destructor joins it
}

void WsConnection::close() {
  Impl* p = impl_.get();
  {
    std::lock_guard<std::mutex> lk(p->close_mu);
    if (p->shut) return;
    p->shut = true;
  }
  if (!p->reader.joinable()) return;
  if (!p->closed()) {
    // The closing handshake (§7.1.2), bounded: the peer gets 500 ms to answer it.
    p->runner_closing = true;
    (void)p->write_frame("writing a close frame", ws::Opcode::kClose, ws::close_payload(ws::kCloseNormal),
                         core::Deadline::after(wsio::kCloseWait));
    {
      std::unique_lock<std::mutex> lk(p->mu);
      p->cv.wait_for(lk, wsio::kCloseWait, [p] { return p->is_closed; });
    }
    p->finish("the connection was closed by the runner");
  }
  ::shutdown(p->fd, SHUT_RDWR);  // wakes the reader
  p->reader.join();
}

}  // namespace a2a::transport
