// http(s) URLs as the HTTP bindings use them: an agent's base URL, an
// interface URL from its card, a webhook URL. Only what A2A needs: scheme
// http/https, host (name, IPv4, [IPv6]), optional port, path, query. No
// userinfo, no fragment (rejected with a clear error).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runner/core/expected.hpp"

namespace a2a::transport {

struct Url {
  std::string scheme;  // "http" | "https" (lower-cased)
  std::string host;    // without brackets for IPv6
  uint16_t port = 0;   // explicit or the scheme's default
  std::string path;    // "/" when empty; percent-encoding kept as written
  std::string query;   // without '?'; "" when none

  static core::Expected<Url> parse(std::string_view text);

  bool tls() const { return scheme == "https"; }
  // "http://host:port" (port omitted when default; IPv6 bracketed).
  std::string origin() const;
  // path + ("?" + query when non-empty): the request target.
  std::string target() const;
  std::string str() const { return origin() + target(); }
  // The Host header value.
  std::string host_header() const;
  // This URL with `rel` appended to its path: "/a2a" + "/tasks/1" ->
  // "/a2a/tasks/1"; exactly one '/' at the seam; `rel` may carry "?query",
  // which replaces this URL's query.
  Url join(std::string_view rel) const;
  // Loopback host (127.0.0.0/8, ::1, "localhost").
  bool is_loopback() const;
};

// RFC 3986 percent-encoding of one path segment or query value (unreserved
// characters kept), and its inverse (nullopt-free: invalid escapes kept as is).
std::string percent_encode(std::string_view s);
std::string percent_decode(std::string_view s);
// Percent-encoding with the caller's set of bytes kept as they are (every
// other byte becomes %XX, upper-case hex): percent_encode keeps RFC 3986's
// unreserved set; gRPC's grpc-message keeps 0x20..0x7E but '%'.
std::string percent_encode_except(std::string_view s, bool (*keep)(unsigned char));

}  // namespace a2a::transport
