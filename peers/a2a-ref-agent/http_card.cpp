// The public agent card at /.well-known/agent-card.json (a2a-protocol.md
// §7.1): served with Cache-Control and a strong ETag over the exact body, so
// a client revalidating with If-None-Match gets 304 (R127, R128).
#include <cstdint>
#include <cstdio>

#include "peers/a2a-ref-agent/http_binding.hpp"

namespace a2a::agent {
namespace {

constexpr std::string_view kCacheControl = "max-age=300";

// RFC 9110 §13.1.2: "*" or a list of entity tags; the weak comparison
// applies (a W/ prefix on either side still matches the same opaque tag).
bool none_match(std::string_view header, std::string_view etag) {
  size_t pos = 0;
  while (pos < header.size()) {
    size_t comma = header.find(',', pos);
    std::string_view tag = header.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    pos = comma == std::string_view::npos ? header.size() : comma + 1;
    while (!tag.empty() && (tag.front() == ' ' || tag.front() == '\t')) tag.remove_prefix(1);
    while (!tag.empty() && (tag.back() == ' ' || tag.back() == '\t')) tag.remove_suffix(1);
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == "*" || tag == etag) return true;
  }
  return false;
}

}  // namespace

std::string card_etag(std::string_view body) {
  // FNV-1a 64: a content hash is all a validator needs (no security role).
  uint64_t h = 1469598103934665603ull;
  for (char c : body) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return "\"" + std::string(buf) + "\"";
}

void handle_card(const HttpContext& ctx, HttpExchange& ex) {
  const ServerRequest& req = ex.request();
  if (req.method != "GET" && req.method != "HEAD") {
    ServerReply r{405, {{"Allow", "GET, HEAD"}, {"Content-Type", "text/plain"}}, "405 the agent card is read with GET\n",
                  false};
    ex.reply(std::move(r));
    return;
  }
  HeaderList headers = {{"Cache-Control", std::string(kCacheControl)}, {"ETag", ctx.card_etag}};
  if (ctx.faults.has(Fault::kCardNoCacheHeaders)) headers.clear();
  auto inm = req.header("If-None-Match");
  if (inm && !headers.empty() && none_match(*inm, ctx.card_etag)) {
    ex.reply(ServerReply{304, std::move(headers), "", false});
    return;
  }
  headers.emplace_back("Content-Type", "application/json");
  ex.reply(ServerReply{200, std::move(headers), ctx.card_body, false});
}

}  // namespace a2a::agent
