// Pieces both HTTP bindings share: media types, the A2A-Version rule, replies.
#include <cctype>

#include "peers/a2a-ref-agent/http_binding.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/transport/url.hpp"

namespace a2a::agent {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// The `A2A-Version` query parameter (R2: a client MAY send it there), decoded.
std::optional<std::string> version_from_query(std::string_view query) {
  size_t pos = 0;
  while (pos <= query.size()) {
    size_t amp = query.find('&', pos);
    std::string_view piece = query.substr(pos, amp == std::string_view::npos ? std::string_view::npos : amp - pos);
    pos = amp == std::string_view::npos ? query.size() + 1 : amp + 1;
    size_t eq = piece.find('=');
    if (iequals(transport::percent_decode(piece.substr(0, eq)), "A2A-Version")) {
      return eq == std::string_view::npos ? std::string() : transport::percent_decode(piece.substr(eq + 1));
    }
  }
  return std::nullopt;
}

// `minor` ("1.0") or `minor` + ".N": the patch digits are ignored in negotiation (R6).
bool is_version(std::string_view v, std::string_view minor) {
  if (v == minor) return true;
  if (!v.starts_with(minor) || v.size() <= minor.size() + 1 || v[minor.size()] != '.') return false;
  for (char c : v.substr(minor.size() + 1)) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// The A2A-Version a request names: the header, else the query parameter; trimmed.
std::string requested_version(const ServerRequest& req) {
  std::optional<std::string> v = req.header("A2A-Version");
  if (!v) v = version_from_query(req.query());
  return trim(v.value_or(""));
}

}  // namespace

std::string media_type(std::string_view content_type) {
  std::string m = trim(content_type.substr(0, content_type.find(';')));
  for (char& c : m) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return m;
}

std::optional<CallError> check_version(const ServerRequest& req, const Faults& faults, bool with_v03) {
  if (faults.has(Fault::kHttpVersionIgnored)) return std::nullopt;
  std::string version = requested_version(req);
  if (is_version(version, kServedVersion)) return std::nullopt;
  std::string served = with_v03 ? "A2A 1.0 and, on JSON-RPC, 0.3" : "A2A 1.0 only";
  std::string message =
      version.empty() ? "Version not supported: no A2A-Version was sent, which means 0.3 (spec §3.6.2); this "
                        "interface serves " + served + " (send A2A-Version: 1.0)"
                      : "Version not supported: A2A-Version '" + version + "' is not served here; this interface "
                        "serves " + served;
  Json data = {{"requestedVersion", version.empty() ? "0.3" : version},
               {"supportedVersions", with_v03 ? "1.0, 0.3" : "1.0"}};
  return a2a_error(jsonrpc::A2AError::kVersionNotSupported, message, data);
}

bool requests_v03(const ServerRequest& req) {
  std::string version = requested_version(req);
  return version.empty() || is_version(version, kV03Version);
}

ServerReply overloaded_reply() {
  ServerReply r = json_reply(503, Json{{"error", {{"code", 503}, {"status", "UNAVAILABLE"},
                                                  {"message", "Server overloaded: too many requests in flight"}}}});
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

ServerReply json_reply(int status, const Json& body, std::string content_type) {
  ServerReply r;
  r.status = status;
  r.headers = {{"Content-Type", std::move(content_type)}, {"A2A-Version", std::string(kServedVersion)}};
  r.body = jsonrpc::dump(body);
  return r;
}

}  // namespace a2a::agent

namespace a2a::agent {

bool extended_card_authorized(const HttpContext& ctx, const ServerRequest& req) {
  if (ctx.faults.has(Fault::kHttpExtendedCardNoAuth)) return true;
  auto auth = req.header("Authorization");
  if (!auth) return false;
  std::string_view v = *auth;
  // RFC 9110 §11.1: the scheme name is case-insensitive.
  if (v.size() < 7 || (v.substr(0, 7) != "Bearer " && v.substr(0, 7) != "bearer ")) return false;
  v.remove_prefix(7);
  for (const auto& t : ctx.auth_tokens)
    if (v == t) return true;
  return false;
}

}  // namespace a2a::agent
