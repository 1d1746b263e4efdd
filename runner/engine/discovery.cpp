#include "runner/engine/discovery.hpp"

#include <algorithm>

#include "runner/a2a/v03.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/a2a/validate.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/match_result.hpp"
#include "runner/transport/http_client.hpp"

namespace a2a::engine {

using Json = nlohmann::json;

namespace {

bool is_v1(const std::string& version) { return version == "1" || version.starts_with("1."); }
bool is_v03(const std::string& version) { return version == "0.3" || version.starts_with("0.3."); }

std::string str_member(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

// One supportedInterfaces entry: a target, or why not (`note`).
std::optional<BindingTarget> one_interface(const Json& e, size_t i, std::string& note) {
  std::string where = "supportedInterfaces[" + std::to_string(i) + "]";
  if (!e.is_object()) {
    note = where + " is not an object: not tested";
    return std::nullopt;
  }
  std::string pb = str_member(e, "protocolBinding");
  std::string url = str_member(e, "url");
  std::string version = str_member(e, "protocolVersion");
  std::string label = where + " (" + (pb.empty() ? "no protocolBinding" : pb) + " at " +
                      (url.empty() ? "no url" : url) + ")";
  // The registry knows which binding tests it: by protocolBinding and the
  // version family (0.3 interfaces go to the "<key>@0.3" adapters).
  const OperationBinding* registered = find_binding_by_card_name(pb, is_v03(version) ? "0.3" : "1");
  const OperationBinding* v1 = find_binding_by_card_name(pb, "1");
  if (!v1 && !registered) {
    if (pb == "GRPC") note = label + ": not tested (this build has no gRPC binding)";
    else note = label + ": unknown protocolBinding, not tested";
  } else if (!registered || (!is_v1(version) && !is_v03(version))) {
    bool has_v03 = find_binding_by_card_name(pb, "0.3") != nullptr;
    note = label + ": protocolVersion '" + version + "' is not tested " +
           (has_v03 ? std::string("(only 1.x and 0.3 are supported)")
                    : "(the " + (v1 ? v1->title : pb) + " binding is tested as A2A 1.x)");
  } else if (auto why = registered->check_url(url); !why.empty()) {
    note = label + ": url is not usable (" + why + "), not tested";
  }
  if (!note.empty()) return std::nullopt;
  // The target names the transport; BindingTarget::key() adds "@0.3" back.
  std::string binding = registered->key.substr(0, registered->key.find('@'));
  return BindingTarget{binding, url, str_member(e, "tenant"), version};
}

std::string join_notes(const std::vector<std::string>& notes) {
  std::string out;
  for (const auto& n : notes) out += "\n  - " + n;
  return out;
}

constexpr const char* kHint = "Use --binding jsonrpc, rest, grpc or websocket to test --url directly as that interface.";

}  // namespace

InterfaceMap map_interfaces(const Json& card) {
  InterfaceMap m;
  if (!card.is_object()) {
    m.notes.push_back("the agent card is not a JSON object (" + match::compact(card, 80) + ")");
    return m;
  }
  auto it = card.find("supportedInterfaces");
  if (it == card.end() || !it->is_array()) {
    if (card.contains("url") || card.contains("preferredTransport")) {
      // A 0.3 card (§9.3): its interfaces as 1.0 would list them.
      auto v1 = model::v03::card_to_v1(card);
      for (const auto& n : v1.notes) m.notes.push_back("0.3 agent card: " + n);
      if (v1.json.is_object() && v1.json.contains("supportedInterfaces")) {
        InterfaceMap inner = map_interfaces(v1.json);
        for (auto& n : inner.notes) m.notes.push_back(std::move(n));
        m.targets = std::move(inner.targets);
        return m;
      }
      m.notes.push_back("the agent card is 0.3-style (url / preferredTransport) but names no usable interface");
    } else {
      m.notes.push_back("the agent card declares no supportedInterfaces list");
    }
    return m;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    std::string note;
    auto t = one_interface((*it)[i], i, note);
    if (!t) {
      m.notes.push_back(note);
      continue;
    }
    auto same = std::find_if(m.targets.begin(), m.targets.end(),
                             [&](const BindingTarget& b) { return b.key() == t->key(); });
    if (same != m.targets.end()) {
      m.notes.push_back("supportedInterfaces[" + std::to_string(i) + "] (" + t->key() + " at " + t->url +
                        "): not tested, the first " + t->key() + " interface (" + same->url + ") is");
      continue;
    }
    m.targets.push_back(std::move(*t));
  }
  if (it->empty()) m.notes.push_back("the agent card's supportedInterfaces list is empty");
  return m;
}

transport::Url agent_card_url(const transport::Url& base) {
  transport::Url u = base;
  u.query.clear();
  return u.join("/.well-known/agent-card.json");
}

namespace {

bool version_matches(const BindingTarget& t, const std::string& version) {
  return version == "0.3" ? t.is_v03() : !t.is_v03();
}

// --a2a-version: the card's interfaces of that version; a binding the card
// offers only in the other version is tested in this one (the card may lie).
std::vector<BindingTarget> force_version(const std::vector<BindingTarget>& all, const std::string& version,
                                         std::vector<std::string>& notes) {
  std::vector<BindingTarget> out;
  for (const auto& t : all)
    if (version_matches(t, version)) out.push_back(t);
  for (const auto& t : all) {
    if (version_matches(t, version)) continue;
    if (std::any_of(out.begin(), out.end(), [&](const auto& o) { return o.binding == t.binding; })) continue;
    BindingTarget f = t;
    f.protocol_version = version;
    notes.push_back("--a2a-version " + version + ": testing the " + t.key() + " interface " + t.url + " as " +
                    f.key());
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

core::Expected<Discovery> choose_targets(const std::string& url, const core::Expected<Json>& card,
                                         const std::vector<std::string>& forced, const std::string& version) {
  Discovery d;
  InterfaceMap m;
  if (card) {
    d.card = *card;
    m = map_interfaces(*card);
    d.notes = m.notes;
  }
  if (!forced.empty())
    std::erase_if(m.targets, [&](const BindingTarget& t) {
      return std::find(forced.begin(), forced.end(), t.binding) == forced.end();
    });
  if (!version.empty()) m.targets = force_version(m.targets, version, d.notes);
  if (forced.empty()) {
    if (!card)
      return core::fail(core::ErrorKind::kNotFound,
                        "could not discover the agent's interfaces: " + card.error().message + "\n" + kHint);
    if (m.targets.empty())
      return core::fail(core::ErrorKind::kNotFound,
                        "the agent card at " + url + " declares no interface this runner can test:" +
                            join_notes(m.notes) + "\n" + kHint);
    d.targets = m.targets;
    return d;
  }
  for (const auto& b : forced) {
    if (std::any_of(d.targets.begin(), d.targets.end(), [&](const auto& t) { return t.binding == b; }))
      continue;
    bool found = false;
    for (const auto& t : m.targets)
      if (t.binding == b) {
        d.targets.push_back(t);
        found = true;
      }
    if (found) continue;
    d.targets.push_back(BindingTarget{b, url, "", version});
    d.notes.push_back("--binding " + b + ": " +
                      (card ? std::string("the agent card declares no usable ") + b + " interface"
                            : "no agent card (" + card.error().message + ")") +
                      "; testing " + url + " itself as the " + d.targets.back().key() + " interface");
  }
  return d;
}

// A card is a few KiB; a larger one is refused, not parsed.
constexpr size_t kMaxCardBytes = 4u << 20;

core::Expected<Json> fetch_agent_card(const transport::Url& base, bool insecure_tls, core::Deadline deadline) {
  transport::Url u = agent_card_url(base);
  transport::HttpRequest req;
  req.method = "GET";
  req.target = u.target();
  req.headers = {{"Accept", "application/json"}};
  transport::HttpClientOptions o;
  o.insecure_tls = insecure_tls;
  o.limits.max_body = kMaxCardBytes;
  auto r = transport::http_fetch(u, req, deadline, o);
  std::string what = "GET " + u.str();
  if (!r) return core::fail(r.error().kind, what + " failed: " + r.error().message);
  if (r->status != 200)
    return core::fail(core::ErrorKind::kProtocol, what + " answered HTTP " + std::to_string(r->status));
  // The cut body is not JSON; say why instead (the cap, not the agent's JSON).
  if (r->truncated)
    return core::fail(core::ErrorKind::kProtocol, what + ": agent card larger than the 4 MiB cap (its first " +
                                                      std::to_string(r->body.size()) + " bytes were read)");
  Json card = jsonrpc::parse_json_or_discarded(r->body);
  if (card.is_discarded())
    return core::fail(core::ErrorKind::kParse, what + ": the body is not JSON (" +
                                                   std::to_string(r->body.size()) + " bytes)");
  return card;
}

core::Expected<Discovery> discover(const std::string& url, const std::vector<std::string>& forced,
                                   bool insecure_tls, core::Deadline deadline, const std::string& version) {
  auto base = transport::Url::parse(url);
  if (!base) {
    // host:port for a registered binding that takes it (--binding grpc): no card to fetch.
    bool all_take_it = !forced.empty();
    for (const auto& b : forced) {
      const auto* rb = find_binding(b);
      all_take_it = all_take_it && rb && rb->check_url(url).empty();
    }
    if (!all_take_it)
      return core::fail(core::ErrorKind::kInvalidArgument, "--url " + url + ": " + base.error().message);
    return choose_targets(url, core::fail(core::ErrorKind::kNotFound, url + " is not an HTTP URL, so there is no agent card"),
                          forced, version);
  }
  auto d = choose_targets(url, fetch_agent_card(*base, insecure_tls, deadline), forced, version);
  // The card's payload checks (validate.hpp) as notes for the console; the
  // suites' get_agent_card steps fail on them (op_expect.cpp).
  if (d && d->card && d->card->is_object() && d->card->contains("supportedInterfaces"))
    for (const auto& v : model::validate_payload("AgentCard", *d->card))
      d->notes.push_back("agent card: " + v.describe());
  return d;
}

}  // namespace a2a::engine
