// Reading one HTTP response with Beast's parser fed by hand: we read raw bytes
// ourselves (so the transcript gets them exactly as received, and every read
// has the deadline) and put() them into a buffer_body parser, which hands us
// decoded body bytes piece by piece (chunked framing removed) as they arrive.
#include <array>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <cstdint>
#include <functional>
#include <limits>

#include "runner/core/escape.hpp"
#include "runner/transport/http_client_impl.hpp"

namespace a2a::transport {
namespace {

namespace http = boost::beast::http;
using Parser = http::response_parser<http::buffer_body>;

constexpr size_t kScratch = 16 * 1024;
// Bytes the parser may hold unconsumed beyond the header cap: a chunk-size
// line or trailer in progress. Past it the peer is framing nothing.
constexpr size_t kFramingSlack = 64 * 1024;
constexpr size_t kShownBytes = 200;

// "16 MiB" for a cap of whole MiB, else the bytes.
std::string cap_text(size_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

void set_head(const Parser& p, HttpResponse& r) {
  const auto& msg = p.get();
  r.status = static_cast<int>(msg.result_int());
  r.reason = std::string(msg.reason());
  r.headers.clear();
  for (const auto& f : msg) r.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
}

void reset_parser(std::optional<Parser>& p, const ReadSpec& spec, size_t max_header) {
  p.emplace();
  p->header_limit(static_cast<std::uint32_t>(std::min<size_t>(max_header, std::numeric_limits<std::uint32_t>::max())));
  // Body size is our own business: max_body truncates instead of failing.
  p->body_limit(std::numeric_limits<std::uint64_t>::max());
  if (spec.head_request) p->skip(true);
}

// The state of one response read, so the loop below stays short.
struct Reader {
  HttpConnection& impl;
  const ReadSpec& spec;
  ReadOutcome out;
  std::optional<Parser> parser;
  std::array<char, kScratch> scratch{};
  size_t body_bytes = 0;
  bool have_head = false;
  bool stopped = false;  // on_head / on_data said stop, or max_body was reached
  // A chunk whose declared size alone passes max_body fails at its size line:
  // waiting for its bytes would only wait out the deadline (or read 16 MiB).
  std::optional<std::uint64_t> oversized_chunk{};
  std::function<void(std::uint64_t, boost::beast::string_view, boost::system::error_code&)> on_chunk =
      [this](std::uint64_t size, boost::beast::string_view, boost::system::error_code& ec) {
        if (size <= impl.options.limits.max_body) return;
        oversized_chunk = size;
        ec = http::error::body_limit;
      };

  // A fresh parser (at the start, and after an interim 1xx response).
  void reset() {
    reset_parser(parser, spec, impl.options.limits.max_header);
    parser->on_chunk_header(on_chunk);
  }

  bool deliver(std::string_view bytes) {
    size_t max_body = impl.options.limits.max_body;
    if (body_bytes + bytes.size() > max_body) {
      bytes = bytes.substr(0, max_body - body_bytes);
      out.response.truncated = true;
    }
    body_bytes += bytes.size();
    bool go_on = true;
    if (spec.on_data) {
      if (!bytes.empty()) go_on = (*spec.on_data)(bytes);
    } else {
      out.response.body.append(bytes);
    }
    if (out.response.truncated) {
      std::string declared;
      if (auto cl = parser->content_length()) declared = "; Content-Length declared " + std::to_string(*cl);
      impl.note("response body above max_body (" + std::to_string(max_body) + " bytes)" + declared +
                "; rest not read, connection to be closed");
      return false;
    }
    return go_on;
  }

  // The head is complete: interim 1xx responses are skipped, the final one
  // goes to on_head. False = stop.
  bool on_header_done(bool& restart) {
    int status = static_cast<int>(parser->get().result_int());
    if (status >= 100 && status < 200 && status != 101) {
      restart = true;
      return true;
    }
    have_head = true;
    set_head(*parser, out.response);
    return !spec.on_head || (*spec.on_head)(out.response);
  }

  core::Error closed_error(size_t received) const {
    std::string at = " (" + impl.peer() + ")";
    if (received == 0) return core::Error{core::ErrorKind::kEof, "peer closed the connection before sending a response" + at, {}};
    if (!have_head)
      return core::Error{core::ErrorKind::kEof,
              "connection closed inside the response header after " + std::to_string(received) + " bytes" + at, {}};
    std::string framing = parser->chunked() ? " (chunked body without its last chunk)" : "";
    if (auto cl = parser->content_length()) framing = " of " + std::to_string(*cl) + " declared";
    return core::Error{core::ErrorKind::kEof,
            "connection closed mid-body after " + std::to_string(body_bytes) + " bytes" + framing + at, {}};
  }

  core::Error parse_error(const boost::system::error_code& ec, size_t received) const {
    if (oversized_chunk)
      return core::Error{core::ErrorKind::kProtocol,
                         "chunk declared larger than the " + cap_text(impl.options.limits.max_body) +
                             " cap on a response body (" + std::to_string(*oversized_chunk) + " bytes declared, " +
                             impl.peer() + ")", {}};
    if (ec == http::error::header_limit)
      return core::Error{core::ErrorKind::kProtocol, "response header above max_header (" +
                                              std::to_string(impl.options.limits.max_header) + " bytes)", {}};
    auto data = impl.inbuf.cdata();
    std::string_view pending(static_cast<const char*>(data.data()), data.size());
    return core::Error{core::ErrorKind::kProtocol, "malformed response from " + impl.peer() + " after " +
                                            std::to_string(received) + " bytes: " + ec.message() + "; next bytes '" +
                                            core::escape_bytes(pending, kShownBytes) + "'", {}};
  }

  std::string waiting_for(size_t received) const {
    if (!have_head) return "waiting for the response header (" + std::to_string(received) + " bytes received)";
    return "waiting for the response body (" + std::to_string(body_bytes) + " body bytes received)";
  }
};

}  // namespace

core::Expected<ReadOutcome> HttpConnection::read_response(const ReadSpec& spec, core::Deadline deadline,
                                                            size_t& received) {
  received = 0;
  Reader rd{*this, spec, {}, {}};
  rd.reset();
  for (;;) {
    if (inbuf.size() > 0) {
      error_code ec;
      auto& body = rd.parser->get().body();
      body.data = rd.scratch.data();
      body.size = rd.scratch.size();
      bool header_was_done = rd.parser->is_header_done();
      size_t n = rd.parser->put(inbuf.cdata(), ec);
      inbuf.consume(n);
      if (ec && ec != http::error::need_more && ec != http::error::need_buffer)
        return core::fail(rd.parse_error(ec, received));
      if (!header_was_done && rd.parser->is_header_done()) {
        bool restart = false;
        if (!rd.on_header_done(restart)) {
          rd.stopped = true;
          break;
        }
        if (restart) {
          rd.reset();
          continue;
        }
      }
      size_t got = rd.scratch.size() - rd.parser->get().body().size;
      if (got > 0 && !rd.deliver(std::string_view(rd.scratch.data(), got))) {
        rd.stopped = true;
        break;
      }
      if (rd.parser->is_done()) break;
      if (ec == http::error::need_buffer || (!ec && n > 0)) continue;
    }
    if (inbuf.size() >= options.limits.max_header + kFramingSlack)
      return core::fail(core::ErrorKind::kProtocol, std::to_string(inbuf.size()) +
                                                        " response bytes buffered without completing a header or "
                                                        "chunk line (" + peer() + ")");
    auto r = read_some(deadline);
    received += r.n;
    if (r.wait == IoResult::Wait::kDone && r.eof()) {
      error_code ec = http::error::partial_message;
      if (rd.parser->got_some()) rd.parser->put_eof(ec);  // Beast asserts a parser that saw bytes
      if (!ec && rd.have_head) break;                      // a body delimited by the close
      return core::fail(rd.closed_error(received));
    }
    if (!r.ok()) return core::fail(io_error(r, rd.waiting_for(received)));
  }
  rd.out.keep_alive = !rd.stopped && rd.parser->is_done() && rd.parser->keep_alive();
  return std::move(rd.out);
}

}  // namespace a2a::transport
