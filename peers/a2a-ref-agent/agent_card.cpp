// The agent card (a2a-protocol.md §3.12): one skill per in-band behaviour so
// a client (or the ACTS runner's requires_behaviors) can see what is served.
#include "peers/a2a-ref-agent/core_state.hpp"
#include "peers/a2a-ref-agent/params.hpp"

namespace a2a::agent {
namespace {

Json skills() {
  Json out = Json::array();
  for (const auto& b : all_behaviours()) {
    std::string id = b.prefix.empty() ? "echo" : std::string(b.prefix);
    Json skill = {{"id", id},
                  {"name", id},
                  {"description", std::string(b.description)},
                  {"tags", Json::array({"tck", "conformance"})}};
    skill["examples"] = Json::array({b.prefix.empty() ? std::string("hello") : id + " hello"});
    out.push_back(std::move(skill));
  }
  return out;
}

// The card faults change the card on every binding (public and extended card).
void apply_card_faults(const Faults& faults, Json& card) {
  if (faults.has(Fault::kCardMissingInterfaces)) card.erase("supportedInterfaces");
  if (faults.has(Fault::kCardNoCapabilities)) card.erase("capabilities");
  if (faults.has(Fault::kCardRelativeInterfaceUrl) && card.contains("supportedInterfaces")) {
    for (auto& i : card["supportedInterfaces"]) {
      std::string b = i.value("protocolBinding", "");
      std::string url = i.value("url", "");
      auto scheme = url.find("://");
      if ((b != "JSONRPC" && b != "HTTP+JSON") || scheme == std::string::npos) continue;
      auto path = url.find('/', scheme + 3);
      i["url"] = path == std::string::npos ? std::string("/") : url.substr(path);  // "/a2a/jsonrpc"
    }
  }
  if (faults.has(Fault::kCardWrongBindingName) && card.contains("supportedInterfaces")) {
    for (auto& i : card["supportedInterfaces"]) {
      if (i.value("protocolBinding", "") == "HTTP+JSON") i["protocolBinding"] = "REST";
    }
  }
}

}  // namespace

Json agent_card(const AgentConfig& config) {
  Json card = {
      {"name", "a2a-ref-agent"},
      {"description",
       "Reference A2A 1.0 agent of the a2a-conformance suite: every operation, streaming, cancel, "
       "multi-turn and push-config CRUD, with behaviours chosen in-band by tck-* message prefixes."},
      {"version", std::string(kAgentVersion)},
      {"supportedInterfaces", config.interfaces},
      {"provider", {{"organization", "a2a-conformance"}, {"url", "https://a2a-protocol.org"}}},
      {"capabilities", {{"streaming", true}, {"pushNotifications", true}, {"extendedAgentCard", true}}},
      {"defaultInputModes", Json::array({"text/plain", "application/json"})},
      {"defaultOutputModes", Json::array({"text/plain", "application/json"})},
      {"skills", skills()},
  };
  config.choices->shape_card(card);
  apply_card_faults(config.faults, card);
  return card;
}

CallResult get_extended_agent_card(CoreState& st, const Json& params) {
  if (auto e = require_object(params, true)) return *e;
  if (!st.extended_card_supported) {
    return a2a_error(jsonrpc::A2AError::kUnsupportedOperation,
                     "GetExtendedAgentCard is not supported: the agent card declares capabilities.extendedAgentCard "
                     "false (spec §3.3.4)");
  }
  return agent_card(st.config);
}

}  // namespace a2a::agent
