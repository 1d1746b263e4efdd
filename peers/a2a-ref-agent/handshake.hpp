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

// A handshake-family object (no "jsonrpc" member, "type" handshake/handshakeAck)
// arriving mid-session (H16).
bool is_handshake_message(std::string_view body);

}  // namespace a2a::agent
