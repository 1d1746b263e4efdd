// A pipelined gRPC load client on nghttp2's client API, for bench/grpc_bench:
// C connections (h2c with prior knowledge, 127.0.0.1), W calls in flight on
// each, one thread, one poll loop. Each call is a POST with the gRPC headers
// and one length-prefixed request message; the answer's DATA is deframed and
// handed with its status and trailers to the caller's check. A call that
// ends is replaced at once (closed loop of W per connection), so the load
// generator costs a few µs a call instead of grpc++'s sync stub's ~40, and
// is not the bottleneck on a 2-core machine (docs/performance.md, "gRPC").
//
// Bounded: every loop is bounded in count and time; each call has a timeout
// (then RST_STREAM CANCEL), each run a hard deadline (its length plus the
// call timeout); a connection the agent closes or breaks (a read or write
// error, a session error, GOAWAY) fails its calls in flight and is not used
// again. Header-only: bench/ builds one executable per .cpp.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace a2a::bench {

// One gRPC call's answer as the client received it.
struct GrpcAnswer {
  int http_status = 0;
  std::string content_type;
  int grpc_status = -1;  // -1: no grpc-status (in the trailers or a trailers-only answer)
  std::string grpc_message;
  std::string body;                        // the DATA frames' bytes
  std::vector<std::string_view> messages;  // the messages in body, without their 5-byte prefix
  std::string framing_error;               // "" when body is whole length-prefixed messages

  void deframe() {
    messages.clear();
    size_t off = 0;
    // Bounded: each turn consumes at least the 5-byte prefix.
    while (off < body.size()) {
      if (body.size() - off < 5) {
        framing_error = "a truncated message prefix";
        return;
      }
      auto b = reinterpret_cast<const unsigned char*>(body.data() + off);
      if (b[0] != 0) {
        framing_error = "a message with compressed flag " + std::to_string(b[0]);
        return;
      }
      size_t len = (size_t{b[1]} << 24) | (size_t{b[2]} << 16) | (size_t{b[3]} << 8) | size_t{b[4]};
      if (body.size() - off - 5 < len) {
        framing_error = "a truncated message (" + std::to_string(len) + " bytes announced)";
        return;
      }
      messages.emplace_back(body.data() + off + 5, len);
      off += 5 + len;
    }
  }
};

// A request message framed for gRPC: the 5-byte prefix (uncompressed), then `message`.
inline std::string grpc_frame(const std::string& message) {
  std::string out(5, '\0');
  auto n = static_cast<uint32_t>(message.size());
  out[1] = static_cast<char>(n >> 24);
  out[2] = static_cast<char>(n >> 16);
  out[3] = static_cast<char>(n >> 8);
  out[4] = static_cast<char>(n);
  out += message;
  return out;
}

class GrpcH2Load {
 public:
  using Clock = std::chrono::steady_clock;
  // Builds call number `seq` (of this run): its :path and framed request.
  using MakeCall = std::function<void(long seq, std::string& path, std::string& framed)>;
  // Checks an answer: "" when it is right (and adds its events), else why not.
  using Check = std::function<std::string(const GrpcAnswer&, long long& events)>;

  struct Stats {
    long long ok = 0, failures = 0, events = 0;
    double seconds = 0;
    std::vector<double> latency_ms;    // one per successful call
    std::vector<std::string> samples;  // the first failures
  };

  static constexpr auto kCallTimeout = std::chrono::seconds(10);
  static constexpr long kMaxCallsPerRun = 50'000'000;
  static constexpr size_t kMaxAnswerBytes = 4u << 20;
  static constexpr long kMaxLoopTurns = 200'000'000;

  GrpcH2Load(uint16_t port, int connections, int window) : port_(port), window_(window) {
    conns_.resize(static_cast<size_t>(connections));
  }
  ~GrpcH2Load() {
    for (auto& c : conns_) close_conn(c);
  }
  GrpcH2Load(const GrpcH2Load&) = delete;
  GrpcH2Load& operator=(const GrpcH2Load&) = delete;

  // Opens the connections; "" or why not.
  std::string connect() {
    for (size_t k = 0; k < conns_.size(); ++k) {
      std::string err = open_conn(conns_[k], static_cast<int>(k));
      if (!err.empty()) return "connection " + std::to_string(k) + ": " + err;
    }
    return "";
  }

  // Keeps `window` calls in flight on every live connection for `seconds`,
  // then waits for the calls in flight (up to the call timeout).
  Stats run(double seconds, const MakeCall& make, const Check& check) {
    Stats st;
    st.latency_ms.reserve(1 << 18);
    stats_ = &st;
    make_ = &make;
    check_ = &check;
    seq_ = 0;
    auto t0 = Clock::now();
    end_ = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    auto hard = end_ + kCallTimeout;
    auto next_timeout_scan = t0 + std::chrono::milliseconds(100);
    std::vector<pollfd> fds(conns_.size());
    for (long turn = 0; turn < kMaxLoopTurns; ++turn) {
      auto now = Clock::now();
      if (now >= hard) break;
      bool any_in_flight = false, any_live = false;
      for (auto& c : conns_) {
        if (c.dead) continue;
        any_live = true;
        if (now < end_) top_up(c, now);
        flush(c);
        any_in_flight = any_in_flight || c.in_flight > 0;
      }
      if (!any_live || (!any_in_flight && now >= end_)) break;
      if (now >= next_timeout_scan) {
        expire_calls(now);
        next_timeout_scan = now + std::chrono::milliseconds(100);
      }
      for (size_t k = 0; k < conns_.size(); ++k) {
        auto& c = conns_[k];
        fds[k].fd = c.dead ? -1 : c.fd;
        fds[k].events = static_cast<short>(POLLIN | (c.out_off < c.out.size() ? POLLOUT : 0));
        fds[k].revents = 0;
      }
      int n = ::poll(fds.data(), fds.size(), 50);
      if (n < 0 && errno != EINTR) break;
      for (size_t k = 0; k < conns_.size(); ++k) {
        if (fds[k].fd < 0 || fds[k].revents == 0) continue;
        auto& c = conns_[k];
        if (fds[k].revents & (POLLIN | POLLHUP | POLLERR)) read_some(c);
        if (!c.dead && (fds[k].revents & POLLOUT)) flush(c);
      }
    }
    // Calls still open at the hard deadline: failures, and their connection is not used again.
    for (auto& c : conns_) {
      if (!c.dead && c.in_flight > 0) kill(c, "calls unanswered at the run's deadline");
    }
    st.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    stats_ = nullptr;
    return st;
  }

  int live_connections() const {
    int n = 0;
    for (const auto& c : conns_) n += c.dead ? 0 : 1;
    return n;
  }

 private:
  struct Conn;
  struct Call {
    Conn* conn = nullptr;
    bool busy = false;
    bool timed_out = false;
    int32_t stream_id = 0;
    std::string path, framed;
    size_t sent = 0;
    Clock::time_point started;
    GrpcAnswer answer;
  };
  struct Conn {
    GrpcH2Load* owner = nullptr;
    int index = 0;
    int fd = -1;
    nghttp2_session* session = nullptr;
    bool dead = true;
    int in_flight = 0;
    std::string out;
    size_t out_off = 0;
    std::vector<std::unique_ptr<Call>> calls;  // `window` slots, reused
  };

  std::string open_conn(Conn& c, int index) {
    c.owner = this;
    c.index = index;
    c.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (c.fd < 0) return std::string("socket: ") + std::strerror(errno);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port_);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval tv{10, 0};  // a blocking connect to 127.0.0.1, bounded anyway
    ::setsockopt(c.fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (::connect(c.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
      return std::string("connect: ") + std::strerror(errno);
    int one = 1;
    ::setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::fcntl(c.fd, F_SETFL, ::fcntl(c.fd, F_GETFL) | O_NONBLOCK);

    nghttp2_session_callbacks* cb = nullptr;
    if (nghttp2_session_callbacks_new(&cb) != 0) return "nghttp2_session_callbacks_new failed";
    nghttp2_session_callbacks_set_on_header_callback(cb, &GrpcH2Load::on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, &GrpcH2Load::on_data);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, &GrpcH2Load::on_close);
    int rv = nghttp2_session_client_new(&c.session, cb, &c);
    nghttp2_session_callbacks_del(cb);
    if (rv != 0) return std::string("nghttp2_session_client_new: ") + nghttp2_strerror(rv);
    nghttp2_settings_entry iv[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
                                   {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1u << 20}};
    nghttp2_submit_settings(c.session, NGHTTP2_FLAG_NONE, iv, 2);
    nghttp2_session_set_local_window_size(c.session, NGHTTP2_FLAG_NONE, 0, 1 << 24);
    c.calls.clear();
    for (int i = 0; i < window_; ++i) {
      c.calls.push_back(std::make_unique<Call>());
      c.calls.back()->conn = &c;
    }
    c.dead = false;
    flush(c);
    return c.dead ? "the session could not send its preface" : "";
  }

  void close_conn(Conn& c) {
    if (c.session) nghttp2_session_del(c.session);  // may call on_close: stats_ is null then
    c.session = nullptr;
    if (c.fd >= 0) ::close(c.fd);
    c.fd = -1;
    c.dead = true;
  }

  void sample(std::string why) {
    if (stats_ && stats_->samples.size() < 5) stats_->samples.push_back(std::move(why));
  }

  // A broken connection: its calls in flight fail, it is not used again.
  void kill(Conn& c, const std::string& why) {
    if (c.dead) return;
    if (stats_) {
      stats_->failures += c.in_flight;
      sample("connection " + std::to_string(c.index) + ": " + why + " (" + std::to_string(c.in_flight) +
             " calls in flight)");
    }
    for (auto& call : c.calls) call->busy = false;
    c.in_flight = 0;
    nghttp2_session_del(c.session);  // its close callbacks find no busy call
    c.session = nullptr;
    ::close(c.fd);
    c.fd = -1;
    c.dead = true;
  }

  void top_up(Conn& c, Clock::time_point now) {
    for (auto& slot : c.calls) {
      if (c.in_flight >= window_ || seq_ >= kMaxCallsPerRun) return;
      Call& call = *slot;
      if (call.busy) continue;
      call.path.clear();
      call.framed.clear();
      (*make_)(seq_++, call.path, call.framed);
      call.sent = 0;
      call.timed_out = false;
      call.answer = GrpcAnswer{};
      call.started = now;
      std::string authority = "127.0.0.1:" + std::to_string(port_);
      auto nv = [](const char* name, const std::string& value) {
        return nghttp2_nv{reinterpret_cast<uint8_t*>(const_cast<char*>(name)),
                          reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), std::strlen(name),
                          value.size(), NGHTTP2_NV_FLAG_NONE};
      };
      static const std::string kPost = "POST", kHttp = "http", kGrpc = "application/grpc", kTrailers = "trailers",
                               kVersion = "1.0", kTimeout = "10S", kAgent = "a2a-grpc-bench";
      nghttp2_nv hdrs[] = {nv(":method", kPost),          nv(":scheme", kHttp),
                           nv(":path", call.path),        nv(":authority", authority),
                           nv("content-type", kGrpc),     nv("te", kTrailers),
                           nv("a2a-version", kVersion),   nv("grpc-timeout", kTimeout),
                           nv("user-agent", kAgent)};
      nghttp2_data_provider prd{};
      prd.source.ptr = &call;
      prd.read_callback = &GrpcH2Load::read_body;
      int32_t id = nghttp2_submit_request(c.session, nullptr, hdrs, sizeof hdrs / sizeof hdrs[0], &prd, &call);
      if (id < 0) {
        kill(c, std::string("nghttp2_submit_request: ") + nghttp2_strerror(id));
        return;
      }
      call.stream_id = id;
      call.busy = true;
      ++c.in_flight;
    }
  }

  // Sends what the session has, coalesced into one write of up to 64 KiB.
  void flush(Conn& c) {
    for (int turn = 0; turn < 1024 && !c.dead; ++turn) {
      if (c.out_off < c.out.size()) {
        ssize_t w = ::send(c.fd, c.out.data() + c.out_off, c.out.size() - c.out_off, MSG_NOSIGNAL);
        if (w < 0) {
          if (errno == EAGAIN || errno == EWOULDBLOCK) return;  // POLLOUT
          if (errno == EINTR) continue;
          kill(c, std::string("send: ") + std::strerror(errno));
          return;
        }
        c.out_off += static_cast<size_t>(w);
        if (c.out_off < c.out.size()) return;
      }
      c.out.clear();
      c.out_off = 0;
      for (int k = 0; k < 4096 && c.out.size() < (64u << 10); ++k) {
        const uint8_t* data = nullptr;
        ssize_t n = nghttp2_session_mem_send(c.session, &data);
        if (n < 0) {
          kill(c, std::string("nghttp2_session_mem_send: ") + nghttp2_strerror(static_cast<int>(n)));
          return;
        }
        if (n == 0) break;
        c.out.append(reinterpret_cast<const char*>(data), static_cast<size_t>(n));
      }
      if (c.out.empty()) {
        if (!nghttp2_session_want_read(c.session) && !nghttp2_session_want_write(c.session))
          kill(c, "the session ended (GOAWAY)");
        return;
      }
    }
  }

  void read_some(Conn& c) {
    char buf[65536];
    for (int turn = 0; turn < 16 && !c.dead; ++turn) {
      ssize_t r = ::recv(c.fd, buf, sizeof buf, 0);
      if (r < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return;
        if (errno == EINTR) continue;
        kill(c, std::string("recv: ") + std::strerror(errno));
        return;
      }
      if (r == 0) {
        kill(c, "the agent closed the connection");
        return;
      }
      ssize_t used = nghttp2_session_mem_recv(c.session, reinterpret_cast<const uint8_t*>(buf), static_cast<size_t>(r));
      if (used < 0) {
        kill(c, std::string("nghttp2_session_mem_recv: ") + nghttp2_strerror(static_cast<int>(used)));
        return;
      }
      // New calls go out with the acknowledgements of the ended ones.
      if (Clock::now() < end_) top_up(c, Clock::now());
      flush(c);
      if (static_cast<size_t>(r) < sizeof buf) return;
    }
  }

  void expire_calls(Clock::time_point now) {
    for (auto& c : conns_) {
      if (c.dead) continue;
      for (auto& slot : c.calls) {
        Call& call = *slot;
        if (call.busy && !call.timed_out && now - call.started > kCallTimeout) {
          call.timed_out = true;
          nghttp2_submit_rst_stream(c.session, NGHTTP2_FLAG_NONE, call.stream_id, NGHTTP2_CANCEL);
        }
      }
      flush(c);
    }
  }

  static Call* call_of(nghttp2_session* s, int32_t stream_id) {
    auto* call = static_cast<Call*>(nghttp2_session_get_stream_user_data(s, stream_id));
    return call && call->busy ? call : nullptr;
  }

  static ssize_t read_body(nghttp2_session*, int32_t, uint8_t* buf, size_t length, uint32_t* flags,
                           nghttp2_data_source* source, void*) {
    auto* call = static_cast<Call*>(source->ptr);
    size_t n = std::min(length, call->framed.size() - call->sent);
    std::memcpy(buf, call->framed.data() + call->sent, n);
    call->sent += n;
    if (call->sent == call->framed.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }

  static int on_header(nghttp2_session* s, const nghttp2_frame* frame, const uint8_t* name, size_t namelen,
                       const uint8_t* value, size_t valuelen, uint8_t, void*) {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    Call* call = call_of(s, frame->hd.stream_id);
    if (!call) return 0;
    std::string_view n(reinterpret_cast<const char*>(name), namelen);
    std::string_view v(reinterpret_cast<const char*>(value), valuelen);
    GrpcAnswer& a = call->answer;
    if (n == ":status") {
      a.http_status = std::atoi(std::string(v).c_str());
    } else if (n == "content-type") {
      a.content_type = v;
    } else if (n == "grpc-status") {
      a.grpc_status = std::atoi(std::string(v).c_str());
    } else if (n == "grpc-message") {
      a.grpc_message = v;
    }
    return 0;
  }

  static int on_data(nghttp2_session* s, uint8_t, int32_t stream_id, const uint8_t* data, size_t len, void*) {
    Call* call = call_of(s, stream_id);
    if (!call) return 0;
    if (call->answer.body.size() + len > kMaxAnswerBytes) {
      if (call->answer.framing_error.empty()) {
        call->answer.framing_error = "an answer above " + std::to_string(kMaxAnswerBytes) + " bytes";
        nghttp2_submit_rst_stream(s, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_CANCEL);
      }
      return 0;
    }
    call->answer.body.append(reinterpret_cast<const char*>(data), len);
    return 0;
  }

  static int on_close(nghttp2_session* s, int32_t stream_id, uint32_t error_code, void* user) {
    auto* c = static_cast<Conn*>(user);
    Call* call = call_of(s, stream_id);
    if (!call) return 0;
    call->busy = false;
    --c->in_flight;
    GrpcH2Load* self = c->owner;
    Stats* st = self->stats_;
    if (!st) return 0;
    GrpcAnswer& a = call->answer;
    std::string err;
    if (call->timed_out) {
      err = "no answer within " + std::to_string(kCallTimeout.count()) + " s";
    } else if (!a.framing_error.empty()) {
      err = a.framing_error;
    } else if (error_code != NGHTTP2_NO_ERROR) {
      err = std::string("the stream was reset: ") + nghttp2_http2_strerror(error_code);
    } else if (a.http_status != 200) {
      err = "HTTP status " + std::to_string(a.http_status);
    } else if (a.content_type.rfind("application/grpc", 0) != 0) {
      err = "content-type '" + a.content_type + "'";
    } else if (a.grpc_status != 0) {
      err = a.grpc_status < 0 ? std::string("no grpc-status")
                              : "grpc-status " + std::to_string(a.grpc_status) + ": " + a.grpc_message;
    } else {
      a.deframe();
      err = a.framing_error.empty() ? (*self->check_)(a, st->events) : a.framing_error;
    }
    if (err.empty()) {
      ++st->ok;
      st->latency_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - call->started).count());
    } else {
      ++st->failures;
      self->sample(std::move(err));
    }
    return 0;
  }

  uint16_t port_;
  int window_;
  std::vector<Conn> conns_;
  Stats* stats_ = nullptr;
  const MakeCall* make_ = nullptr;
  const Check* check_ = nullptr;
  long seq_ = 0;
  Clock::time_point end_{};
};

}  // namespace a2a::bench
