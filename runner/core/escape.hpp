#pragma once

#include <string>
#include <string_view>

namespace a2a::core {

// Renders arbitrary bytes as printable ASCII: \r \n \t \\ kept as escapes,
// other bytes outside 0x20..0x7e as \xNN. Used for diagnostics and transcripts.
std::string escape_bytes(std::string_view bytes, size_t max_len = std::string::npos);

// Inverse for scenario text: understands \r \n \t \0 \\ \" \xNN. Returns false
// (and leaves out untouched) on a malformed escape.
bool unescape_bytes(std::string_view text, std::string& out, std::string* error = nullptr);

// UUIDv7 (RFC 9562) string, lower-case hex with dashes.
std::string uuid_v7();

}  // namespace a2a::core
