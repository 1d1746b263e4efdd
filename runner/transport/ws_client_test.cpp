// The WebSocket client (ws_client.hpp) against a raw TCP peer on 127.0.0.1
// that writes hand-made bytes: the handshake's checks, a fragmented message
// with a ping between its fragments, the close, and the protocol errors.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "runner/transport/ws_client.hpp"
#include "runner/transport/ws_codec.hpp"

namespace {

using namespace a2a;
using namespace a2a::transport;
using core::Deadline;
using core::Millis;

constexpr Millis kWait{5000};

// Bytes until `n` are there or `deadline`; fewer at EOF or the deadline.
std::string read_bytes(int fd, size_t n, Deadline deadline) {
  std::string out;
  char buf[4096];
  while (out.size() < n && !deadline.expired()) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, deadline.poll_timeout_ms()) <= 0) break;
    ssize_t got = ::recv(fd, buf, std::min(sizeof buf, n - out.size()), 0);
    if (got <= 0) break;
    out.append(buf, static_cast<size_t>(got));
  }
  return out;
}

std::string read_until_blank_line(int fd, Deadline deadline) {
  std::string out;
  while (out.find("\r\n\r\n") == std::string::npos && out.size() < 65536 && !deadline.expired()) {
    std::string b = read_bytes(fd, 1, deadline);
    if (b.empty()) break;
    out += b;
  }
  return out;
}

void write_bytes(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::send(fd, s.data() + done, s.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// The frames a client sent (masked), read until `count` are there or `deadline`.
std::vector<ws::Message> client_frames(int fd, size_t count, Deadline deadline) {
  ws::FrameParser parser(ws::ParserOptions{true, 1u << 20});
  std::vector<ws::Message> out;
  while (out.size() < count && !deadline.expired()) {
    std::string b = read_bytes(fd, 1, deadline);
    if (b.empty() || !parser.feed(b, out)) break;
  }
  return out;
}

// One connection on 127.0.0.1: reads the upgrade request, then `script(fd, key)`.
class RawPeer {
 public:
  explicit RawPeer(std::function<void(int, const std::string&)> script) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(listen_fd_, 4);
    socklen_t len = sizeof a;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this, script] {
      pollfd p{listen_fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(kWait.count())) <= 0) return;
      int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) return;
      request_ = read_until_blank_line(fd, Deadline::after(kWait));
      std::string key;
      auto at = request_.find("Sec-WebSocket-Key: ");
      if (at != std::string::npos) key = request_.substr(at + 19, request_.find("\r\n", at) - at - 19);
      script(fd, key);
      ::close(fd);
    });
  }
  ~RawPeer() {
    if (thread_.joinable()) thread_.join();
    ::close(listen_fd_);
  }
  std::string url() const { return "ws://127.0.0.1:" + std::to_string(port_) + "/a2a?x=1"; }
  // Only after the script ended (join()).
  const std::string& request() const { return request_; }
  void join() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::thread thread_;
  std::string request_;
};

std::string accept_answer(const std::string& key) {
  return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " +
         ws::accept_key(key) + "\r\n\r\n";
}

TEST(WsClient, FragmentsWithAPingBetweenThemThenTheServersClose) {
  std::vector<ws::Message> got;
  RawPeer peer([&](int fd, const std::string& key) {
    // the answer, and in the same write "h", a ping, "i" (RFC 6455 §5.4)
    write_bytes(fd, accept_answer(key) + ws::encode_frame(ws::Opcode::kText, "h", false) +
                        ws::encode_frame(ws::Opcode::kPing, "p1") + ws::encode_frame(ws::Opcode::kContinuation, "i"));
    got = client_frames(fd, 1, Deadline::after(kWait));  // the pong
    write_bytes(fd, ws::encode_frame(ws::Opcode::kClose, ws::close_payload(1000, "bye")));
    auto more = client_frames(fd, 1, Deadline::after(kWait));  // the close answered
    got.insert(got.end(), more.begin(), more.end());
  });
  WsOptions o;
  o.headers = {{"A2A-Version", "1.0"}, {"User-Agent", "test-agent"}};
  auto c = WsConnection::connect(peer.url(), o, Deadline::after(kWait));
  ASSERT_TRUE(c) << c.error().message;
  auto f = (*c)->take([](const WsFrame&) { return true; }, Deadline::after(kWait));
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->text);
  EXPECT_EQ(f->payload, "hi");
  ASSERT_TRUE((*c)->wait_closed(Deadline::after(kWait)));
  peer.join();
  EXPECT_EQ((*c)->close_code(), 1000);
  EXPECT_NE((*c)->why().find("close code 1000: bye"), std::string::npos) << (*c)->why();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].op, ws::Opcode::kPong);
  EXPECT_EQ(got[0].payload, "p1");
  EXPECT_EQ(got[1].op, ws::Opcode::kClose);
  EXPECT_EQ(got[1].payload, ws::close_payload(1000));
  const std::string& req = peer.request();
  EXPECT_EQ(req.rfind("GET /a2a?x=1 HTTP/1.1\r\n", 0), 0u) << req;
  EXPECT_NE(req.find("Sec-WebSocket-Version: 13\r\n"), std::string::npos);
  EXPECT_NE(req.find("A2A-Version: 1.0\r\n"), std::string::npos);
  EXPECT_NE(req.find("User-Agent: test-agent\r\n"), std::string::npos);
  EXPECT_EQ(req.find("a2a-conform"), std::string::npos);  // a header of the caller replaces the default
}

TEST(WsClient, AWrongAcceptKeyFailsTheUpgrade) {
  RawPeer peer([](int fd, const std::string&) {
    write_bytes(fd, accept_answer("dGhlIHNhbXBsZSBub25jZQ=="));
    read_bytes(fd, 1, Deadline::after(kWait));
  });
  auto c = WsConnection::connect(peer.url(), {}, Deadline::after(kWait));
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, core::ErrorKind::kProtocol);
  EXPECT_NE(c.error().message.find("Sec-WebSocket-Accept is s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), std::string::npos)
      << c.error().message;
}

TEST(WsClient, ARefusalKeepsItsStatusAndBody) {
  RawPeer peer([](int fd, const std::string&) {
    write_bytes(fd, "HTTP/1.1 400 Bad Request\r\nContent-Length: 13\r\n\r\n{\"error\":400}");
    read_bytes(fd, 1, Deadline::after(kWait));
  });
  WsRefusal r;
  auto c = WsConnection::connect(peer.url(), {}, Deadline::after(kWait), &r);
  ASSERT_FALSE(c);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, "{\"error\":400}");
}

TEST(WsClient, AnUpgradeWithoutAnswerEndsAtTheDeadline) {
  RawPeer peer([](int fd, const std::string&) { read_bytes(fd, 1, Deadline::after(Millis(2000))); });
  auto start = std::chrono::steady_clock::now();
  auto c = WsConnection::connect(peer.url(), {}, Deadline::after(Millis(300)));
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, core::ErrorKind::kTimeout);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1500));
}

TEST(WsClient, AMaskedServerFrameIsAProtocolErrorClosedWith1002) {
  std::vector<ws::Message> got;
  RawPeer peer([&](int fd, const std::string& key) {
    ws::MaskKey k{1, 2, 3, 4};
    write_bytes(fd, accept_answer(key) + ws::encode_frame(ws::Opcode::kText, "x", true, &k));
    got = client_frames(fd, 1, Deadline::after(kWait));
  });
  auto c = WsConnection::connect(peer.url(), {}, Deadline::after(kWait));
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE((*c)->wait_closed(Deadline::after(kWait)));
  peer.join();
  EXPECT_NE((*c)->why().find("masked frame from a server"), std::string::npos) << (*c)->why();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].op, ws::Opcode::kClose);
  EXPECT_EQ(got[0].payload, ws::close_payload(ws::kCloseProtocolError));
}

TEST(WsClient, AnOversizedMessageIsRefusedFromItsHeader) {
  std::vector<ws::Message> got;
  RawPeer peer([&](int fd, const std::string& key) {
    // 1 GiB declared, no payload sent: the client refuses at the header
    std::string header = {'\x82', '\x7f', 0, 0, 0, 0, '\x40', 0, 0, 0};
    write_bytes(fd, accept_answer(key) + header);
    got = client_frames(fd, 1, Deadline::after(kWait));
  });
  WsOptions o;
  o.max_message = 1000;
  auto c = WsConnection::connect(peer.url(), o, Deadline::after(kWait));
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE((*c)->wait_closed(Deadline::after(kWait)));
  peer.join();
  EXPECT_NE((*c)->why().find("over 1000 bytes"), std::string::npos) << (*c)->why();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].payload, ws::close_payload(ws::kCloseTooBig));
}

TEST(WsClient, SendMasksFramesAndCloseDoesTheClosingHandshake) {
  std::vector<ws::Message> got;
  RawPeer peer([&](int fd, const std::string& key) {
    write_bytes(fd, accept_answer(key));
    got = client_frames(fd, 3, Deadline::after(kWait));  // text, binary, close
    if (got.size() == 3) write_bytes(fd, ws::encode_frame(ws::Opcode::kClose, got[2].payload));
  });
  auto c = WsConnection::connect(peer.url(), {}, Deadline::after(kWait));
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE((*c)->send("{\"a\":1}", true, Deadline::after(kWait)));
  ASSERT_TRUE((*c)->send(std::string(70000, 'b'), false, Deadline::after(kWait)));
  (*c)->close();
  peer.join();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].op, ws::Opcode::kText);
  EXPECT_EQ(got[0].payload, "{\"a\":1}");
  EXPECT_EQ(got[1].op, ws::Opcode::kBinary);
  EXPECT_EQ(got[1].payload.size(), 70000u);
  EXPECT_EQ(got[2].op, ws::Opcode::kClose);
  EXPECT_EQ(got[2].payload, ws::close_payload(1000));
  EXPECT_TRUE((*c)->closed());
  auto late = (*c)->send("x", true, Deadline::after(kWait));
  EXPECT_FALSE(late);
}

}  // namespace

namespace {

TEST(WsClient, AChunkedRefusalBodyIsDecoded) {
  RawPeer peer([](int fd, const std::string&) {
    write_bytes(fd, "HTTP/1.1 426 Upgrade Required\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n");
    read_bytes(fd, 1, Deadline::after(kWait));
  });
  WsRefusal r;
  auto c = WsConnection::connect(peer.url(), {}, Deadline::after(kWait), &r);
  ASSERT_FALSE(c);
  EXPECT_EQ(r.status, 426);
  EXPECT_EQ(r.body, "{\"a\":1}");
}

}  // namespace

namespace {

// The raw-step calls (suites/websocket): a ping and a close of the caller's
// making, pongs kept apart from data frames, and peek leaving a frame in place.
TEST(WsClient, SendFramePingAndCloseTakePongAndPeekLeavesTheFrame) {
  std::vector<ws::Message> got;
  RawPeer peer([&](int fd, const std::string& key) {
    write_bytes(fd, accept_answer(key));
    got = client_frames(fd, 1, Deadline::after(kWait));  // the ping
    if (got.size() == 1)
      write_bytes(fd, ws::encode_frame(ws::Opcode::kText, "{\"id\":7}") + ws::encode_frame(ws::Opcode::kPong, got[0].payload));
    auto close = client_frames(fd, 1, Deadline::after(kWait));
    got.insert(got.end(), close.begin(), close.end());
    if (close.size() == 1) write_bytes(fd, ws::encode_frame(ws::Opcode::kClose, ws::close_payload(4000)));
  });
  auto c = WsConnection::connect(peer.url(), {}, Deadline::after(kWait));
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE((*c)->send_frame(static_cast<uint8_t>(ws::Opcode::kPing), std::string("\x01\x02", 2), Deadline::after(kWait)));
  auto pong = (*c)->take_pong(Deadline::after(kWait));
  ASSERT_TRUE(pong);
  EXPECT_EQ(*pong, std::string("\x01\x02", 2));
  auto any = [](const WsFrame&) { return true; };
  auto seen = (*c)->peek(any, Deadline::after(kWait));
  ASSERT_TRUE(seen);
  EXPECT_EQ(seen->payload, "{\"id\":7}");
  EXPECT_EQ((*c)->unconsumed(), 1u);  // the pong is not among the data frames, the peeked frame stays
  EXPECT_FALSE((*c)->peek([](const WsFrame& f) { return !f.text; }, Deadline::after(Millis(50))));
  ASSERT_TRUE((*c)->send_frame(static_cast<uint8_t>(ws::Opcode::kClose), ws::close_payload(4000, "raw"), Deadline::after(kWait)));
  ASSERT_TRUE((*c)->wait_closed(Deadline::after(kWait)));
  peer.join();
  EXPECT_EQ((*c)->close_code(), 4000);
  EXPECT_FALSE((*c)->take_pong(Deadline::after(Millis(10))));  // closed: no more pongs, no wait
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].op, ws::Opcode::kPing);
  EXPECT_EQ(got[1].op, ws::Opcode::kClose);
  EXPECT_EQ(got[1].payload, ws::close_payload(4000, "raw"));
}

}  // namespace
