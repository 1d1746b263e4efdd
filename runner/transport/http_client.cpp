// HttpClient's public calls: request serialisation, keep-alive reuse and the
// one retry on a stale connection. The bytes on the wire are serialised here
// by hand (not by Beast) so raw ACTS steps and the transcript see exactly
// what was sent; responses are parsed in http_response.cpp.
//
// Transcript: requests are recorded as written (kToPeer); responses as the
// raw bytes read from the socket (kFromPeer), for streams too (so a chunked
// stream shows its chunk framing); connects, reconnects and closes as notes.
#include "runner/transport/http_client.hpp"

#include <boost/asio/post.hpp>

#include "runner/core/escape.hpp"
#include "runner/transport/http_client_impl.hpp"

namespace a2a::transport {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (x != y && std::tolower(x) != std::tolower(y)) return false;
  }
  return true;
}

std::string serialize(const HttpRequest& req, const Url& origin, const std::string& user_agent) {
  std::string out = req.method + " " + (req.target.empty() ? "/" : req.target) + " HTTP/1.1\r\n";
  if (!find_header(req.headers, "Host")) out += "Host: " + origin.host_header() + "\r\n";
  for (const auto& [name, value] : req.headers) out += name + ": " + value + "\r\n";
  if (!user_agent.empty() && !find_header(req.headers, "User-Agent")) out += "User-Agent: " + user_agent + "\r\n";
  bool wants_length = !req.body.empty() || req.method == "POST" || req.method == "PUT" || req.method == "PATCH";
  if (wants_length && !find_header(req.headers, "Content-Length") && !find_header(req.headers, "Transfer-Encoding"))
    out += "Content-Length: " + std::to_string(req.body.size()) + "\r\n";
  out += "\r\n";
  out += req.body;
  return out;
}

// Sends `bytes` and reads one response on the open connection or a new one.
// A reused connection that the peer had closed (it answers a write with a
// reset or a read with EOF, before any response byte) is the normal end of
// keep-alive, not an error: that case alone is retried, once.
core::Expected<HttpResponse> exchange(HttpConnection& impl, const std::string& bytes, const ReadSpec& spec,
                                      core::Deadline deadline) {
  for (int attempt = 0;; ++attempt) {
    bool reused = impl.connected() && impl.reused;
    if (!impl.connected()) {
      auto c = impl.connect(deadline);
      if (!c) return core::fail(c.error());
    }
    auto w = impl.write_all(bytes, deadline);
    size_t received = 0;
    core::Expected<ReadOutcome> out = w.ok() ? impl.read_response(spec, deadline, received)
                                             : core::Expected<ReadOutcome>(core::fail(impl.io_error(w, "writing the request")));
    if (out) {
      if (out->keep_alive) {
        impl.reused = true;
      } else {
        impl.close("connection not reusable after this response");
      }
      return std::move(out->response);
    }
    auto kind = out.error().kind;
    bool dropped = w.ok() ? received == 0 && (kind == core::ErrorKind::kEof || kind == core::ErrorKind::kIo)
                          : w.peer_dropped();
    if (reused && attempt == 0 && dropped) {
      impl.close("");
      impl.note("reconnect: the peer closed the kept-alive connection (" + out.error().message + "); retrying once");
      continue;
    }
    impl.close(out.error().message);
    return core::fail(out.error());
  }
}

}  // namespace

struct HttpClient::Impl : HttpConnection {
  using HttpConnection::HttpConnection;
};

std::optional<std::string> find_header(const HeaderList& headers, std::string_view name) {
  for (const auto& [n, v] : headers)
    if (iequals(n, name)) return v;
  return std::nullopt;
}

std::string HttpResponse::content_type() const {
  auto v = header("Content-Type");
  if (!v) return "";
  std::string_view s = *v;
  s = s.substr(0, s.find(';'));
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

HttpClient::HttpClient(Url origin, HttpClientOptions options)
    : impl_(std::make_unique<Impl>(std::move(origin), std::move(options))) {}

// Silent close: the transcript may already be gone when a client is destroyed.
HttpClient::~HttpClient() { impl_->close(""); }

core::Expected<HttpResponse> HttpClient::request(const HttpRequest& req, core::Deadline deadline) {
  ReadSpec spec;
  spec.head_request = req.method == "HEAD";
  return exchange(*impl_, serialize(req, impl_->origin, impl_->options.user_agent), spec, deadline);
}

core::Expected<HttpResponse> HttpClient::stream(const HttpRequest& req, core::Deadline deadline,
                                                const std::function<bool(const HttpResponse& head)>& on_head,
                                                const std::function<bool(std::string_view bytes)>& on_data) {
  ReadSpec spec;
  spec.head_request = req.method == "HEAD";
  if (on_head) spec.on_head = &on_head;
  // A null on_data would collect the body; a stream never keeps it.
  std::function<bool(std::string_view)> discard = [](std::string_view) { return true; };
  spec.on_data = on_data ? &on_data : &discard;
  return exchange(*impl_, serialize(req, impl_->origin, impl_->options.user_agent), spec, deadline);
}

core::Expected<HttpResponse> HttpClient::raw(std::string_view bytes, core::Deadline deadline) {
  auto& impl = *impl_;
  impl.close("raw request needs a fresh connection");
  auto c = impl.connect(deadline);
  if (!c) return core::fail(c.error());
  ReadSpec spec;
  spec.head_request = bytes.substr(0, 5) == "HEAD ";
  auto w = impl.write_all(std::string(bytes), deadline);
  size_t received = 0;
  core::Expected<ReadOutcome> out = w.ok() ? impl.read_response(spec, deadline, received)
                                           : core::Expected<ReadOutcome>(core::fail(impl.io_error(w, "writing raw bytes")));
  impl.close("raw exchange done");
  if (!out) return core::fail(out.error());
  return std::move(out->response);
}

void HttpClient::interrupt() {
  // The post wakes a run_one_for() blocked in the owning thread; the flag
  // makes that and every later wait give up.
  if (!impl_->interrupted.exchange(true)) boost::asio::post(impl_->ioc, [] {});
}

void HttpClient::close() { impl_->close("closed by the caller"); }

core::Expected<HttpResponse> http_fetch(const Url& url, HttpRequest req, core::Deadline deadline,
                                        HttpClientOptions options) {
  // The URL names what to fetch unless the caller chose a target of its own.
  if (req.target == "/") req.target = url.target();
  HttpClient client(url, std::move(options));
  auto r = client.request(req, deadline);
  client.close();
  return r;
}

}  // namespace a2a::transport
