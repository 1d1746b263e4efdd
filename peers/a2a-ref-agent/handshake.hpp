// The P46 handshake (stdio-binding.md §3.2-3.4, §8.1): the child's
// `handshake` frame and the check of the client's single `handshakeAck`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace a2a::agent {

// A2A_SESSION_ID when set and non-empty (H13, H15), else a fresh UUIDv7.
std::string choose_session_id(const std::optional<std::string>& env_value);

nlohmann::json make_handshake(const std::string& session_id, const std::vector<std::string>& variants,
                              uint32_t pid);

// stdio-json (stdio-binding.md §4): protocol "a2a-stdio", protocolVersion
// "1.0", features as a list of strings. `with_version` false only for
// --fault json-hs-no-version.
nlohmann::json make_json_handshake(const std::string& session_id, const std::vector<std::string>& variants,
                                   uint32_t pid, bool with_version = true);

inline constexpr std::string_view kStdioJsonProtocol = "a2a-stdio";
inline constexpr std::string_view kStdioJsonVersion = "1.0";

struct AckOutcome {
  enum class Verdict { kAccept, kReject, kProtocolError };
  Verdict verdict = Verdict::kProtocolError;
  std::string detail;  // why, for kProtocolError
};

// H4: unknown members ignored; H5/H6: missing members or another message
// type are protocol errors; H3: a variant not offered is a protocol error
// unless `accept_unknown_variant`.
AckOutcome check_ack(std::string_view body, const std::vector<std::string>& offered,
                     bool accept_unknown_variant);

struct AckRules {
  std::string variant_field = "selectedVariant";  // stdio-json: "selectVariant"
  // stdio-json: the ack must echo this session id, checked before `accept`
  // (a wrong echo is a protocol error even when declining).
  std::optional<std::string> session_id;
  bool accept_unknown_variant = false;
};
AckOutcome check_ack(std::string_view body, const std::vector<std::string>& offered, const AckRules& rules);

// A handshake-family object (no "jsonrpc" member, "type" handshake/handshakeAck)
// arriving mid-session (H16).
bool is_handshake_message(std::string_view body);

}  // namespace a2a::agent
