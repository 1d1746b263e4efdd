// Strict UTF-8 (RFC 3629) decoding, at the bottom of the module graph so the
// terminal escaper (escape.hpp) and the report writers share one decoder.
#pragma once

#include <cstddef>
#include <string_view>

namespace a2a::core {

// Decodes one code point at `pos`. On success returns the number of bytes
// (1-4) and sets `cp`; on an invalid, overlong, surrogate, out-of-range or
// truncated sequence returns 0 (the caller treats the byte at `pos` alone).
size_t decode_utf8(std::string_view s, size_t pos, char32_t& cp);

}  // namespace a2a::core
