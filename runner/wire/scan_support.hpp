// Small pieces the decoders share (content_length.cpp, ndjson.cpp, sse.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace a2a::wire::detail {

// How far ahead of the next frame or line its successors' bytes are prefetched.
inline constexpr size_t kPrefetchAhead = 1024;

// "byte N: ", the prefix of a decoder error that names where it happened.
inline std::string at(uint64_t offset) { return "byte " + std::to_string(offset) + ": "; }

}  // namespace a2a::wire::detail
