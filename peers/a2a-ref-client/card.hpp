// Discovery for the HTTP bindings (a2a-protocol.md §1.3, §7): fetch the
// public Agent Card and choose the interface the client will talk to.
// select_interface() is pure so every rule is table-tested with literal cards.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/transport/transcript.hpp"
#include "runner/transport/url.hpp"

namespace a2a::client {

using Json = nlohmann::json;

// The bindings reached through a card fetched over HTTP (the name is older
// than kGrpc and kWebSocket: their agents' cards are served over HTTP too).
// kWebSocket is a2a-rust's binding (docs/websocket.md), used only when forced.
enum class HttpBinding { kJsonRpc, kRest, kGrpc, kWebSocket };

std::string_view to_string(HttpBinding b);                       // "jsonrpc" | "rest" | "grpc" | "websocket"
std::optional<HttpBinding> binding_from_cli(std::string_view s);  // the same names
std::string_view protocol_binding_name(HttpBinding b);           // "JSONRPC" | "HTTP+JSON" | "GRPC" | "WEBSOCKET"

// One supportedInterfaces entry (or one synthesised from a 0.3 card).
struct CardInterface {
  std::string url;
  std::string protocol_binding;  // as written: "JSONRPC", "HTTP+JSON", "GRPC", a URI
  std::string protocol_version;  // as written: "1.0", "1.0.1", "0.3"
  std::optional<std::string> tenant;
};

struct SelectedInterface {
  HttpBinding binding = HttpBinding::kJsonRpc;
  CardInterface iface;
  size_t index = 0;  // position in supportedInterfaces
  // "interface #2 of 3: HTTP+JSON 1.0 at http://h/rest (tenant acme)"
  std::string describe(size_t count) const;
};

// The version this client speaks, sent as A2A-Version on every request.
inline constexpr std::string_view kClientVersion = "1.0";

// True when `version` is Major.Minor[.Patch] with Major.Minor = 1.0.
bool speaks_version(std::string_view version);

// 1.0 card: supportedInterfaces as written (entries that are not objects are
// kept with empty fields, so they are skipped by select). 0.3 card (no
// supportedInterfaces, a url or preferredTransport): the main url with
// preferredTransport (default JSONRPC), then additionalInterfaces, all at the
// card's protocolVersion (default "0.3"). kSchema when neither shape.
core::Expected<std::vector<CardInterface>> card_interfaces(const Json& card);

// §1.3 step 2 / §7.2: the first interface in card order whose binding we
// implement (or the forced one) and whose version is 1.0; its tenant is kept
// only when a non-empty string. GRPC entries count only when `grpc` (a build
// with the gRPC binding): forced with kGrpc, or, with no forced binding, when
// no JSONRPC / HTTP+JSON entry fits (the first GRPC 1.0 entry in card order),
// so a card that offers an HTTP binding is read as before. WEBSOCKET entries
// count only when forced with kWebSocket (a2a-rust's extension is never
// picked by default), and only with a ws:// url. kProtocol errors:
// "agent speaks A2A 0.3 only; not supported yet" when every candidate of a
// usable binding is 0.x, else "no usable interface" with what was offered.
core::Expected<SelectedInterface> select_interface(const Json& card, std::optional<HttpBinding> forced,
                                                   bool grpc = false);

// GET {base}/.well-known/agent-card.json; errors say what failed (connect,
// HTTP status, not JSON, not an object) and name the URL.
core::Expected<Json> fetch_card(const transport::Url& base, core::Deadline deadline, bool insecure_tls,
                                transport::Transcript* transcript = nullptr);

}  // namespace a2a::client
