// The P46 handshake, client side (stdio-binding.md §3.2-3.4, §8.1).
// Pure checks on a body plus the bounded read of the first frame; the
// session owns spawning and killing the child.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/transport/stdio_process.hpp"
#include "runner/wire/codec.hpp"

namespace a2a::client {

inline constexpr std::string_view kVariantA2aV1 = "a2a/v1";
inline constexpr std::string_view kVariantStdioJson = "stdio-json";

// The two stdio wire profiles the client speaks (stdio-binding.md §1-3, §4).
enum class WireProfile {
  kP46,        // handshake {type,sessionId,supportedVariants}, ack {selectedVariant, accept}
  kStdioJson,  // + protocol "a2a-stdio", protocolVersion 1.x; ack {sessionId, selectVariant, accept}
};

struct HandshakeInfo {
  std::string session_id;
  std::vector<std::string> supported_variants;
  nlohmann::json raw;  // the whole handshake object (pid, features, unknown members)
};

// Checks, in order: JSON object, type == "handshake", sessionId is a string,
// supportedVariants is a non-empty array of strings, it contains `variant`,
// and sessionId equals `expected_session_id` (H13 STRICT). Unknown members
// are ignored (H9). Errors are kProtocol with a message naming the member.
core::Expected<HandshakeInfo> validate_handshake(std::string_view body,
                                                 std::string_view expected_session_id,
                                                 std::string_view variant = kVariantA2aV1);

// {"type":"handshakeAck","selectedVariant":"<variant>","accept":true}
std::string make_handshake_ack(std::string_view variant = kVariantA2aV1);

// stdio-json extra checks on a handshake that passed validate_handshake():
// protocol is "a2a-stdio" and protocolVersion has major 1 (a newer minor is
// fine). kProtocol naming the member otherwise.
core::Expected<void> validate_json_handshake(const nlohmann::json& handshake);

// stdio-json ack: {"type":"handshakeAck","sessionId":..,"selectVariant":..,"accept":..}.
// A decline (accept false) is written too, so the child can exit 0 (§4).
std::string make_json_handshake_ack(std::string_view session_id, std::string_view variant, bool accept);

// Reads stdout until the first frame arrives. Errors (all name what was seen):
// kEof "agent closed stdout before the handshake (exit 3)" (H12, fast, with the
// exit status), kTimeout (H10), kProtocol for a framing error, which covers
// non-frame bytes before the handshake (L7), kIo for a read failure.
// Later frames that arrived in the same read stay buffered in `decoder`.
core::Expected<std::string> read_first_frame(transport::StdioProcess& proc, wire::Decoder& decoder,
                                             core::Deadline deadline);

}  // namespace a2a::client
