// The agent's own HTTP/2 server (h2_server.hpp) against hostile or odd
// peers that speak raw HTTP/2 bytes written here by hand (frames, HPACK
// literals without Huffman or indexing), so no encoder of ours is on the
// sending side; the server's header blocks are read with nghttp2's HPACK
// inflater. Each test asserts the exact answer, then that the agent still
// serves a real gRPC client on a new connection. docs/grpc.md, "Our own
// HTTP/2 server".
#include <arpa/inet.h>
#include <netinet/in.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "peers/a2a-ref-agent/grpc/grpc_test_support.hpp"
#include "peers/a2a-ref-agent/grpc/h2_server.hpp"
#include "runner/transport/transport_test_util.hpp"

namespace a2a::agent::testing {
namespace h2raw {

struct Frame {
  uint8_t type = 0;
  uint8_t flags = 0;
  int32_t stream = 0;
  std::string payload;
};

constexpr uint8_t kData = 0, kHeaders = 1, kRst = 3, kSettings = 4, kGoaway = 7, kWindowUpdate = 8;
constexpr uint8_t kEndStream = 1, kEndHeaders = 4;

std::string frame(uint8_t type, uint8_t flags, int32_t stream, const std::string& payload) {
  std::string f;
  size_t n = payload.size();
  f.push_back(static_cast<char>((n >> 16) & 0xff));
  f.push_back(static_cast<char>((n >> 8) & 0xff));
  f.push_back(static_cast<char>(n & 0xff));
  f.push_back(static_cast<char>(type));
  f.push_back(static_cast<char>(flags));
  f.push_back(static_cast<char>((stream >> 24) & 0x7f));
  f.push_back(static_cast<char>((stream >> 16) & 0xff));
  f.push_back(static_cast<char>((stream >> 8) & 0xff));
  f.push_back(static_cast<char>(stream & 0xff));
  return f + payload;
}

// HPACK "literal header field without indexing, new name", no Huffman (lengths < 127).
std::string literal(const std::string& name, const std::string& value) {
  std::string b;
  b.push_back(0);
  b.push_back(static_cast<char>(name.size()));
  b += name;
  b.push_back(static_cast<char>(value.size()));
  b += value;
  return b;
}

std::string preface(const std::string& settings_payload = "") {
  return std::string("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") + frame(kSettings, 0, 0, settings_payload);
}

std::string setting(uint16_t id, uint32_t value) {
  std::string s;
  s.push_back(static_cast<char>(id >> 8));
  s.push_back(static_cast<char>(id & 0xff));
  for (int shift = 24; shift >= 0; shift -= 8) s.push_back(static_cast<char>((value >> shift) & 0xff));
  return s;
}

std::string request_headers(int32_t stream, const std::string& method, bool end_stream,
                            std::vector<std::pair<std::string, std::string>> extra = {},
                            const std::string& content_type = "application/grpc") {
  std::string block = literal(":method", "POST") + literal(":scheme", "http") +
                      literal(":path", "/lf.a2a.v1.A2AService/" + method) + literal(":authority", "127.0.0.1") +
                      literal("content-type", content_type) + literal("te", "trailers") +
                      literal("a2a-version", "1.0");
  for (const auto& [k, v] : extra) block += literal(k, v);
  return frame(kHeaders, kEndHeaders | (end_stream ? kEndStream : 0), stream, block);
}

std::string grpc_message(const std::string& bytes, uint32_t declared) {
  std::string m(1, '\0');
  for (int shift = 24; shift >= 0; shift -= 8) m.push_back(static_cast<char>((declared >> shift) & 0xff));
  return m + bytes;
}

std::string request_bytes(model::Operation op, const Json& request) {
  auto b = grpcwire::json_to_binary(*grpcwire::method_of(op).input_type(), request);
  EXPECT_TRUE(b);
  return b ? *b : "";
}

std::string window_update(int32_t stream, uint32_t increment) {
  std::string p;
  for (int shift = 24; shift >= 0; shift -= 8) p.push_back(static_cast<char>((increment >> shift) & 0xff));
  return frame(kWindowUpdate, 0, stream, p);
}

class H2Peer {
 public:
  // `rcvbuf` > 0: the socket's SO_RCVBUF, set before connecting.
  explicit H2Peer(uint16_t port, int rcvbuf = 0) {
    fd_ = transport::testing::connect_loopback(port, rcvbuf);
    EXPECT_GE(fd_, 0);
    nghttp2_hd_inflate_new(&inflater_);
  }
  ~H2Peer() {
    if (fd_ >= 0) ::close(fd_);
    nghttp2_hd_inflate_del(inflater_);
  }
  int fd() const { return fd_; }

  void send(const std::string& bytes) {
    size_t off = 0;
    while (off < bytes.size()) {
      ssize_t n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return;  // the server may have closed: what it sent is still read
      off += static_cast<size_t>(n);
    }
  }

  // The next frame, or nullopt at EOF or when `within` passes (closed() tells which).
  std::optional<Frame> next(std::chrono::milliseconds within = std::chrono::milliseconds(5000)) {
    auto until = std::chrono::steady_clock::now() + within;
    while (buf_.size() < 9 || buf_.size() < 9 + frame_len()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
      if (left.count() <= 0 || eof_) return std::nullopt;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char tmp[16384];
      ssize_t n = ::recv(fd_, tmp, sizeof tmp, 0);
      if (n <= 0) {
        eof_ = true;
        continue;
      }
      buf_.append(tmp, static_cast<size_t>(n));
    }
    Frame f;
    size_t len = frame_len();
    f.type = static_cast<uint8_t>(buf_[3]);
    f.flags = static_cast<uint8_t>(buf_[4]);
    f.stream = ((static_cast<uint8_t>(buf_[5]) & 0x7f) << 24) | (static_cast<uint8_t>(buf_[6]) << 16) |
               (static_cast<uint8_t>(buf_[7]) << 8) | static_cast<uint8_t>(buf_[8]);
    f.payload = buf_.substr(9, len);
    buf_.erase(0, 9 + len);
    return f;
  }
  bool closed() const { return eof_; }

  // A HEADERS frame's fields (END_HEADERS assumed: the server sends no CONTINUATION for these).
  std::multimap<std::string, std::string> fields(const Frame& f) {
    std::multimap<std::string, std::string> out;
    const auto* in = reinterpret_cast<const uint8_t*>(f.payload.data());
    size_t left = f.payload.size();
    if (f.flags & 0x8) {  // PADDED
      size_t pad = in[0];
      ++in;
      left -= 1 + pad;
    }
    if (f.flags & 0x20) {  // PRIORITY
      in += 5;
      left -= 5;
    }
    for (;;) {
      nghttp2_nv nv;
      int flags = 0;
      ssize_t used = nghttp2_hd_inflate_hd2(inflater_, &nv, &flags, in, left, 1);
      if (used < 0) {
        ADD_FAILURE() << "bad HPACK from the server";
        return out;
      }
      in += used;
      left -= static_cast<size_t>(used);
      if (flags & NGHTTP2_HD_INFLATE_EMIT)
        out.emplace(std::string(reinterpret_cast<char*>(nv.name), nv.namelen),
                    std::string(reinterpret_cast<char*>(nv.value), nv.valuelen));
      if (flags & NGHTTP2_HD_INFLATE_FINAL) {
        nghttp2_hd_inflate_end_headers(inflater_);
        return out;
      }
      if (used == 0 && !(flags & NGHTTP2_HD_INFLATE_EMIT)) return out;
    }
  }

  // Frames until one on `stream` of `type` (HEADERS blocks are all decoded on the way, as HPACK needs).
  std::optional<Frame> until(uint8_t type, int32_t stream, std::multimap<std::string, std::string>* headers = nullptr,
                             int max_frames = 10000) {
    for (int i = 0; i < max_frames; ++i) {
      auto f = next();
      if (!f) return std::nullopt;
      std::multimap<std::string, std::string> h;
      if (f->type == kHeaders) h = fields(*f);
      if (f->type == type && (stream < 0 || f->stream == stream)) {
        if (headers) *headers = std::move(h);
        return f;
      }
    }
    return std::nullopt;
  }

  // Every frame that arrives for `within` (at most 100; HEADERS blocks
  // decoded on the way, as HPACK needs), until EOF: what a test that
  // expects nothing in particular (no reset, no GOAWAY) looks through.
  std::vector<Frame> frames_for(std::chrono::milliseconds within) {
    std::vector<Frame> seen;
    auto until = std::chrono::steady_clock::now() + within;
    for (int i = 0; i < 100; ++i) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      auto f = next(left);
      if (!f) break;
      if (f->type == kHeaders) fields(*f);
      seen.push_back(std::move(*f));
    }
    return seen;
  }

 private:
  size_t frame_len() const {
    return (static_cast<size_t>(static_cast<uint8_t>(buf_[0])) << 16) |
           (static_cast<size_t>(static_cast<uint8_t>(buf_[1])) << 8) | static_cast<uint8_t>(buf_[2]);
  }
  int fd_ = -1;
  std::string buf_;
  bool eof_ = false;
  nghttp2_hd_inflater* inflater_ = nullptr;
};

uint32_t error_code_of(const Frame& rst) {
  const auto* p = reinterpret_cast<const uint8_t*>(rst.payload.data());
  return rst.payload.size() < 4 ? 0xffffffff : (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

// The agent still answers a real gRPC client on a new connection.
void expect_serving(uint16_t port) {
  GrpcClient client(port);
  auto r = client.call(model::Operation::kSendMessage, send_params("still there?"));
  EXPECT_EQ(r.code, grpc::StatusCode::OK) << r.message;
}

// A GOAWAY frame's last stream id and error code.
uint32_t goaway_last(const Frame& g) { return error_code_of(g) & 0x7fffffffu; }
uint32_t goaway_code(const Frame& g) { return g.payload.size() < 8 ? 0xffffffff : error_code_of(Frame{0, 0, 0, g.payload.substr(4)}); }

// Polls `done` every 10 ms until it holds or `within` passes; whether it held.
bool await(const std::function<bool()>& done, std::chrono::milliseconds within = std::chrono::milliseconds(5000)) {
  auto until = std::chrono::steady_clock::now() + within;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Reads frames until EOF (true) or until none comes for `within` (false).
bool reads_to_eof(H2Peer& c, std::chrono::milliseconds within = std::chrono::milliseconds(5000)) {
  for (int i = 0; i < 10000; ++i) {
    auto f = c.next(within);
    if (!f) return c.closed();
    if (f->type == kHeaders) c.fields(*f);  // keeps the HPACK table in step
  }
  return false;
}

// The transport alone: an h2::Server whose reactors answer a request's
// message with the same bytes, "big" with kBigAnswer bytes, and keep "hold"
// unanswered until release_held(). The tests of the transport's bounds use
// it with options of their own (short timeouts, small bounds).
constexpr size_t kBigAnswer = 128 << 10;
struct BareServer;

class BareReactor : public h2::Reactor {
 public:
  BareReactor(BareServer& server, h2::CallHandle call) : server_(server), call_(std::move(call)) {}
  void on_read_done(bool ok) override;
  void on_write_done(bool) override {}
  void on_cancel() override;
  void on_done() override;

 private:
  void end(grpcwire::WireStatus st) {
    if (ended_) return;
    ended_ = true;
    call_.finish(std::move(st));
  }
  BareServer& server_;
  h2::CallHandle call_;
  bool ended_ = false;
};

std::string framed_answer(std::string_view bytes) { return std::string(h2::kFrameRoom, '\0') + std::string(bytes); }

struct BareServer {
  explicit BareServer(h2::ServerOptions o) {
    auto s = h2::Server::start(std::move(o), [this](h2::CallHandle call) -> h2::Reactor* {
      started.fetch_add(1);
      return new BareReactor(*this, std::move(call));
    });
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().str());
    if (s.ok()) server = std::move(*s);
  }
  ~BareServer() {
    if (server) server->stop();
  }
  uint16_t port() const { return server ? server->port() : 0; }
  h2::ServerStats stats() const { return server ? server->stats() : h2::ServerStats{}; }
  size_t held_count() {
    std::lock_guard<std::mutex> lk(mu);
    return held.size();
  }
  // Answers the held calls ("held", OK) from this thread, as a worker would.
  void release_held() {
    std::lock_guard<std::mutex> lk(mu);
    for (auto& h : held) h.write_and_finish(framed_answer("held"), {grpcwire::kOk, "", ""});
    held.clear();
  }

  std::atomic<int> started{0};  // reactors made
  std::atomic<int> cancels{0};  // on_cancel heard
  std::atomic<int> done{0};     // on_done heard
  std::mutex mu;
  std::vector<h2::CallHandle> held;
  std::unique_ptr<h2::Server> server;
};

void BareReactor::on_cancel() {
  server_.cancels.fetch_add(1);
  end({grpcwire::kCancelled, "cancelled", ""});
}

void BareReactor::on_done() {
  server_.done.fetch_add(1);
  delete this;
}

void BareReactor::on_read_done(bool ok) {
  if (!ok) return end({grpcwire::kInvalidArgument, "no request message", ""});
  std::string_view req = call_.request();
  if (req == "hold") {  // release_held() ends it, or on_cancel (the server's stop)
    std::lock_guard<std::mutex> lk(server_.mu);
    server_.held.push_back(call_);
    return;
  }
  ended_ = true;
  call_.write_and_finish(framed_answer(req == "big" ? std::string(kBigAnswer, 'b') : std::string(req)),
                         {grpcwire::kOk, "", ""});
}

// A real gRPC client gets its echo from the bare server on a new connection.
void expect_bare_serving(uint16_t port) {
  GrpcClient client(port);
  std::string answer;
  auto r = client.raw("/test.Bare/Echo", "still there?", kV1Md, core::Millis(8000), &answer);
  EXPECT_EQ(r.code, grpc::StatusCode::OK) << r.message;
  EXPECT_EQ(answer, "still there?");
}

}  // namespace h2raw

namespace {

using namespace h2raw;
using model::Operation;

TEST(H2Server, AGarbagePrefaceGetsGoawayAndTheConnectionCloses) {
  GrpcFixture f;
  H2Peer c(f.server->port());
  c.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  auto g = c.until(kGoaway, 0);
  ASSERT_TRUE(g) << "no GOAWAY";
  EXPECT_EQ(error_code_of(Frame{0, 0, 0, g->payload.substr(4)}), 1u);  // PROTOCOL_ERROR
  while (c.next()) {
  }
  EXPECT_TRUE(c.closed());
  expect_serving(f.server->port());
}

TEST(H2Server, AHugeLengthPrefixIsResourceExhausted) {
  GrpcFixture f;
  H2Peer c(f.server->port());
  c.send(preface() + request_headers(1, "GetTask", false) +
         frame(kData, 0, 1, grpc_message("abc", 0x7fffffffu)));
  std::multimap<std::string, std::string> h;
  ASSERT_TRUE(c.until(kHeaders, 1, &h));
  EXPECT_EQ(h.find(":status")->second, "200");
  ASSERT_EQ(h.count("grpc-status"), 1u);
  EXPECT_EQ(h.find("grpc-status")->second, "8");
  expect_serving(f.server->port());
}

TEST(H2Server, ACompressedMessageWithoutEncodingIsUnimplemented) {
  GrpcFixture f;
  H2Peer c(f.server->port());
  std::string m = grpc_message("abc", 3);
  m[0] = 1;
  c.send(preface() + request_headers(1, "GetTask", false, {{"grpc-encoding", "gzip"}}) +
         frame(kData, kEndStream, 1, m));
  std::multimap<std::string, std::string> h;
  ASSERT_TRUE(c.until(kHeaders, 1, &h));
  ASSERT_EQ(h.count("grpc-status"), 1u);
  EXPECT_EQ(h.find("grpc-status")->second, "12");
}

TEST(H2Server, ANonGrpcContentTypeIsHttp415) {
  GrpcFixture f;
  H2Peer c(f.server->port());
  c.send(preface() + request_headers(1, "GetTask", true, {}, "application/json"));
  std::multimap<std::string, std::string> h;
  ASSERT_TRUE(c.until(kHeaders, 1, &h));
  EXPECT_EQ(h.find(":status")->second, "415");
  EXPECT_EQ(h.count("grpc-status"), 0u);
}

TEST(H2Server, StreamsBeyondTheLimitAreRefused) {
  GrpcFixture f;
  H2Peer c(f.server->port());
  // 1100 requests whose message never comes: each holds a stream open.
  std::string burst = preface();
  for (int i = 0; i < 1100; ++i) burst += request_headers(1 + 2 * i, "GetTask", false);
  c.send(burst);
  auto rst = c.until(kRst, -1);
  ASSERT_TRUE(rst) << "no stream was refused";
  EXPECT_EQ(error_code_of(*rst), 7u);  // REFUSED_STREAM
  EXPECT_GT(rst->stream, 2 * 1024 - 1);  // the first 1024 were accepted
  expect_serving(f.server->port());
}

TEST(H2Server, AnExpiredGrpcTimeoutIsDeadlineExceeded) {
  GrpcFixture f;  // tck-cancel blocks the send until --max-block-ms (3 s in fast_config)
  H2Peer c(f.server->port());
  std::string req = request_bytes(Operation::kSendMessage, send_params("tck-cancel block"));
  c.send(preface() + request_headers(1, "SendMessage", false, {{"grpc-timeout", "200m"}}) +
         frame(kData, kEndStream, 1, grpc_message(req, static_cast<uint32_t>(req.size()))));
  std::multimap<std::string, std::string> h;
  ASSERT_TRUE(c.until(kHeaders, 1, &h));
  ASSERT_EQ(h.count("grpc-status"), 1u);
  EXPECT_EQ(h.find("grpc-status")->second, "4");
  expect_serving(f.server->port());
}

TEST(H2Server, AClientResetMidStreamEndsItAndTheAgentGoesOn) {
  GrpcFixture f;
  H2Peer c(f.server->port());
  std::string req = request_bytes(Operation::kSendStreamingMessage, send_params("tck-cancel open"));
  c.send(preface() + request_headers(1, "SendStreamingMessage", false) +
         frame(kData, kEndStream, 1, grpc_message(req, static_cast<uint32_t>(req.size()))));
  std::multimap<std::string, std::string> h;
  ASSERT_TRUE(c.until(kHeaders, 1, &h));
  EXPECT_EQ(h.find(":status")->second, "200");
  ASSERT_TRUE(c.until(kData, 1));  // the first event
  c.send(frame(kRst, 0, 1, std::string("\0\0\0\x08", 4)));  // CANCEL
  expect_serving(f.server->port());
  // The worker that followed the stream has let go: stop() does not wait for it.
  f.client.reset();
  f.server->stop();
}

TEST(H2Server, AClientThatNeverReadsIsCutOffAtTheStreamLimit) {
  AgentConfig config = fast_config();
  AgentCore core(config);
  GrpcAgentOptions o;
  o.log_fd = -1;
  o.max_stream = core::Millis(500);
  auto server = GrpcAgent::start(o);
  ASSERT_TRUE(server.ok());
  (*server)->attach(core);
  H2Peer c((*server)->port());
  // A flow-control window of 0: no DATA can ever be sent to this client.
  std::string req = request_bytes(Operation::kSendStreamingMessage, send_params("tck-cancel open"));
  c.send(preface(setting(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 0)) +
         request_headers(1, "SendStreamingMessage", false) +
         frame(kData, kEndStream, 1, grpc_message(req, static_cast<uint32_t>(req.size()))));
  auto rst = c.until(kRst, 1);
  ASSERT_TRUE(rst) << "the stream was not cut off";
  EXPECT_EQ(error_code_of(*rst), 8u);  // CANCEL
  expect_serving((*server)->port());
  (*server)->stop();
}

TEST(H2Server, StopSendsGoawayAndClosesTheConnection) {
  GrpcFixture f;
  H2Peer c(f.server->port());
  c.send(preface());
  ASSERT_TRUE(c.until(kSettings, 0));
  std::thread stopper([&] { f.server->stop(); });
  auto g = c.until(kGoaway, 0);
  EXPECT_TRUE(g) << "no GOAWAY at stop";
  if (g) EXPECT_EQ(error_code_of(Frame{0, 0, 0, g->payload.substr(4)}), 0u);  // NO_ERROR
  while (c.next()) {
  }
  EXPECT_TRUE(c.closed());
  stopper.join();
}

using std::chrono::milliseconds;

h2::ServerOptions bare_options() {
  h2::ServerOptions o;
  o.preface_timeout = milliseconds(200);
  o.idle_timeout = milliseconds(200);
  o.goaway_linger = milliseconds(200);
  return o;
}

// Waits for the server's SETTINGS and its connection WINDOW_UPDATE (kWindow),
// so what the client sends next stays within the windows it was told of.
void await_windows(H2Peer& c) {
  ASSERT_TRUE(c.until(kSettings, 0)) << "no SETTINGS";
  ASSERT_TRUE(c.until(kWindowUpdate, 0)) << "no connection WINDOW_UPDATE";
  c.send(frame(kSettings, 1, 0, ""));  // ACK
}

TEST(H2Server, AConnectionWithoutAPrefaceIsClosedAtThePrefaceTimeout) {
  BareServer b(bare_options());
  H2Peer silent(b.port());
  H2Peer partial(b.port());
  partial.send("PRI * HTTP/2.0\r\n");  // half the client preface, then nothing
  for (H2Peer* c : {&silent, &partial}) {
    bool goaway = false;  // before the preface none is needed: the server just closes
    for (int i = 0; i < 10; ++i) {
      auto f = c->next();
      if (!f) break;
      goaway = goaway || f->type == kGoaway;
    }
    EXPECT_TRUE(c->closed()) << "still open after the preface timeout";
    EXPECT_FALSE(goaway);
  }
  EXPECT_TRUE(await([&] { return b.stats().connections == 0; }));
  EXPECT_EQ(b.stats().preface_timeouts, 2u);
  expect_bare_serving(b.port());
}

TEST(H2Server, AnIdleConnectionGetsGoawayNoErrorThenEof) {
  BareServer b(bare_options());
  H2Peer c(b.port());
  c.send(preface());
  auto g = c.until(kGoaway, 0);
  ASSERT_TRUE(g) << "no GOAWAY after the idle timeout";
  EXPECT_EQ(goaway_code(*g), 0u);  // NO_ERROR
  EXPECT_EQ(goaway_last(*g), 0u);  // no stream was processed
  EXPECT_TRUE(reads_to_eof(c)) << "the connection was not closed after its GOAWAY";
  EXPECT_EQ(b.stats().idle_goaways, 1u);
  EXPECT_EQ(b.stats().preface_timeouts, 0u);
  expect_bare_serving(b.port());
}

TEST(H2Server, AClientClosingAfterTheIdleGoawayEndsTheLingerAtOnce) {
  h2::ServerOptions o = bare_options();
  o.goaway_linger = milliseconds(60000);  // only the client's close can end the connection in time
  BareServer b(o);
  {
    H2Peer c(b.port());
    c.send(preface());
    ASSERT_TRUE(c.until(kGoaway, 0));
  }  // closed
  EXPECT_TRUE(await([&] { return b.stats().connections == 0; })) << "the server kept the closed connection";
}

TEST(H2Server, ASilentOpenStreamKeepsItsConnectionPastTheIdleTimeout) {
  h2::ServerOptions o = bare_options();
  BareServer b(o);
  H2Peer c(b.port());
  c.send(preface() + request_headers(1, "Hold", false) + frame(kData, kEndStream, 1, grpc_message("hold", 4)));
  ASSERT_TRUE(await([&] { return b.held_count() == 1; })) << "the call never reached its reactor";
  // Three idle timeouts and more with the stream open and nothing on the
  // wire: no GOAWAY, no close.
  for (const Frame& f : c.frames_for(3 * o.idle_timeout + milliseconds(200)))
    EXPECT_NE(f.type, kGoaway) << "GOAWAY while a stream was open";
  ASSERT_FALSE(c.closed()) << "closed while a stream was open";
  EXPECT_EQ(b.stats().idle_goaways, 0u);
  // The call is answered on the same connection...
  b.release_held();
  std::multimap<std::string, std::string> h;
  ASSERT_TRUE(c.until(kHeaders, 1, &h));
  EXPECT_EQ(h.find(":status")->second, "200");
  auto d = c.until(kData, 1);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->payload, grpc_message("held", 4));
  ASSERT_TRUE(c.until(kHeaders, 1, &h));
  ASSERT_EQ(h.count("grpc-status"), 1u);
  EXPECT_EQ(h.find("grpc-status")->second, "0");
  // ...and with its stream closed (both sides ended) the connection is idle
  // from then: GOAWAY naming stream 1 as the last processed, then EOF.
  auto g = c.until(kGoaway, 0);
  ASSERT_TRUE(g) << "no GOAWAY once the stream ended";
  EXPECT_EQ(goaway_code(*g), 0u);
  EXPECT_EQ(goaway_last(*g), 1u);
  EXPECT_TRUE(reads_to_eof(c));
}

TEST(H2Server, TimedOutConnectionsGiveTheirSlotsBack) {
  h2::ServerOptions o;
  o.max_connections = 2;
  // Long enough for the third connection below to find both slots taken.
  o.preface_timeout = milliseconds(2000);
  o.idle_timeout = milliseconds(2000);
  o.goaway_linger = milliseconds(200);
  BareServer b(o);
  H2Peer idle(b.port());
  idle.send(preface());
  H2Peer mute(b.port());  // no preface
  ASSERT_TRUE(await([&] { return b.stats().connections == 2; }));
  {
    H2Peer third(b.port());
    EXPECT_FALSE(third.next()) << "a connection beyond max_connections was served";
    EXPECT_TRUE(third.closed()) << "a connection beyond max_connections was not closed";
  }
  EXPECT_TRUE(reads_to_eof(mute, milliseconds(10000)));
  EXPECT_TRUE(reads_to_eof(idle, milliseconds(10000)));
  ASSERT_TRUE(await([&] { return b.stats().connections == 0; })) << "the slots were not given back";
  EXPECT_EQ(b.stats().preface_timeouts, 1u);
  EXPECT_EQ(b.stats().idle_goaways, 1u);
  expect_bare_serving(b.port());
}

TEST(H2Server, RequestBytesHeldBeyondTheBoundGetGoawayEnhanceYourCalm) {
  h2::ServerOptions o;
  o.max_buffered_request = 256 << 10;
  BareServer b(o);
  const std::string part(16384 - 5, 'p');  // one DATA frame of the default SETTINGS_MAX_FRAME_SIZE
  // One stream whose 1 MiB message comes in part, then 24 streams holding
  // 16 KiB each: 320 and 384 KiB, past the bound, within the 1 MiB windows.
  for (int shape = 0; shape < 2; ++shape) {
    SCOPED_TRACE(shape == 0 ? "one stream" : "many streams");
    H2Peer c(b.port());
    c.send(preface());
    await_windows(c);
    std::string burst;
    if (shape == 0) {
      burst = request_headers(1, "Part", false) + frame(kData, 0, 1, grpc_message(part, 1 << 20));
      for (int i = 0; i < 19; ++i) burst += frame(kData, 0, 1, std::string(16384, 'q'));
    } else {
      for (int i = 0; i < 24; ++i)
        burst += request_headers(1 + 2 * i, "Part", false) + frame(kData, 0, 1 + 2 * i, grpc_message(part, 65536));
    }
    c.send(burst);
    auto g = c.until(kGoaway, 0);
    ASSERT_TRUE(g) << "no GOAWAY past max_buffered_request";
    EXPECT_EQ(goaway_code(*g), 11u);  // ENHANCE_YOUR_CALM
    EXPECT_TRUE(reads_to_eof(c));
  }
  expect_bare_serving(b.port());
}

TEST(H2Server, RequestBytesNotHeldDoNotCountAgainstTheBound) {
  h2::ServerOptions o;
  o.max_buffered_request = 256 << 10;
  o.max_receive = 1024;
  BareServer b(o);
  H2Peer c(b.port());
  c.send(preface());
  await_windows(c);
  // 40 streams send 16 KiB each (640 KiB) of a message declared larger than
  // max_receive: each is refused from its prefix and its bytes are freed, so
  // the connection never holds more than one frame of them.
  const std::string part(16384 - 5, 'r');
  std::string burst;
  for (int i = 0; i < 40; ++i)
    burst += request_headers(1 + 2 * i, "Big", false) + frame(kData, 0, 1 + 2 * i, grpc_message(part, 4096));
  c.send(burst);
  int refused = 0;
  for (int i = 0; i < 1000 && refused < 40; ++i) {
    auto f = c.next();
    if (!f) break;
    ASSERT_NE(f->type, kGoaway) << "bytes freed were counted against max_buffered_request";
    if (f->type != kHeaders) continue;
    auto h = c.fields(*f);
    if (h.count("grpc-status") && h.find("grpc-status")->second == "8") ++refused;
  }
  EXPECT_EQ(refused, 40);
  // The same connection still takes a request.
  c.send(request_headers(81, "Echo", false) + frame(kData, kEndStream, 81, grpc_message("ok", 2)));
  auto d = c.until(kData, 81);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->payload, grpc_message("ok", 2));
}

TEST(H2Server, AStreamWhoseMessageNeverCompletesIsResetAtTheRequestTimeout) {
  // HEADERS and half a message, or HEADERS alone, then silence.
  for (int shape = 0; shape < 2; ++shape) {
    SCOPED_TRACE(shape == 0 ? "half a message" : "HEADERS only");
    h2::ServerOptions o = bare_options();
    o.request_timeout = milliseconds(200);
    o.idle_timeout = milliseconds(10000);  // the connection must outlive the reset stream
    BareServer b(o);
    H2Peer c(b.port());
    std::string start = preface() + request_headers(1, "Echo", false);
    if (shape == 0) start += frame(kData, 0, 1, grpc_message("he", 5));
    c.send(start);
    ASSERT_TRUE(await([&] { return b.started.load() == 1; })) << "the call never reached its reactor";
    const size_t held = shape == 0 ? h2::kFrameRoom + 2 : 0;
    EXPECT_TRUE(await([&] { return b.stats().buffered_request_total == held; }));
    auto rst = c.until(kRst, 1);
    ASSERT_TRUE(rst) << "the stream was not reset";
    EXPECT_EQ(error_code_of(*rst), 8u);  // CANCEL
    EXPECT_TRUE(await([&] { return b.done.load() == 1; })) << "the reactor never ended";
    EXPECT_EQ(b.cancels.load(), 1);
    EXPECT_EQ(b.stats().request_timeouts, 1u);
    EXPECT_EQ(b.stats().buffered_request_total, 0u);
    // The same connection answers a new stream.
    c.send(request_headers(3, "Echo", false) + frame(kData, kEndStream, 3, grpc_message("ok", 2)));
    auto d = c.until(kData, 3);
    ASSERT_TRUE(d) << "the connection no longer answers";
    EXPECT_EQ(d->payload, grpc_message("ok", 2));
    std::multimap<std::string, std::string> h;
    ASSERT_TRUE(c.until(kHeaders, 3, &h));
    EXPECT_EQ(h.count("grpc-status") ? h.find("grpc-status")->second : "", "0");
    EXPECT_TRUE(await([&] { return b.done.load() == 2; }));
    EXPECT_EQ(b.cancels.load(), 1) << "the reset stream's reactor heard on_cancel again, or the new one did";
    EXPECT_EQ(b.stats().request_timeouts, 1u);
    EXPECT_EQ(b.stats().idle_goaways, 0u);
  }
}

TEST(H2Server, AStreamWhoseMessageCameIsNotEndedByTheRequestTimeout) {
  h2::ServerOptions o = bare_options();
  o.request_timeout = milliseconds(200);
  BareServer b(o);
  H2Peer c(b.port());
  // HEADERS first (a reader turn of its own: the request timer is armed),
  // then the whole message without END_STREAM: the call stays open and
  // silent, like a server stream, for several request timeouts.
  c.send(preface() + request_headers(1, "Hold", false));
  ASSERT_TRUE(await([&] { return b.started.load() == 1; }));
  c.send(frame(kData, 0, 1, grpc_message("hold", 4)));
  ASSERT_TRUE(await([&] { return b.held_count() == 1; })) << "the message never reached the reactor";
  for (const Frame& f : c.frames_for(4 * o.request_timeout)) {
    EXPECT_NE(f.type, kRst) << "the call was reset although its message came";
    EXPECT_NE(f.type, kGoaway);
  }
  ASSERT_FALSE(c.closed());
  EXPECT_EQ(b.stats().request_timeouts, 0u);
  EXPECT_EQ(b.cancels.load(), 0);
  b.release_held();
  auto d = c.until(kData, 1);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->payload, grpc_message("held", 4));
  std::multimap<std::string, std::string> h;
  ASSERT_TRUE(c.until(kHeaders, 1, &h));
  EXPECT_EQ(h.count("grpc-status") ? h.find("grpc-status")->second : "", "0");
  EXPECT_EQ(b.stats().request_timeouts, 0u);
}

// `n` bytes of DATA on `stream` (16 KiB frames), the first starting a
// message of `declared` bytes; END_STREAM on the last when `end`.
std::string message_part(int32_t stream, size_t n, uint32_t declared, bool end = false) {
  std::string out;
  std::string first = grpc_message(std::string(16384 - h2::kFrameRoom, 'm'), declared);
  size_t sent = 0;
  while (sent < n) {
    size_t len = std::min<size_t>(16384, n - sent);
    std::string payload = sent == 0 ? first.substr(0, len) : std::string(len, 'm');
    sent += len;
    out += frame(kData, (end && sent == n) ? kEndStream : 0, stream, payload);
  }
  return out;
}

TEST(H2Server, RequestBytesBeyondTheServerWideBudgetGetGoawayEnhanceYourCalm) {
  h2::ServerOptions o;
  o.max_buffered_request = 1 << 20;
  o.max_buffered_request_total = 384 << 10;
  o.idle_timeout = milliseconds(10000);
  BareServer b(o);
  const size_t part = 256 << 10;
  const uint32_t declared = part + 16 - h2::kFrameRoom;  // the message: 16 bytes more than `part`
  // Wide windows both ways: the echo of the first call is 256 KiB.
  const std::string open =
      preface(setting(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 0x7fffffff)) + window_update(0, 0x7fffffff - 65535);
  auto first = std::make_unique<H2Peer>(b.port());
  first->send(open);
  await_windows(*first);
  first->send(request_headers(1, "Echo", false) + message_part(1, part, declared));
  ASSERT_TRUE(await([&] { return b.stats().buffered_request_total == part; }));
  {
    // A second connection holding as much passes the 384 KiB: refused.
    H2Peer second(b.port());
    second.send(open);
    await_windows(second);
    second.send(request_headers(1, "Echo", false) + message_part(1, part, declared));
    auto g = second.until(kGoaway, 0);
    ASSERT_TRUE(g) << "no GOAWAY past max_buffered_request_total";
    EXPECT_EQ(goaway_code(*g), 11u);  // ENHANCE_YOUR_CALM
    EXPECT_TRUE(reads_to_eof(second));
  }
  EXPECT_EQ(b.stats().total_refusals, 1u);
  // Its bytes are given back; the first connection completes its call.
  ASSERT_TRUE(await([&] { return b.stats().connections == 1 && b.stats().buffered_request_total == part; }));
  first->send(frame(kData, kEndStream, 1, std::string(16, 'm')));
  size_t echoed = 0;
  std::string status;
  for (int i = 0; i < 1000 && status.empty(); ++i) {
    auto f = first->next();
    if (!f) break;
    ASSERT_NE(f->type, kGoaway) << "the first connection was refused";
    if (f->type == kData && f->stream == 1) echoed += f->payload.size();
    if (f->type != kHeaders) continue;
    auto h = first->fields(*f);
    if (h.count("grpc-status")) status = h.find("grpc-status")->second;
  }
  EXPECT_EQ(status, "0");
  EXPECT_EQ(echoed, h2::kFrameRoom + declared);
  first.reset();
  ASSERT_TRUE(await([&] { return b.stats().connections == 0; }));
  EXPECT_EQ(b.stats().buffered_request_total, 0u);
  // The budget is free again: a third connection holds 256 KiB.
  {
    H2Peer third(b.port());
    third.send(open);
    await_windows(third);
    third.send(request_headers(1, "Echo", false) + message_part(1, part, declared));
    EXPECT_TRUE(await([&] { return b.stats().buffered_request_total == part; }));
    EXPECT_EQ(b.stats().total_refusals, 1u);
  }
  ASSERT_TRUE(await([&] { return b.stats().connections == 0; }));
  EXPECT_EQ(b.stats().buffered_request_total, 0u) << "request bytes leaked from the server-wide count";
  expect_bare_serving(b.port());
  EXPECT_EQ(b.stats().buffered_request_total, 0u);
}

TEST(H2Server, AClientThatStopsReadingHoldsAtMostMaxOutputAndGetsEveryAnswerLater) {
  h2::ServerOptions o;
  o.max_output = 64 << 10;
  // What one collect() may add past the bound: a DATA frame (16 KiB, nghttp2's
  // payload size whatever SETTINGS_MAX_FRAME_SIZE says) and its header.
  const size_t bound = o.max_output + 16384 + 9;
  BareServer b(o);
  H2Peer c(b.port(), 4096);
  // Windows wide open: only the socket holds the answers back.
  c.send(preface(setting(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 0x7fffffff)) + window_update(0, 0x7fffffff - 65535));
  auto request = [&](int n) {
    int32_t id = 1 + 2 * n;
    c.send(request_headers(id, "Big", false) + frame(kData, kEndStream, id, grpc_message("big", 3)));
  };
  // One request at a time (each answered with 128 KiB the client does not
  // read) until the server stops reading this connection; the kernel's
  // buffers take a few MiB first.
  int sent = 0;
  bool paused = false;
  while (sent < 400 && !paused) {
    request(sent++);
    bool moved = await([&] { return b.started.load() >= sent || b.stats().read_pauses > 0; });
    ASSERT_TRUE(moved) << "request " << sent << " was neither read nor held back";
    paused = b.stats().read_pauses > 0;
  }
  ASSERT_TRUE(paused) << "reading never paused after " << sent << " answers of " << kBigAnswer << " bytes";
  for (int i = 0; i < 3; ++i) request(sent++);  // these wait, unread
  EXPECT_LE(b.stats().output_high_water, bound);
  EXPECT_GE(b.stats().output_high_water, o.max_output);
  // Another client is served meanwhile.
  expect_bare_serving(b.port());
  // The client reads at last: every answer arrives, complete.
  std::map<int32_t, size_t> data;
  std::map<int32_t, std::string> status;
  for (int i = 0; i < 200000 && status.size() < static_cast<size_t>(sent); ++i) {
    auto f = c.next();
    if (!f) break;
    ASSERT_NE(f->type, kGoaway);
    ASSERT_NE(f->type, kRst);
    if (f->type == kData) data[f->stream] += f->payload.size();
    if (f->type != kHeaders) continue;
    auto h = c.fields(*f);
    if (h.count("grpc-status")) status[f->stream] = h.find("grpc-status")->second;
  }
  ASSERT_EQ(status.size(), static_cast<size_t>(sent)) << "answers missing";
  for (int n = 0; n < sent; ++n) {
    EXPECT_EQ(status[1 + 2 * n], "0") << "stream " << 1 + 2 * n;
    EXPECT_EQ(data[1 + 2 * n], h2::kFrameRoom + kBigAnswer) << "stream " << 1 + 2 * n;
  }
  EXPECT_EQ(b.started.load(), sent + 1);  // and expect_bare_serving's call
  EXPECT_LE(b.stats().output_high_water, bound);
}

TEST(H2Server, GrpcTimeoutAndPercentEncoding) {
  EXPECT_EQ(h2::parse_grpc_timeout("100m"), 100);
  EXPECT_EQ(h2::parse_grpc_timeout("2S"), 2000);
  EXPECT_EQ(h2::parse_grpc_timeout("1H"), 3600000);
  EXPECT_EQ(h2::parse_grpc_timeout("1500u"), 2);
  EXPECT_EQ(h2::parse_grpc_timeout("1n"), 1);
  EXPECT_EQ(h2::parse_grpc_timeout("123456789m"), -1);  // 9 digits
  EXPECT_EQ(h2::parse_grpc_timeout("10x"), -1);
  EXPECT_EQ(h2::parse_grpc_timeout("m"), -1);
  EXPECT_EQ(h2::percent_encode("a b%c\n\xc3\xa9"), "a b%25c%0A%C3%A9");
}

}  // namespace
}  // namespace a2a::agent::testing
