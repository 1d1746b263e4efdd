// The HTTP client's connection: resolve, connect, TLS, write, read, each one
// bounded by a deadline and by interrupt(). Every asynchronous operation
// reports into a shared Op and only touches buffers owned by Impl, so even an
// operation drained late can never write into a dead stack frame.
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/write.hpp>
#include <vector>

#include "runner/transport/http_client_impl.hpp"

namespace a2a::transport {
namespace {

constexpr size_t kReadChunk = 16 * 1024;
// After cancelling, operations complete at the next run of the io_context;
// this bound only guards against a bug turning into a hang.
constexpr int kDrainRounds = 500;
constexpr core::Millis kDrainStep{10};

}  // namespace

bool IoResult::eof() const {
  return ec == asio::error::eof || ec == asio::ssl::error::stream_truncated;
}

bool IoResult::peer_dropped() const {
  return eof() || ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
         ec == asio::error::connection_aborted;
}

struct HttpConnection::Op {
  bool done = false;
  error_code ec;
  size_t n = 0;
  std::vector<tcp::endpoint> endpoints;  // resolve results
  tcp::endpoint connected_to;
};

HttpConnection::HttpConnection(Url o, HttpClientOptions opts)
    : origin(std::move(o)), options(std::move(opts)), resolver_(ioc) {
  if (origin.tls()) {
    tls_ctx_ = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_client);
    error_code ignored;  // without a system trust store every verified handshake fails, and says so
    tls_ctx_->set_default_verify_paths(ignored);
    tls_ctx_->set_verify_mode(options.insecure_tls ? asio::ssl::verify_none : asio::ssl::verify_peer);
  }
}

HttpConnection::~HttpConnection() = default;

void HttpConnection::note(std::string_view text) const {
  if (options.transcript) options.transcript->note(text);
}

tcp::socket& HttpConnection::socket() { return tls_ ? tls_->next_layer() : *plain_; }

template <class F>
void HttpConnection::with_stream(F&& f) {
  if (tls_)
    f(*tls_);
  else
    f(*plain_);
}

IoResult HttpConnection::run(const std::shared_ptr<Op>& op, core::Deadline deadline) {
  IoResult r;
  while (!op->done) {
    if (interrupted.load()) {
      r.wait = IoResult::Wait::kInterrupted;
      break;
    }
    if (deadline.expired()) {
      r.wait = IoResult::Wait::kTimeout;
      break;
    }
    ioc.run_one_for(deadline.remaining());
    if (ioc.stopped()) ioc.restart();
  }
  if (!op->done) {
    bool had_connection = connected();
    error_code ignored;
    resolver_.cancel();
    if (connected()) socket().close(ignored);
    for (int i = 0; i < kDrainRounds && !op->done; ++i) {
      ioc.run_one_for(kDrainStep);
      if (ioc.stopped()) ioc.restart();
    }
    plain_.reset();
    tls_.reset();
    inbuf.clear();
    reused = false;
    if (had_connection)
      note(std::string(r.wait == IoResult::Wait::kTimeout ? "deadline passed" : "interrupted") +
           ": connection closed");
  }
  r.ec = op->ec;
  r.n = op->n;
  return r;
}

core::Error HttpConnection::io_error(const IoResult& r, std::string_view doing) const {
  if (r.wait == IoResult::Wait::kTimeout)
    return core::Error{core::ErrorKind::kTimeout, "timed out " + std::string(doing) + " (" + peer() + ")", {}};
  if (r.wait == IoResult::Wait::kInterrupted)
    return core::Error{core::ErrorKind::kTimeout, "interrupted " + std::string(doing) + " (" + peer() + ")", {}};
  auto kind = core::ErrorKind::kIo;
  if (r.eof()) kind = core::ErrorKind::kEof;
  if (r.ec == asio::error::broken_pipe) kind = core::ErrorKind::kBrokenPipe;
  return core::Error{kind, std::string(doing) + " (" + peer() + "): " + r.ec.message(), {}};
}

core::Expected<void> HttpConnection::connect(core::Deadline deadline) {
  close("");
  if (interrupted.load()) return core::fail(core::ErrorKind::kTimeout, "interrupted before connecting to " + peer());
  auto op = std::make_shared<Op>();
  error_code ec;
  auto literal = asio::ip::make_address(origin.host, ec);
  if (!ec) {
    op->endpoints.emplace_back(literal, origin.port);
  } else {
    resolver_.async_resolve(origin.host, std::to_string(origin.port),
                            [op](error_code e, tcp::resolver::results_type results) {
                              op->done = true;
                              op->ec = e;
                              for (const auto& entry : results) op->endpoints.push_back(entry.endpoint());
                            });
    auto r = run(op, deadline);
    if (!r.ok()) return core::fail(io_error(r, "resolving " + origin.host));
    if (op->endpoints.empty())
      return core::fail(core::ErrorKind::kIo, "resolving " + origin.host + " gave no address");
  }
  if (origin.tls()) {
    tls_.emplace(ioc, *tls_ctx_);
  } else {
    plain_.emplace(ioc);
  }
  auto cop = std::make_shared<Op>();
  asio::async_connect(socket(), op->endpoints, [cop](error_code e, const tcp::endpoint& ep) {
    cop->done = true;
    cop->ec = e;
    cop->connected_to = ep;
  });
  auto r = run(cop, deadline);
  if (!r.ok()) {
    close("");
    return core::fail(io_error(r, "connecting to " + peer()));
  }
  note("connect " + cop->connected_to.address().to_string() + ":" + std::to_string(cop->connected_to.port()));
  socket().set_option(tcp::no_delay(true), ec);
  if (tls_) {
    auto h = handshake(deadline);
    if (!h.ok()) {
      auto err = io_error(h, "TLS handshake");
      if (h.wait == IoResult::Wait::kDone) {
        long verify = SSL_get_verify_result(tls_->native_handle());
        if (verify != X509_V_OK) err.message += " (certificate: " + std::string(X509_verify_cert_error_string(verify)) + ")";
      }
      close("TLS handshake failed");
      return core::fail(err);
    }
  }
  reused = false;
  return {};
}

IoResult HttpConnection::handshake(core::Deadline deadline) {
  // SNI only for names: RFC 6066 forbids IP literals in server_name.
  error_code ec;
  asio::ip::make_address(origin.host, ec);
  if (ec) SSL_set_tlsext_host_name(tls_->native_handle(), origin.host.c_str());
  if (!options.insecure_tls) tls_->set_verify_callback(asio::ssl::host_name_verification(origin.host));
  auto op = std::make_shared<Op>();
  tls_->async_handshake(asio::ssl::stream_base::client, [op](error_code e) {
    op->done = true;
    op->ec = e;
  });
  return run(op, deadline);
}

IoResult HttpConnection::write_all(std::string bytes, core::Deadline deadline) {
  out_ = std::move(bytes);
  if (options.transcript) options.transcript->add(Direction::kToPeer, out_);
  auto op = std::make_shared<Op>();
  with_stream([&](auto& s) {
    asio::async_write(s, asio::buffer(out_), [op](error_code e, size_t n) {
      op->done = true;
      op->ec = e;
      op->n = n;
    });
  });
  return run(op, deadline);
}

IoResult HttpConnection::read_some(core::Deadline deadline) {
  auto op = std::make_shared<Op>();
  auto space = inbuf.prepare(kReadChunk);
  with_stream([&](auto& s) {
    s.async_read_some(space, [op](error_code e, size_t n) {
      op->done = true;
      op->ec = e;
      op->n = n;
    });
  });
  auto r = run(op, deadline);
  if (r.wait == IoResult::Wait::kDone && r.n > 0) {
    inbuf.commit(r.n);
    if (options.transcript) {
      auto data = inbuf.cdata();
      options.transcript->add(Direction::kFromPeer,
                              std::string_view(static_cast<const char*>(data.data()) + data.size() - r.n, r.n));
    }
  }
  return r;
}

void HttpConnection::close(std::string_view why) {
  if (!connected()) return;
  error_code ignored;
  socket().shutdown(tcp::socket::shutdown_both, ignored);
  socket().close(ignored);
  plain_.reset();
  tls_.reset();
  inbuf.clear();
  reused = false;
  if (!why.empty()) note("close: " + std::string(why));
}

}  // namespace a2a::transport
