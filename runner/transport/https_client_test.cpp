// HttpClient over TLS against a scripted peer on 127.0.0.1 whose self-signed
// certificate is made in memory: insecure_tls accepts it, verification
// rejects it with a certificate error.
#include <gtest/gtest.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <memory>

#include "runner/transport/http_client.hpp"
#include "runner/transport/http_test_server.hpp"

namespace {

using namespace a2a::transport;
using namespace a2a::transport::testing;

struct Credentials {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key{nullptr, EVP_PKEY_free};
  std::unique_ptr<X509, decltype(&X509_free)> cert{nullptr, X509_free};
};

// A P-256 key and a one-day self-signed certificate for CN=localhost.
Credentials make_self_signed() {
  Credentials c;
  c.key.reset(EVP_EC_gen("P-256"));
  c.cert.reset(X509_new());
  X509* x = c.cert.get();
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
  X509_gmtime_adj(X509_getm_notBefore(x), -60);
  X509_gmtime_adj(X509_getm_notAfter(x), 24 * 3600);
  X509_set_pubkey(x, c.key.get());
  X509_NAME* name = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(x, name);
  X509_sign(x, c.key.get(), EVP_sha256());
  return c;
}

// Serves TLS on each accepted connection: handshake, one request, one reply.
// SO_RCVTIMEO bounds every blocking read of the handshake and the request.
class TlsServer {
 public:
  TlsServer() : creds_(make_self_signed()), ctx_(SSL_CTX_new(TLS_server_method()), SSL_CTX_free) {
    SSL_CTX_use_certificate(ctx_.get(), creds_.cert.get());
    SSL_CTX_use_PrivateKey(ctx_.get(), creds_.key.get());
    server_ = std::make_unique<ScriptedServer>([this](int, Peer& p) { serve(p); });
  }
  uint16_t port() const { return server_->port(); }
  int handshakes_ok() const { return handshakes_ok_.load(); }

 private:
  void serve(Peer& p) {
    timeval tv{2, 0};
    ::setsockopt(p.fd(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx_.get()), SSL_free);
    SSL_set_fd(ssl.get(), p.fd());
    if (SSL_accept(ssl.get()) != 1) return;
    ++handshakes_ok_;
    std::string got;
    char buf[1024];
    while (got.find("\r\n\r\n") == std::string::npos) {
      int n = SSL_read(ssl.get(), buf, sizeof buf);
      if (n <= 0) return;
      got.append(buf, static_cast<size_t>(n));
    }
    std::string reply = "HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nsecure";
    SSL_write(ssl.get(), reply.data(), static_cast<int>(reply.size()));
    SSL_shutdown(ssl.get());
  }

  Credentials creds_;
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx_;
  std::atomic<int> handshakes_ok_{0};
  std::unique_ptr<ScriptedServer> server_;  // last: its thread stops before the rest goes
};

Url https_url(uint16_t port) {
  auto u = Url::parse("https://127.0.0.1:" + std::to_string(port) + "/secure");
  EXPECT_TRUE(u.ok());
  return u.ok() ? *u : Url{};
}

TEST(HttpsClient, InsecureTlsAcceptsASelfSignedCertificate) {
  TlsServer srv;
  HttpClientOptions o;
  o.insecure_tls = true;
  HttpRequest req;
  req.target = "/secure";
  auto r = HttpClient(https_url(srv.port()), o).request(req, soon());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "secure");
  EXPECT_EQ(srv.handshakes_ok(), 1);
}

TEST(HttpsClient, VerificationRejectsASelfSignedCertificate) {
  TlsServer srv;
  auto r = HttpClient(https_url(srv.port())).request(HttpRequest{}, soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, a2a::core::ErrorKind::kIo);
  EXPECT_NE(r.error().message.find("TLS handshake (127.0.0.1:"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("certificate: self-signed"), std::string::npos) << r.error().message;
  EXPECT_EQ(srv.handshakes_ok(), 0);
}

}  // namespace
