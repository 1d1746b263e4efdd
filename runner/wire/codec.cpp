#include "runner/wire/codec.hpp"

namespace a2a::wire {

// Stable snake_case names: reports and scenario files match on them.
std::string_view to_string(FrameError e) {
  switch (e) {
    case FrameError::kNone: return "none";
    case FrameError::kMissingContentLength: return "missing_content_length";
    case FrameError::kInvalidContentLength: return "invalid_content_length";
    case FrameError::kBodyTooLarge: return "body_too_large";
    case FrameError::kHeaderTooLarge: return "header_too_large";
    case FrameError::kMalformedHeaderLine: return "malformed_header_line";
    case FrameError::kNonAsciiHeader: return "non_ascii_header";
    case FrameError::kConflictingContentLength: return "conflicting_content_length";
    case FrameError::kTruncatedBody: return "truncated_body";
    case FrameError::kTruncatedHeader: return "truncated_header";
    case FrameError::kLineTooLong: return "line_too_long";
  }
  return "unknown";
}

}  // namespace a2a::wire
