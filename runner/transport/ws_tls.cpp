#include "runner/transport/ws_tls.hpp"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace a2a::transport {

namespace wstls {
namespace {

// The longest single wait of a write or a handshake: a write that wants to
// read (a TLS 1.2 renegotiation) may find its bytes taken by the reader
// thread's own SSL_read, so it looks again at least this often.
constexpr int kSliceMs = 50;

std::string openssl_errors() {
  std::string s;
  while (unsigned long e = ERR_get_error()) {  // bounded: OpenSSL's queue is finite
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    if (!s.empty()) s += "; ";
    s += buf;
  }
  return s;
}

bool is_ip_literal(const std::string& host) {
  unsigned char buf[16];
  return ::inet_pton(AF_INET, host.c_str(), buf) == 1 || ::inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

}  // namespace
}  // namespace wstls

struct WsTls::Impl {
  int fd = -1;
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx{nullptr, SSL_CTX_free};
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl{nullptr, SSL_free};
  std::mutex mu;  // every call on `ssl`

  struct Step {
    int rc = 0;
    int err = SSL_ERROR_NONE;
    int sys_errno = 0;
    std::string detail;
  };

  // One OpenSSL call under the lock, with its error read before the lock goes
  // (the error queue is per thread, the SSL state is not).
  template <class F>
  Step step(F f) {
    std::lock_guard<std::mutex> lk(mu);
    ERR_clear_error();
    errno = 0;
    Step s;
    s.rc = f(ssl.get());
    if (s.rc > 0) return s;
    s.err = SSL_get_error(ssl.get(), s.rc);
    s.sys_errno = errno;
    if (s.err == SSL_ERROR_SSL || s.err == SSL_ERROR_SYSCALL) s.detail = wstls::openssl_errors();
    return s;
  }

  // Waits for what OpenSSL asked for; false when `deadline` passed first.
  bool wait(int err, core::Deadline deadline, bool sliced) {
    if (deadline.expired()) return false;
    pollfd p{fd, static_cast<short>(err == SSL_ERROR_WANT_WRITE ? POLLOUT : POLLIN), 0};
    int ms = deadline.poll_timeout_ms();
    if (sliced) ms = ms < 0 ? wstls::kSliceMs : std::min(ms, wstls::kSliceMs);
    ::poll(&p, 1, ms);  // EINTR, a slice's end: the caller's loop looks again
    return true;
  }

  std::string failure(const Step& s, const char* what) const {
    std::string m = std::string("TLS ") + what + " failed";
    if (!s.detail.empty()) m += ": " + s.detail;
    else if (s.sys_errno) m += std::string(": ") + std::strerror(s.sys_errno);
    return m;
  }
};

WsTls::WsTls(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WsTls::~WsTls() = default;

core::Expected<std::unique_ptr<WsTls>> WsTls::handshake(int fd, const std::string& host, bool insecure,
                                                         core::Deadline deadline) {
  // OpenSSL writes with plain write(): a peer gone mid-frame must be EPIPE,
  // not SIGPIPE (the stdio transport ignores it for the same reason).
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
  auto p = std::make_unique<Impl>();
  p->fd = fd;
  p->ctx.reset(SSL_CTX_new(TLS_client_method()));
  if (!p->ctx) return core::fail(core::ErrorKind::kIo, "TLS setup failed: " + wstls::openssl_errors());
  SSL_CTX_set_min_proto_version(p->ctx.get(), TLS1_2_VERSION);
  // A TCP end without close_notify reads as the end of the stream: the
  // WebSocket close handshake, not TLS, says whether the end was clean.
  SSL_CTX_set_options(p->ctx.get(), SSL_OP_IGNORE_UNEXPECTED_EOF);
  SSL_CTX_set_mode(p->ctx.get(), SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  if (!insecure) {
    SSL_CTX_set_default_verify_paths(p->ctx.get());
    SSL_CTX_set_verify(p->ctx.get(), SSL_VERIFY_PEER, nullptr);
  }
  p->ssl.reset(SSL_new(p->ctx.get()));
  if (!p->ssl || SSL_set_fd(p->ssl.get(), fd) != 1)
    return core::fail(core::ErrorKind::kIo, "TLS setup failed: " + wstls::openssl_errors());
  bool ip = wstls::is_ip_literal(host);
  if (!ip) SSL_set_tlsext_host_name(p->ssl.get(), host.c_str());  // RFC 6066: no IP literals in SNI
  if (!insecure) {
    X509_VERIFY_PARAM* param = SSL_get0_param(p->ssl.get());
    if (ip) X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
    else SSL_set1_host(p->ssl.get(), host.c_str());
  }
  for (;;) {  // each pass advances the handshake or waits, until the deadline
    auto s = p->step([](SSL* ssl) { return SSL_connect(ssl); });
    if (s.rc == 1) break;
    if (s.err == SSL_ERROR_WANT_READ || s.err == SSL_ERROR_WANT_WRITE) {
      if (!p->wait(s.err, deadline, false))
        return core::fail(core::ErrorKind::kTimeout, "the TLS handshake did not complete before the deadline");
      continue;
    }
    std::string m = p->failure(s, "handshake");
    long verify = SSL_get_verify_result(p->ssl.get());
    if (verify != X509_V_OK) m += " (certificate: " + std::string(X509_verify_cert_error_string(verify)) + ")";
    return core::fail(core::ErrorKind::kIo, m);
  }
  return std::unique_ptr<WsTls>(new WsTls(std::move(p)));
}

core::Expected<void> WsTls::write_all(std::string_view data, core::Deadline deadline) {
  size_t done = 0;
  while (done < data.size()) {  // each pass writes or waits until the deadline
    int len = static_cast<int>(std::min<size_t>(data.size() - done, 1u << 30));
    auto s = impl_->step([&](SSL* ssl) { return SSL_write(ssl, data.data() + done, len); });
    if (s.rc > 0) {
      done += static_cast<size_t>(s.rc);
      continue;
    }
    if (s.err == SSL_ERROR_WANT_READ || s.err == SSL_ERROR_WANT_WRITE) {
      if (!impl_->wait(s.err, deadline, true))
        return core::fail(core::ErrorKind::kTimeout, std::to_string(done) + " of " + std::to_string(data.size()) +
                                                         " bytes written at the deadline");
      continue;
    }
    return core::fail(core::ErrorKind::kBrokenPipe, impl_->failure(s, "write"));
  }
  return {};
}

core::Expected<size_t> WsTls::read_some(std::string& out, size_t max, core::Deadline deadline) {
  char buf[16384];
  int len = static_cast<int>(std::min(max, sizeof buf));
  for (;;) {  // each pass reads or waits until the deadline
    auto s = impl_->step([&](SSL* ssl) { return SSL_read(ssl, buf, len); });
    if (s.rc > 0) {
      out.append(buf, static_cast<size_t>(s.rc));
      return static_cast<size_t>(s.rc);
    }
    if (s.err == SSL_ERROR_ZERO_RETURN) return size_t{0};
    if (s.err == SSL_ERROR_WANT_READ || s.err == SSL_ERROR_WANT_WRITE) {
      if (!impl_->wait(s.err, deadline, true))
        return core::fail(core::ErrorKind::kTimeout, "no answer before the deadline");
      continue;
    }
    return core::fail(core::ErrorKind::kIo, impl_->failure(s, "read"));
  }
}

core::Expected<size_t> WsTls::read_blocking(char* buf, size_t len) {
  int n = static_cast<int>(std::min<size_t>(len, 1u << 30));
  for (;;) {  // ends with bytes, EOF or an error; shutdown() of the socket wakes the wait
    auto s = impl_->step([&](SSL* ssl) { return SSL_read(ssl, buf, n); });
    if (s.rc > 0) return static_cast<size_t>(s.rc);
    if (s.err == SSL_ERROR_ZERO_RETURN) return size_t{0};
    if (s.err == SSL_ERROR_WANT_READ || s.err == SSL_ERROR_WANT_WRITE) {
      // Unsliced for reads: the socket's shutdown() ends the wait with POLLHUP.
      pollfd p{impl_->fd, static_cast<short>(s.err == SSL_ERROR_WANT_WRITE ? POLLOUT : POLLIN), 0};
      ::poll(&p, 1, s.err == SSL_ERROR_WANT_WRITE ? wstls::kSliceMs : -1);
      continue;
    }
    return core::fail(core::ErrorKind::kIo, impl_->failure(s, "read"));
  }
}

std::string WsTls::version() const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return SSL_get_version(impl_->ssl.get());
}

}  // namespace a2a::transport
