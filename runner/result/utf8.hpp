// Strict UTF-8 (RFC 3629) decoding for text that may carry agent bytes: the
// JSON writer needs to know whether a string can be stored as-is, and the
// report writers render invalid sequences visibly instead of passing them on.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "runner/core/utf8.hpp"

namespace a2a::result {

inline constexpr char32_t kReplacementChar = 0xFFFD;

// The strict decoder lives in core (the terminal escaper needs it too).
using core::decode_utf8;

bool valid_utf8(std::string_view s);

// Appends `cp` encoded as UTF-8 (cp must be a Unicode scalar value).
void append_utf8(std::string& out, char32_t cp);

// A valid UTF-8 copy: every byte that does not start a valid sequence becomes U+FFFD.
std::string to_valid_utf8(std::string_view s);

// Standard base64 (RFC 4648, with padding) for exact bytes inside JSON.
std::string base64_encode(std::string_view bytes);
// False on a character outside the alphabet or a bad length.
bool base64_decode(std::string_view text, std::string& out);

}  // namespace a2a::result
