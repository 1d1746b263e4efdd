// Base64 (RFC 4648) for Part.raw and the opaque ListTasks cursor. A local
// helper: no shared module offers one and the agent needs only these two.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace a2a::agent {

// Standard alphabet with padding (what ProtoJSON writers emit for bytes).
std::string base64_encode(std::string_view bytes);
// URL-safe alphabet without padding (cursor tokens).
std::string base64url_encode(std::string_view bytes);
// Accepts the standard and the URL-safe alphabet, padded or not; nullopt on bad input.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace a2a::agent
