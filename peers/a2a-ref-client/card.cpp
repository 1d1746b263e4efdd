#include "peers/a2a-ref-client/card.hpp"
#include "peers/a2a-ref-client/fault.hpp"

#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/transport/http_client.hpp"

namespace a2a::client {
namespace {

using core::ErrorKind;

std::string string_member(const Json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

CardInterface interface_from(const Json& entry) {
  CardInterface out;
  out.url = string_member(entry, "url");
  out.protocol_binding = string_member(entry, "protocolBinding");
  out.protocol_version = string_member(entry, "protocolVersion");
  std::string tenant = string_member(entry, "tenant");
  if (!tenant.empty()) out.tenant = tenant;  // ProtoJSON: "" is the unset default
  return out;
}

// 0.3: the binding was "transport" in additionalInterfaces.
CardInterface interface_from_v03(const Json& entry, const std::string& version) {
  CardInterface out;
  out.url = string_member(entry, "url");
  out.protocol_binding = string_member(entry, "transport");
  out.protocol_version = version;
  return out;
}

std::optional<HttpBinding> binding_of(std::string_view protocol_binding) {
  if (protocol_binding == "JSONRPC") return HttpBinding::kJsonRpc;
  if (protocol_binding == "HTTP+JSON") return HttpBinding::kRest;
  if (protocol_binding == "GRPC") return HttpBinding::kGrpc;
  if (protocol_binding == "WEBSOCKET") return HttpBinding::kWebSocket;
  return std::nullopt;
}

bool is_v0(std::string_view version) { return version.rfind("0.", 0) == 0; }

std::string offered(const std::vector<CardInterface>& all) {
  std::string out;
  for (const CardInterface& i : all) {
    if (!out.empty()) out += ", ";
    out += (i.protocol_binding.empty() ? "?" : i.protocol_binding) + " " +
           (i.protocol_version.empty() ? "?" : i.protocol_version);
  }
  return out.empty() ? "nothing" : out;
}

}  // namespace

std::string_view to_string(HttpBinding b) {
  switch (b) {
    case HttpBinding::kRest: return "rest";
    case HttpBinding::kGrpc: return "grpc";
    case HttpBinding::kWebSocket: return "websocket";
    default: return "jsonrpc";
  }
}

std::optional<HttpBinding> binding_from_cli(std::string_view s) {
  if (s == "jsonrpc") return HttpBinding::kJsonRpc;
  if (s == "rest") return HttpBinding::kRest;
  if (s == "grpc") return HttpBinding::kGrpc;
  if (s == "websocket") return HttpBinding::kWebSocket;
  return std::nullopt;
}

std::string_view protocol_binding_name(HttpBinding b) {
  switch (b) {
    case HttpBinding::kRest: return "HTTP+JSON";
    case HttpBinding::kGrpc: return "GRPC";
    case HttpBinding::kWebSocket: return "WEBSOCKET";
    default: return "JSONRPC";
  }
}

std::string SelectedInterface::describe(size_t count) const {
  std::string out = "interface #" + std::to_string(index + 1) + " of " + std::to_string(count) + ": " +
                    iface.protocol_binding + " " + iface.protocol_version + " at " + iface.url;
  if (iface.tenant) out += " (tenant " + *iface.tenant + ")";
  return out;
}

bool speaks_version(std::string_view v) {
  // Patch digits MUST be ignored in negotiation (§1.2); "1.00" or "1" are not 1.0.
  if (v.rfind("1.0", 0) != 0) return false;
  if (v.size() == 3) return true;
  if (v[3] != '.' || v.size() == 4) return false;
  return v.substr(4).find_first_not_of("0123456789") == std::string_view::npos;
}

core::Expected<std::vector<CardInterface>> card_interfaces(const Json& card) {
  if (!card.is_object()) return core::fail(ErrorKind::kSchema, "the agent card is not a JSON object");
  std::vector<CardInterface> out;
  if (auto it = card.find("supportedInterfaces"); it != card.end()) {
    if (!it->is_array()) return core::fail(ErrorKind::kSchema, "supportedInterfaces is not an array");
    for (const Json& entry : *it) out.push_back(interface_from(entry));
    return out;
  }
  if (!card.contains("url") && !card.contains("preferredTransport")) {
    return core::fail(ErrorKind::kSchema, "the agent card has neither supportedInterfaces (1.0) nor url (0.3)");
  }
  std::string version = string_member(card, "protocolVersion");
  if (version.empty()) version = "0.3";
  CardInterface main;
  main.url = string_member(card, "url");
  main.protocol_binding = string_member(card, "preferredTransport");
  if (main.protocol_binding.empty()) main.protocol_binding = "JSONRPC";
  main.protocol_version = version;
  out.push_back(main);
  if (auto it = card.find("additionalInterfaces"); it != card.end() && it->is_array()) {
    for (const Json& entry : *it) out.push_back(interface_from_v03(entry, version));
  }
  return out;
}

core::Expected<SelectedInterface> select_interface(const Json& card, std::optional<HttpBinding> forced, bool grpc) {
  auto all = card_interfaces(card);
  if (!all) return core::fail(all.error());
  bool usable_binding_seen = false;
  bool only_v0 = true;
  // Pass 1: the HTTP bindings (or the forced one); pass 2 (no forced
  // binding, gRPC built in): GRPC entries, when nothing in pass 1 fitted.
  for (int pass = 1; pass <= 2; ++pass) {
    if (pass == 2 && (forced || !grpc)) break;
    for (size_t i = 0; i < all->size(); ++i) {
      const CardInterface& c = (*all)[i];
      auto binding = binding_of(c.protocol_binding);
      if (!binding || (*binding == HttpBinding::kWebSocket && !forced)) continue;
      if (forced ? *binding != *forced : (*binding == HttpBinding::kGrpc) != (pass == 2)) continue;
      if (*binding == HttpBinding::kGrpc && !grpc) continue;
      if (*binding == HttpBinding::kWebSocket && c.url.rfind("ws://", 0) != 0) continue;
      usable_binding_seen = true;
      if (speaks_version(c.protocol_version) || fault_on("client-first-interface")) return SelectedInterface{*binding, c, i};
      if (!is_v0(c.protocol_version)) only_v0 = false;
    }
  }
  if (usable_binding_seen && only_v0) {
    return core::fail(ErrorKind::kProtocol, "agent speaks A2A 0.3 only; not supported yet (card offers " +
                                                offered(*all) + ")");
  }
  std::string wanted = forced ? std::string(protocol_binding_name(*forced))
                              : grpc ? "JSONRPC, HTTP+JSON or GRPC" : "JSONRPC or HTTP+JSON";
  if (forced == HttpBinding::kGrpc && !grpc) wanted += " (this build has no gRPC binding)";
  if (forced == HttpBinding::kWebSocket) wanted += " with a ws:// url";
  return core::fail(ErrorKind::kProtocol, "no usable interface: the card offers " + offered(*all) +
                                              "; this client needs " + wanted + " at version 1.0");
}

core::Expected<Json> fetch_card(const transport::Url& base, core::Deadline deadline, bool insecure_tls,
                                transport::Transcript* transcript) {
  transport::Url url = base.join(".well-known/agent-card.json");
  transport::HttpRequest req;
  req.method = "GET";
  req.target = url.target();
  req.headers = {{"Accept", "application/json"}, {"A2A-Version", std::string(kClientVersion)}};
  transport::HttpClientOptions options;
  options.insecure_tls = insecure_tls;
  options.user_agent = "a2a-ref-client";
  options.transcript = transcript;
  auto resp = transport::http_fetch(url, req, deadline, options);
  std::string where = "fetching the agent card from " + url.str();
  if (!resp) return core::fail(resp.error().kind, where + " failed: " + resp.error().message);
  if (resp->status < 200 || resp->status > 299) {
    return core::fail(ErrorKind::kProtocol, where + ": HTTP " + std::to_string(resp->status) + " " +
                                                resp->reason + ": " + core::escape_bytes(resp->body, 200));
  }
  Json card = jsonrpc::parse_json_or_discarded(resp->body);
  if (card.is_discarded() || !card.is_object()) {
    return core::fail(ErrorKind::kProtocol,
                      where + ": the body is not a JSON object: " + core::escape_bytes(resp->body, 200));
  }
  return card;
}

}  // namespace a2a::client
