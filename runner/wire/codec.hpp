// Message framing for byte streams: pure bytes, no I/O. A Decoder is fed
// arbitrary chunks (one byte at a time must work) and yields whole frames;
// an Encoder turns one body into the bytes to write. Two framings share this
// interface: Content-Length (LSP-style, stdio binding P46) and newline-
// delimited JSON (MCP-style). See docs/wire.md for the rules and their sources.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace a2a::wire {

// Why a decoder stopped. Every error is fatal for the stream: after it the
// decoder only ever returns the same error (the next frame boundary is unknown).
enum class FrameError {
  kNone,
  kMissingContentLength,     // F6: header block ended without Content-Length
  kInvalidContentLength,     // F5 (P46), F7, F8, F12: not strict decimal / bad whitespace
  kBodyTooLarge,             // F10: declared length above the body cap (checked before allocating)
  kHeaderTooLarge,           // F18: header block above the header cap
  kMalformedHeaderLine,      // F15 (strict): a header line without ':'
  kNonAsciiHeader,           // F17: header bytes outside printable ASCII / not UTF-8
  kConflictingContentLength, // F14 (strict): two Content-Length values that differ
  kTruncatedBody,            // F19: EOF before the declared body length arrived
  kTruncatedHeader,          // F21 (strict): EOF inside a header block
  kLineTooLong,              // newline-delimited: a line above the body cap
};

std::string_view to_string(FrameError e);

struct Header {
  std::string name;   // as written on the wire
  std::string value;  // as written, after the separator (trimmed only where the rules say so)
};

struct Frame {
  std::vector<Header> headers;  // empty for newline-delimited framing
  std::string body;
};

// Result of Decoder::next().
struct DecodeResult {
  enum class Status {
    kFrame,     // `frame` holds one complete frame
    kNeedMore,  // feed more bytes (or call finish())
    kEnd,       // clean end: finish() was called at a frame boundary (or, P46, inside a header block)
    kError,     // fatal; `error` and `detail` say why
  };
  Status status = Status::kNeedMore;
  Frame frame;
  FrameError error = FrameError::kNone;
  std::string detail;  // human-readable: what and where ("byte 37: value '12abc' is not decimal")
};

// Reader rules for Content-Length framing (stdio-binding.md §2.2, §8.2, §9).
struct ContentLengthRules {
  bool case_insensitive_names = true;     // F4: P46 = false (exact "Content-Length")
  bool allow_whitespace_around_value = true;  // F5: "Content-Length:5", "Content-Length:  5 "; P46 = false (exactly ": ")
  bool allow_plus_and_leading_zeros = true;   // F9: "+5", "0005" accepted as 5 (both profiles)
  bool duplicate_lengths_must_agree = true;   // F14: P46 = false (last wins)
  bool allow_bare_lf = true;               // F16: lines ending in "\n" only
  bool fatal_line_without_colon = true;    // F15, F23: P46 = false (ignored)
  bool skip_empty_lines_before_headers = false;  // F24: MAY; P46 = false
  bool eof_in_header_is_error = true;      // F21: P46 = false (clean end)
  size_t max_header_block = 8 * 1024;      // F18: 0 = unlimited (P46)
  size_t max_body = 64ull * 1024 * 1024;   // F10/F11: 64 MiB in both
  bool strip_all_trailing_cr = false;      // "5\r\r\n" reads as "5"; P46 = true (Rust trim_end_matches)

  static ContentLengthRules p46();     // byte-compatible with a2a-rs PR #46's read_frame
  static ContentLengthRules lenient_strict();  // §9 recommendation: the defaults above
};

// Result of Decoder::take(): like DecodeResult, with the body as a view.
struct FrameView {
  DecodeResult::Status status = DecodeResult::Status::kNeedMore;
  // kFrame: the body. It points into the caller's input when the whole frame
  // was there (no copy), else into the decoder's own reused buffer; either
  // way it is valid until the next call on the decoder (and, in the first
  // case, only while the caller's bytes live).
  std::string_view body;
  FrameError error = FrameError::kNone;
  std::string_view detail;  // kError: as DecodeResult::detail, valid while the decoder lives
};

class Decoder {
 public:
  virtual ~Decoder() = default;
  // Consumes bytes at once: complete frames are queued for next() (a body is
  // copied once, straight from `bytes`); only a partial line or body is kept.
  // Never allocates a body before its declared length has passed the cap, and
  // then grows it as bytes arrive. Bytes fed after finish() or an error are
  // ignored. Not thread-safe.
  virtual void feed(std::string_view bytes) = 0;
  // Marks the end of input (EOF). Further next() calls report kEnd or kError.
  virtual void finish() = 0;
  // Returns the next frame, kNeedMore, kEnd or kError.
  virtual DecodeResult next() = 0;
  // Bytes buffered but not yet returned as a frame (for diagnostics).
  virtual size_t buffered() const = 0;

  // The low-allocation way to read, instead of feed()/next() (never mix the
  // two on one decoder). Consumes bytes from the front of `in` until one
  // frame is complete (kFrame; `in` then starts after it) or `in` is empty
  // (kNeedMore). Same rules, errors and details as feed()/next(); header
  // fields are checked but not returned, and nothing is allocated per frame
  // once the decoder's buffers have grown. After finish(), take() with an
  // empty `in` returns what is left (a frame finish() completed, then kEnd or kError).
  virtual FrameView take(std::string_view& in) = 0;
};

class Encoder {
 public:
  virtual ~Encoder() = default;
  virtual std::string encode(std::string_view body) const = 0;
};

// Content-Length framing. The encoder writes exactly
// "Content-Length: N\r\nContent-Type: application/json\r\n\r\n<body>".
std::unique_ptr<Decoder> make_content_length_decoder(ContentLengthRules rules = {});
std::unique_ptr<Encoder> make_content_length_encoder();
std::string encode_content_length(std::string_view body);  // same bytes as the encoder

// Newline-delimited JSON (MCP stdio): one message per line; "\r\n" accepted;
// empty lines skipped; a line longer than max_line is kLineTooLong;
// EOF with a partial line is kTruncatedBody. Encoder appends "\n" and
// rejects nothing (callers must not pass bodies containing '\n').
std::unique_ptr<Decoder> make_ndjson_decoder(size_t max_line = 64ull * 1024 * 1024);
std::unique_ptr<Encoder> make_ndjson_encoder();

}  // namespace a2a::wire
