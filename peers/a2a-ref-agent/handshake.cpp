#include "peers/a2a-ref-agent/handshake.hpp"

#include <algorithm>

#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {

using Json = nlohmann::json;

std::string choose_session_id(const std::optional<std::string>& env_value) {
  if (env_value && !env_value->empty()) return *env_value;
  return core::uuid_v7();
}

Json make_handshake(const std::string& session_id, const std::vector<std::string>& variants, uint32_t pid) {
  return Json{{"type", "handshake"},
              {"sessionId", session_id},
              {"supportedVariants", variants},
              {"pid", pid},
              {"features", Json::object()}};
}

Json make_json_handshake(const std::string& session_id, const std::vector<std::string>& variants, uint32_t pid,
                         bool with_version) {
  Json hs{{"type", "handshake"}};
  if (with_version) {
    hs["protocol"] = kStdioJsonProtocol;
    hs["protocolVersion"] = kStdioJsonVersion;
  }
  hs["sessionId"] = session_id;
  hs["supportedVariants"] = variants;
  hs["features"] = Json::array({"streaming"});
  hs["pid"] = pid;
  return hs;
}

AckOutcome check_ack(std::string_view body, const std::vector<std::string>& offered,
                     bool accept_unknown_variant) {
  AckRules rules;
  rules.accept_unknown_variant = accept_unknown_variant;
  return check_ack(body, offered, rules);
}

AckOutcome check_ack(std::string_view body, const std::vector<std::string>& offered, const AckRules& rules) {
  using V = AckOutcome::Verdict;
  Json ack = jsonrpc::parse_json_or_discarded(body);
  if (ack.is_discarded()) return {V::kProtocolError, "the first frame is not JSON, expected a handshakeAck"};
  if (!ack.is_object()) return {V::kProtocolError, "the first frame is not a JSON object, expected a handshakeAck"};
  auto type = ack.find("type");
  if (type == ack.end() || !type->is_string() || *type != "handshakeAck") {
    std::string what = ack.contains("jsonrpc") ? "a JSON-RPC message" : "an object without type handshakeAck";
    return {V::kProtocolError, "the first frame is " + what + ", expected a handshakeAck"};
  }
  if (rules.session_id) {
    auto sid = ack.find("sessionId");
    if (sid == ack.end() || !sid->is_string() || *sid != *rules.session_id) {
      return {V::kProtocolError, "handshakeAck does not echo the sessionId '" + *rules.session_id + "'"};
    }
  }
  auto variant = ack.find(rules.variant_field);
  if (variant == ack.end() || !variant->is_string()) {
    return {V::kProtocolError, "handshakeAck lacks the string member " + rules.variant_field};
  }
  auto accept = ack.find("accept");
  if (accept == ack.end() || !accept->is_boolean()) {
    return {V::kProtocolError, "handshakeAck lacks the boolean member accept"};
  }
  if (!accept->get<bool>()) return {V::kReject, {}};
  const std::string chosen = variant->get<std::string>();
  if (!rules.accept_unknown_variant && std::find(offered.begin(), offered.end(), chosen) == offered.end()) {
    return {V::kProtocolError, "handshakeAck selects variant '" + chosen + "', which was not offered"};
  }
  return {V::kAccept, {}};
}

bool is_handshake_message(std::string_view body) {
  Json j = jsonrpc::parse_json_or_discarded(body);
  if (j.is_discarded() || !j.is_object() || j.contains("jsonrpc")) return false;
  auto type = j.find("type");
  return type != j.end() && type->is_string() && (*type == "handshake" || *type == "handshakeAck");
}

}  // namespace a2a::agent
