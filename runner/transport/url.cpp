// URL parsing for the HTTP bindings. Errors quote the URL and say which part
// is wrong, because the URL usually comes from an agent card or a config file
// the user has to fix.
#include "runner/transport/url.hpp"
#include "runner/core/ascii.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <iterator>

namespace a2a::transport {
namespace {

core::Unexpected bad(std::string_view text, const std::string& why) {
  return core::fail(core::ErrorKind::kInvalidArgument, "URL '" + std::string(text) + "': " + why);
}

uint16_t default_port(std::string_view scheme) { return scheme == "https" ? 443 : 80; }

bool is_ipv6(std::string_view host) { return host.find(':') != std::string_view::npos; }

// ASCII only: std::isalnum would follow the locale.
bool is_alnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_unreserved(char c) { return is_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~'; }

core::Expected<uint16_t> parse_port(std::string_view text, std::string_view port, std::string_view scheme) {
  if (port.empty()) return default_port(scheme);  // RFC 3986 §3.2.3: empty port = default
  unsigned long v = 0;
  for (char c : port) {
    if (c < '0' || c > '9') return bad(text, "port '" + std::string(port) + "' is not a decimal number");
    v = v * 10 + static_cast<unsigned long>(c - '0');
    if (v > 65535) break;
  }
  if (v == 0 || v > 65535) return bad(text, "port " + std::string(port) + " is out of range 1..65535");
  return static_cast<uint16_t>(v);
}

// Splits "host[:port]" / "[v6][:port]" into url.host and url.port.
core::Expected<bool> parse_authority(std::string_view text, std::string_view auth, Url& url) {
  if (auth.empty()) return bad(text, "missing host");
  if (auth.find('@') != std::string_view::npos) return bad(text, "userinfo (user@) is not supported");
  std::string_view host = auth, port;
  bool has_port = false;
  if (auth.front() == '[') {
    size_t close = auth.find(']');
    if (close == std::string_view::npos) return bad(text, "'[' without ']' in the host");
    host = auth.substr(1, close - 1);
    std::string_view rest = auth.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return bad(text, "unexpected '" + std::string(rest) + "' after ']'");
    if (!rest.empty()) port = rest.substr(1), has_port = true;
    in6_addr a6{};
    if (inet_pton(AF_INET6, std::string(host).c_str(), &a6) != 1)
      return bad(text, "'" + std::string(host) + "' is not an IPv6 address");
  } else {
    size_t colon = auth.find(':');
    if (colon != std::string_view::npos) {
      host = auth.substr(0, colon);
      port = auth.substr(colon + 1);
      has_port = true;
      if (port.find(':') != std::string_view::npos) return bad(text, "an IPv6 host must be written in brackets");
    }
    if (host.empty()) return bad(text, "missing host");
    for (char c : host)
      if (!is_unreserved(c)) return bad(text, "host '" + std::string(host) + "' contains '" + c + "'");
  }
  url.host = core::ascii_lower(host);
  auto p = parse_port(text, has_port ? port : std::string_view{}, url.scheme);
  if (!p) return core::fail(p.error());
  url.port = *p;
  return true;
}

}  // namespace

core::Expected<Url> Url::parse(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c <= 0x20 || c == 0x7f)
      return bad(text, "whitespace or control character at offset " + std::to_string(i));
  }
  size_t sep = text.find("://");
  if (sep == std::string_view::npos) return bad(text, "missing scheme (expected http:// or https://)");
  Url url;
  url.scheme = core::ascii_lower(text.substr(0, sep));
  if (url.scheme != "http" && url.scheme != "https") return bad(text, "scheme must be http or https");
  if (text.find('#') != std::string_view::npos) return bad(text, "a fragment (#...) is not allowed");
  std::string_view rest = text.substr(sep + 3);
  size_t auth_end = rest.find_first_of("/?");
  auto ok = parse_authority(text, rest.substr(0, auth_end), url);
  if (!ok) return core::fail(ok.error());
  std::string_view tail = auth_end == std::string_view::npos ? std::string_view{} : rest.substr(auth_end);
  size_t q = tail.find('?');
  url.path = std::string(tail.substr(0, q));
  if (q != std::string_view::npos) url.query = std::string(tail.substr(q + 1));
  if (url.path.empty()) url.path = "/";
  return url;
}

std::string Url::host_header() const {
  std::string h = is_ipv6(host) ? "[" + host + "]" : host;
  if (port != default_port(scheme)) h += ":" + std::to_string(port);
  return h;
}

std::string Url::origin() const { return scheme + "://" + host_header(); }

std::string Url::target() const {
  std::string t = path.empty() ? "/" : path;
  if (!query.empty()) t += "?" + query;
  return t;
}

Url Url::join(std::string_view rel) const {
  Url out = *this;
  size_t q = rel.find('?');
  std::string_view rel_path = rel.substr(0, q);
  if (q != std::string_view::npos) out.query = std::string(rel.substr(q + 1));
  if (rel_path.empty()) return out;
  std::string base = path;
  while (!base.empty() && base.back() == '/') base.pop_back();
  while (!rel_path.empty() && rel_path.front() == '/') rel_path.remove_prefix(1);
  out.path = base + "/" + std::string(rel_path);
  return out;
}

bool Url::is_loopback() const {
  if (host == "localhost") return true;
  in_addr a4{};
  if (inet_pton(AF_INET, host.c_str(), &a4) == 1) return (ntohl(a4.s_addr) >> 24) == 127;
  in6_addr a6{};
  if (inet_pton(AF_INET6, host.c_str(), &a6) == 1) {
    static const in6_addr kLoop = IN6ADDR_LOOPBACK_INIT;
    return std::equal(std::begin(a6.s6_addr), std::end(a6.s6_addr), std::begin(kLoop.s6_addr));
  }
  return false;
}

std::string percent_encode_except(std::string_view s, bool (*keep)(unsigned char)) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (keep(c)) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    }
  }
  return out;
}

std::string percent_encode(std::string_view s) {
  return percent_encode_except(s, [](unsigned char c) { return is_unreserved(static_cast<char>(c)); });
}

std::string percent_decode(std::string_view s) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace a2a::transport
