// Agent card discovery for --url targets (A2A spec §8.2, a2a-protocol.md
// §7.1, §7.2): GET {url}/.well-known/agent-card.json, then which of the
// card's supportedInterfaces this runner tests. Validating the card is the
// suites' job; here only what finding the interfaces needs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/engine/config.hpp"
#include "runner/transport/url.hpp"

namespace a2a::engine {

struct InterfaceMap {
  std::vector<BindingTarget> targets;  // testable, in card order, the first per binding
  std::vector<std::string> notes;      // each interface not tested, and why
};

// Pure. protocolBinding "JSONRPC" -> jsonrpc, "HTTP+JSON" -> rest, with
// protocolVersion 1.x or 0.3 (the 0.3 profile, key "jsonrpc@0.3"); GRPC,
// unknown bindings, other versions and later duplicates of a binding key are
// notes. A 0.3-style card (url / preferredTransport, no supportedInterfaces)
// is read through v03::card_to_v1, its translation notes becoming notes.
InterfaceMap map_interfaces(const nlohmann::json& card);

// {base}/.well-known/agent-card.json: appended to the URL's path, query dropped.
transport::Url agent_card_url(const transport::Url& base);

struct Discovery {
  std::optional<nlohmann::json> card;
  std::vector<BindingTarget> targets;
  std::vector<std::string> notes;  // for the console
};

// Pure: `card` is the fetched card or why it could not be had; `forced` the
// --binding values (each selects every interface of that transport).
// Forced bindings the card does not offer use `url` itself. `version`
// (--a2a-version "0.3" / "1.0", "" = none) keeps the interfaces of that
// version and tests a binding the card offers only in the other one as that
// version. An error (usage, exit 2) when nothing is usable and nothing was forced.
core::Expected<Discovery> choose_targets(const std::string& url, const core::Expected<nlohmann::json>& card,
                                         const std::vector<std::string>& forced, const std::string& version = "");

// GET the card (bounded by `deadline`): the parsed JSON, or what failed.
core::Expected<nlohmann::json> fetch_agent_card(const transport::Url& base, bool insecure_tls,
                                                core::Deadline deadline);

// fetch_agent_card + choose_targets.
core::Expected<Discovery> discover(const std::string& url, const std::vector<std::string>& forced,
                                   bool insecure_tls, core::Deadline deadline, const std::string& version = "");

}  // namespace a2a::engine
