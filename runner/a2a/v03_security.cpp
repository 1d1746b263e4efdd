// Card security members (a2a-protocol.md §3.12; §9.1 rows "Security
// requirements", "Security schemes", "OAuth flows"). The 0.3 ProtoJSON card
// already used the 1.0 shapes, which the readers accept as they are.
#include <array>
#include <string_view>

#include "runner/a2a/v03_detail.hpp"

namespace a2a::model::v03 {
namespace detail {
namespace {

struct SchemeType {
  std::string_view v03;      // 0.3 `type` (OpenAPI)
  std::string_view wrapper;  // 1.0 oneof member
};
constexpr std::array<SchemeType, 5> kSchemeTypes = {{
    {"apiKey", "apiKeySecurityScheme"},
    {"http", "httpAuthSecurityScheme"},
    {"oauth2", "oauth2SecurityScheme"},
    {"openIdConnect", "openIdConnectSecurityScheme"},
    {"mutualTLS", "mtlsSecurityScheme"},
}};
// 1.0 holds one flow (oneof); when a 0.3 scheme lists several, the first in this order is kept.
constexpr std::array<const char*, 5> kFlows = {"authorizationCode", "clientCredentials", "deviceCode", "implicit",
                                               "password"};

std::string wrapper_of(const Json& scheme) {
  if (!scheme.is_object() || scheme.size() != 1) return {};
  for (const auto& t : kSchemeTypes) {
    if (scheme.contains(std::string(t.wrapper))) return std::string(t.wrapper);
  }
  return {};
}

Json flows_to_v1(const Json& f, const std::string& path, Ctx& c) {
  if (!expect_object(f, path, c)) return f;
  Json out = f;
  std::string kept;
  for (const char* flow : kFlows) {
    if (!out.contains(flow)) continue;
    if (kept.empty()) {
      kept = flow;
      continue;
    }
    c.note(member_path(path, flow), "dropped: 1.0 holds one flow and keeps " + kept);
    out.erase(flow);
  }
  return out;
}

Json flows_to_v03(const Json& f, const std::string& path, Ctx& c) {
  if (!expect_object(f, path, c)) return f;
  if (f.contains("deviceCode")) c.note(member_path(path, "deviceCode"), "no 0.3 flow; carried over");
  return f;
}

bool is_requirement(const Json& r) {
  return r.is_object() && r.size() == 1 && r.contains("schemes") && r["schemes"].is_object();
}

Json requirement_to_v1(const Json& r, const std::string& path, Ctx& c) {
  if (is_requirement(r) || !expect_object(r, path, c)) return r;  // already the ProtoJSON shape
  Json schemes = Json::object();
  for (auto it = r.begin(); it != r.end(); ++it) {
    if (!it.value().is_array())
      c.note(member_path(path, it.key()), "must be an array of scopes, got " + describe(it.value()));
    schemes[it.key()] = Json{{"list", it.value()}};
  }
  return Json{{"schemes", std::move(schemes)}};
}

Json requirement_to_v03(const Json& r, const std::string& path, Ctx& c) {
  if (!is_requirement(r)) {
    c.note(path, "must be {\"schemes\": {name: {\"list\": [scopes]}}}, got " + describe(r));
    return r;
  }
  Json out = Json::object();
  const Json& schemes = r["schemes"];
  for (auto it = schemes.begin(); it != schemes.end(); ++it) {
    const Json& list = it.value();
    if (list.is_object() && list.contains("list")) {
      out[it.key()] = list["list"];
    } else if (list.is_object() && list.empty()) {
      out[it.key()] = Json::array();  // ProtoJSON omits an empty list
    } else {
      c.note(member_path(member_path(path, "schemes"), it.key()), "must be {\"list\": [...]}, got " + describe(list));
      out[it.key()] = list;
    }
  }
  return out;
}

}  // namespace

Json security_to_v1(const Json& reqs, const std::string& path, Ctx& c) {
  return map_array(reqs, path, c, requirement_to_v1);
}

Json security_to_v03(const Json& reqs, const std::string& path, Ctx& c) {
  if (!c.rpc()) return reqs;  // the 0.3 proto's Security is 1.0's SecurityRequirement
  return map_array(reqs, path, c, requirement_to_v03);
}

Json scheme_to_v1(const Json& s, const std::string& path, Ctx& c) {
  if (!expect_object(s, path, c) || !wrapper_of(s).empty()) return s;
  Json inner = s;
  const Json type = take(inner, "type");
  for (const auto& t : kSchemeTypes) {
    if (type != t.v03) continue;
    if (t.v03 == "apiKey") rename(inner, "in", "location", path, c);
    if (t.v03 == "oauth2") convert_member(inner, "flows", path, c, flows_to_v1);
    return Json{{std::string(t.wrapper), std::move(inner)}};
  }
  c.note(member_path(path, "type"), "unknown 0.3 security scheme type " + describe(type));
  return s;
}

Json scheme_to_v03(const Json& s, const std::string& path, Ctx& c) {
  const std::string wrapper = wrapper_of(s);
  if (wrapper.empty()) {
    c.note(path,
           "must be exactly one of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, "
           "openIdConnectSecurityScheme, mtlsSecurityScheme");
    return s;
  }
  if (!c.rpc()) return s;  // the 0.3 proto used the same wrappers
  const std::string where = member_path(path, wrapper);
  if (!expect_object(s[wrapper], where, c)) return s;
  Json out = s[wrapper];
  for (const auto& t : kSchemeTypes) {
    if (t.wrapper == wrapper) out["type"] = t.v03;
  }
  if (wrapper == "apiKeySecurityScheme") {
    rename(out, "location", "in", where, c);
    const Json in = out.value("in", Json());
    if (in != "query" && in != "header" && in != "cookie") {
      c.note(member_path(where, "location"), "0.3 allows query, header or cookie, got " + describe(in));
    }
  }
  if (wrapper == "oauth2SecurityScheme") convert_member(out, "flows", where, c, flows_to_v03);
  return out;
}

}  // namespace detail
}  // namespace a2a::model::v03
