// wss://: the WebSocket client (ws_client.hpp over ws_tls.hpp) against a TLS
// WebSocket double on 127.0.0.1 whose self-signed certificate is made in
// memory at test time. The double speaks blocking OpenSSL and hand-made
// frames (not our server), so a client bug cannot hide behind a matching
// server bug.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runner/transport/http_test_server.hpp"
#include "runner/transport/ws_client.hpp"
#include "runner/transport/ws_codec.hpp"

namespace wss_double {

using namespace a2a::transport;
namespace wsst = a2a::transport::testing;

// A P-256 key and a one-day self-signed certificate for CN=localhost.
struct SelfSigned {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key{EVP_EC_gen("P-256"), EVP_PKEY_free};
  std::unique_ptr<X509, decltype(&X509_free)> cert{X509_new(), X509_free};
  SelfSigned() {
    X509* x = cert.get();
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
    X509_gmtime_adj(X509_getm_notBefore(x), -60);
    X509_gmtime_adj(X509_getm_notAfter(x), 24 * 3600);
    X509_set_pubkey(x, key.get());
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
    X509_set_issuer_name(x, name);
    X509_sign(x, key.get(), EVP_sha256());
  }
};

// Each connection: TLS handshake, the upgrade (answered 101 with the key's
// accept value), then every text frame is answered "echo:<payload>" and a
// close frame is answered with a close. Reads are bounded by SO_RCVTIMEO.
class TlsWsServer {
 public:
  TlsWsServer() : ctx_(SSL_CTX_new(TLS_server_method()), SSL_CTX_free) {
    SSL_CTX_use_certificate(ctx_.get(), creds_.cert.get());
    SSL_CTX_use_PrivateKey(ctx_.get(), creds_.key.get());
    server_ = std::make_unique<wsst::ScriptedServer>([this](int, wsst::Peer& p) { serve(p.fd()); });
  }
  uint16_t port() const { return server_->port(); }
  int handshakes_ok() const { return handshakes_ok_.load(); }
  std::string upgrade_request() const {
    std::lock_guard<std::mutex> lk(mu_);
    return upgrade_;
  }
  std::vector<std::string> texts() const {
    std::lock_guard<std::mutex> lk(mu_);
    return texts_;
  }

 private:
  void serve(int fd) {
    timeval tv{3, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx_.get()), SSL_free);
    SSL_set_fd(ssl.get(), fd);
    if (SSL_accept(ssl.get()) != 1) return;
    ++handshakes_ok_;
    std::string in;
    char buf[4096];
    while (in.find("\r\n\r\n") == std::string::npos && in.size() < 65536) {
      int n = SSL_read(ssl.get(), buf, sizeof buf);
      if (n <= 0) return;
      in.append(buf, static_cast<size_t>(n));
    }
    size_t end = in.find("\r\n\r\n") + 4;
    std::string head = in.substr(0, end);
    {
      std::lock_guard<std::mutex> lk(mu_);
      upgrade_ = head;
    }
    const std::string kKey = "Sec-WebSocket-Key: ";
    size_t at = head.find(kKey);
    if (at == std::string::npos) return;
    std::string key = head.substr(at + kKey.size(), head.find("\r\n", at) - at - kKey.size());
    send(ssl.get(), "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Accept: " + ws::accept_key(key) + "\r\n\r\n");
    ws::FrameParser parser(ws::ParserOptions{true, 1u << 20});
    std::vector<ws::Message> got;
    if (!parser.feed(std::string_view(in).substr(end), got)) return;
    for (int rounds = 0; rounds < 64; ++rounds) {  // bounded: a test sends a few frames
      for (auto& m : got) {
        if (m.op == ws::Opcode::kClose) {
          send(ssl.get(), ws::encode_frame(ws::Opcode::kClose, m.payload));
          SSL_shutdown(ssl.get());
          return;
        }
        if (m.op != ws::Opcode::kText) continue;
        {
          std::lock_guard<std::mutex> lk(mu_);
          texts_.push_back(m.payload);
        }
        send(ssl.get(), ws::encode_frame(ws::Opcode::kText, "echo:" + m.payload));
      }
      got.clear();
      int n = SSL_read(ssl.get(), buf, sizeof buf);
      if (n <= 0 || !parser.feed(std::string_view(buf, static_cast<size_t>(n)), got)) return;
    }
  }
  static void send(SSL* ssl, const std::string& bytes) { SSL_write(ssl, bytes.data(), static_cast<int>(bytes.size())); }

  SelfSigned creds_;
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx_;
  std::atomic<int> handshakes_ok_{0};
  mutable std::mutex mu_;
  std::string upgrade_;
  std::vector<std::string> texts_;
  std::unique_ptr<wsst::ScriptedServer> server_;  // last: its thread stops before the rest goes
};

std::string wss_url(uint16_t port) { return "wss://127.0.0.1:" + std::to_string(port) + "/a2a"; }

TEST(WssClient, InsecureTlsCarriesTheUpgradeAndAFrameEachWay) {
  TlsWsServer srv;
  WsOptions o;
  o.insecure_tls = true;
  o.headers = {{"A2A-Version", "1.0"}};
  auto c = WsConnection::connect(wss_url(srv.port()), o, wsst::soon());
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(srv.handshakes_ok(), 1);
  std::string up = srv.upgrade_request();
  EXPECT_EQ(up.rfind("GET /a2a HTTP/1.1\r\n", 0), 0u) << up;
  EXPECT_NE(up.find("Host: 127.0.0.1:" + std::to_string(srv.port()) + "\r\n"), std::string::npos) << up;
  EXPECT_NE(up.find("A2A-Version: 1.0\r\n"), std::string::npos) << up;

  ASSERT_TRUE((*c)->send(R"({"jsonrpc":"2.0","id":1,"method":"GetTask"})", true, wsst::soon()).ok());
  auto f = (*c)->take([](const WsFrame& w) { return w.text; }, wsst::soon());
  ASSERT_TRUE(f.has_value()) << (*c)->why();
  EXPECT_EQ(f->payload, R"(echo:{"jsonrpc":"2.0","id":1,"method":"GetTask"})");
  ASSERT_EQ(srv.texts().size(), 1u);  // unmasked by the double: the client masked it right
  EXPECT_EQ(srv.texts()[0], R"({"jsonrpc":"2.0","id":1,"method":"GetTask"})");

  (*c)->close();
  EXPECT_EQ((*c)->close_code(), 1000);  // the double answered the closing handshake over TLS
}

TEST(WssClient, ASelfSignedCertificateIsRefusedWithoutInsecure) {
  TlsWsServer srv;
  auto c = WsConnection::connect(wss_url(srv.port()), WsOptions{}, wsst::soon());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().kind, a2a::core::ErrorKind::kIo);
  EXPECT_NE(c.error().message.find("TLS handshake failed"), std::string::npos) << c.error().message;
  EXPECT_NE(c.error().message.find("certificate: self-signed"), std::string::npos) << c.error().message;
  EXPECT_EQ(srv.handshakes_ok(), 0);
  EXPECT_TRUE(srv.upgrade_request().empty());
}

TEST(WssClient, APlainPeerFailsTheTlsHandshakeWithinTheDeadline) {
  // A plain HTTP server behind a wss:// URL: its answer is no TLS record.
  wsst::ScriptedServer plain([](int, wsst::Peer& p) {
    std::string r = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
    ::send(p.fd(), r.data(), r.size(), MSG_NOSIGNAL);
  });
  WsOptions o;
  o.insecure_tls = true;
  auto c = WsConnection::connect(wss_url(plain.port()), o, a2a::core::Deadline::after(a2a::core::Millis(3000)));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("TLS handshake failed"), std::string::npos) << c.error().message;
}

}  // namespace wss_double
