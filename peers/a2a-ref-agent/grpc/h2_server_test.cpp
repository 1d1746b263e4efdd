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

#include <chrono>
#include <map>
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

constexpr uint8_t kData = 0, kHeaders = 1, kRst = 3, kSettings = 4, kGoaway = 7;
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

class H2Peer {
 public:
  explicit H2Peer(uint16_t port) {
    fd_ = transport::testing::connect_loopback(port);
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
