// The agent card (a2a-protocol.md §3.12, §7; §9.1 rows "Card endpoints",
// "Extended-card flag", "Capabilities", "Security ..."; §9.3 example and
// mapping; spec Appendix A.2.2).
#include <vector>

#include "runner/a2a/v03_detail.hpp"

namespace a2a::model::v03 {
namespace detail {
namespace {

constexpr const char* kDefaultTransport = "JSONRPC";  // 0.3 preferredTransport default
constexpr const char* kDefaultVersion = "0.3";

bool is_legacy_version(const Json& v) { return v.is_string() && v.get_ref<const std::string&>().rfind("0.", 0) == 0; }

// 0.3 {url, transport} (+ unknown members) -> 1.0 AgentInterface.
Json interface_to_v1(const Json& i, const Json& version, const std::string& path, Ctx& c) {
  if (!expect_object(i, path, c)) return i;
  Json out = i;
  rename(out, "transport", "protocolBinding", path, c);
  if (!out.contains("protocolVersion")) out["protocolVersion"] = version;
  return out;
}

Json interface_to_v03(const Json& i, const Json& version, const std::string& path, Ctx& c) {
  Json out = i;
  rename(out, "protocolBinding", "transport", path, c);
  const Json own = take(out, "protocolVersion");
  if (own != version)
    c.note(member_path(path, "protocolVersion"), "0.3 has one card-level version; dropped " + describe(own));
  return out;
}

// url / preferredTransport / additionalInterfaces / protocolVersion -> supportedInterfaces.
void interfaces_to_v1(Json& card, const std::string& path, Ctx& c) {
  const Json url = take(card, "url");
  const Json transport = take(card, "preferredTransport");
  const Json additional = take(card, "additionalInterfaces");
  Json version = take(card, "protocolVersion");
  if (card.contains("supportedInterfaces")) return;  // a merged 1.0 + 0.3 card (§3.12 note): the 1.0 list wins
  if (!version.is_string()) {
    c.note(member_path(path, "protocolVersion"), "must be a string, got " + describe(version));
    version = kDefaultVersion;
  }
  Json list = Json::array();
  if (url.is_string()) {
    list.push_back({{"url", url},
                    {"protocolBinding", transport.is_string() ? transport : Json(kDefaultTransport)},
                    {"protocolVersion", version}});
  } else {
    c.note(member_path(path, "url"), "must be a string, got " + describe(url));
  }
  const std::string extra_path = member_path(path, "additionalInterfaces");
  if (!additional.is_null() && !additional.is_array())
    c.note(extra_path, "must be an array, got " + describe(additional));
  for (std::size_t i = 0; additional.is_array() && i < additional.size(); ++i) {
    Json entry = interface_to_v1(additional[i], version, index_path(extra_path, i), c);
    // 0.3 advised repeating the main url + transport here; 1.0 lists it once.
    const bool repeats_main = !list.empty() && entry.is_object() && entry.value("url", Json()) == list[0]["url"] &&
                              entry.value("protocolBinding", Json()) == list[0]["protocolBinding"];
    if (!repeats_main) list.push_back(std::move(entry));
  }
  card["supportedInterfaces"] = std::move(list);
}

// The 0.x interfaces become url / preferredTransport / additionalInterfaces.
void interfaces_to_v03(Json& card, const std::string& path, Ctx& c) {
  const std::string where = member_path(path, "supportedInterfaces");
  const Json list = take(card, "supportedInterfaces");
  std::vector<Json> chosen;
  for (const auto& i : list.is_array() ? list : Json::array()) {
    if (i.is_object() && is_legacy_version(i.value("protocolVersion", Json()))) chosen.push_back(i);
  }
  if (chosen.empty() && list.is_array() && !list.empty() && list[0].is_object()) {
    c.note(where, "no interface with a 0.x protocolVersion; the 0.3 url is the first interface's");
    chosen.push_back(list[0]);
  }
  if (chosen.empty()) {
    c.note(where, "must be a non-empty array of AgentInterface, got " + describe(list));
    if (!list.is_null()) card["supportedInterfaces"] = list;
    return;
  }
  const Json& main = chosen.front();
  const Json version =
      is_legacy_version(main.value("protocolVersion", Json())) ? main["protocolVersion"] : Json(kDefaultVersion);
  card["url"] = main.value("url", Json());
  card["preferredTransport"] = main.value("protocolBinding", Json(kDefaultTransport));
  card["protocolVersion"] = version;
  const Json tenant = main.value("tenant", Json());
  if (!tenant.is_null() && tenant != "") c.note(member_path(where, "tenant"), "no 0.3 equivalent; dropped");
  if (chosen.size() < 2) return;
  Json extra = Json::array();
  for (std::size_t i = 0; i < chosen.size(); ++i)
    extra.push_back(interface_to_v03(chosen[i], version, index_path(where, i), c));
  card["additionalInterfaces"] = std::move(extra);
}

// supportsAuthenticatedExtendedCard (0.3.0) or supportsExtendedAgentCard (spec A.2.2) -> capabilities.
void extended_flag_to_v1(Json& card, const std::string& path, Ctx& c) {
  for (const char* name : {"supportsAuthenticatedExtendedCard", "supportsExtendedAgentCard"}) {
    if (!card.contains(name)) continue;
    const Json flag = take(card, name);
    Json& caps = card["capabilities"];
    if (caps.is_null()) caps = Json::object();
    if (!flag.is_boolean() || !caps.is_object()) {
      c.note(member_path(path, name), "must be a boolean beside a capabilities object, got " + describe(flag));
      card[name] = flag;
    } else if (!caps.contains("extendedAgentCard")) {
      caps["extendedAgentCard"] = flag;
    }
  }
}

void extended_flag_to_v03(Json& card) {
  auto caps = card.find("capabilities");
  if (caps == card.end() || !caps->is_object() || !caps->contains("extendedAgentCard")) return;
  Json flag = take(*caps, "extendedAgentCard");
  card["supportsAuthenticatedExtendedCard"] = std::move(flag);
}

// security (0.3) <-> securityRequirements (1.0), on the card and on each skill.
void requirements(Json& obj, bool to_v1, const std::string& path, Ctx& c) {
  const char* from = to_v1 ? "security" : "securityRequirements";
  const char* to = to_v1 ? "securityRequirements" : "security";
  if (!obj.is_object() || !obj.contains(from)) return;
  convert_member(obj, from, path, c, to_v1 ? security_to_v1 : security_to_v03);  // paths name the input
  rename(obj, from, to, path, c);
}

Json skill_to_v1(const Json& s, const std::string& path, Ctx& c) {
  Json out = s;
  requirements(out, true, path, c);
  return out;
}

Json skill_to_v03(const Json& s, const std::string& path, Ctx& c) {
  Json out = s;
  requirements(out, false, path, c);
  return out;
}

void schemes(Json& card, const std::string& path, Ctx& c, Convert fn) {
  auto it = card.find("securitySchemes");
  if (it == card.end()) return;
  const std::string where = member_path(path, "securitySchemes");
  if (!expect_object(*it, where, c)) return;
  for (auto s = it->begin(); s != it->end(); ++s) {
    Json converted = fn(s.value(), member_path(where, s.key()), c);
    s.value() = std::move(converted);
  }
}

}  // namespace

Json card_to_v1(const Json& card, const std::string& path, Ctx& c) {
  if (!expect_object(card, path, c)) return card;
  Json out = card;
  interfaces_to_v1(out, path, c);
  extended_flag_to_v1(out, path, c);
  requirements(out, true, path, c);
  schemes(out, path, c, scheme_to_v1);
  convert_each(out, "skills", path, c, skill_to_v1);
  return out;
}

Json card_to_v03(const Json& card, const std::string& path, Ctx& c) {
  if (!expect_object(card, path, c)) return card;
  Json out = card;
  interfaces_to_v03(out, path, c);
  extended_flag_to_v03(out);
  requirements(out, false, path, c);
  schemes(out, path, c, scheme_to_v03);
  convert_each(out, "skills", path, c, skill_to_v03);
  return out;
}

}  // namespace detail

Translation card_to_v1(const nlohmann::json& card) {
  detail::Ctx c;
  detail::Json out = detail::card_to_v1(card, "card", c);
  return std::move(c).done(std::move(out));
}

Translation card_to_v03(const nlohmann::json& card, Dialect d) {
  detail::Ctx c{d};
  detail::Json out = detail::card_to_v03(card, "card", c);
  return std::move(c).done(std::move(out));
}

}  // namespace a2a::model::v03
