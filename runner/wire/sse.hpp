// Server-Sent Events (WHATWG HTML §9.2 "event stream interpretation"): pure
// bytes, no I/O. The parser is fed arbitrary chunks (one byte at a time must
// work) and yields whole events; the encoder writes one event. Both HTTP
// bindings stream over SSE: each `data:` holds one JSON document (a JSON-RPC
// response on JSON-RPC, a bare StreamResponse on REST). docs/wire.md has the
// rules and what A2A peers are seen to send (Go's `id:` lines and `: keep-alive`).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace a2a::wire {

struct SseEvent {
  std::string event;  // the `event:` field; "" = none given ("message" by default per WHATWG)
  std::string data;   // `data:` lines joined with '\n' (no trailing '\n')
  std::string id;     // the last `id:` seen (sticky across events, as WHATWG says)
  std::optional<long long> retry;  // `retry:` when given in this event and all digits
};

// One event as views, valid only while the sink that receives it runs.
struct SseEventView {
  std::string_view event;
  std::string_view data;
  std::string_view id;
  std::optional<long long> retry;
};

struct SseLimits {
  size_t max_line = 16u << 20;   // one line, bytes; above it the stream is broken
  size_t max_event = 16u << 20;  // one event's data, bytes
};

enum class SseError {
  kNone,
  kLineTooLong,   // a line above max_line (checked as bytes arrive, before buffering more)
  kEventTooLarge, // an event's data above max_event
};
std::string_view to_string(SseError e);

class SseParser {
 public:
  using EventSink = std::function<void(const SseEventView&)>;

  explicit SseParser(SseLimits limits = {});

  // Feeds bytes; complete events (dispatched by a blank line) are appended to
  // `out`. Lines end in CRLF, LF or CR (a CR ends its line at once; an LF
  // right after it, even at the start of the next chunk, is skipped). A leading UTF-8 BOM of the stream is dropped. Comments (lines
  // starting with ':') are counted, unknown fields ignored, an event with no
  // data line is not dispatched (WHATWG). After an error every call returns the
  // same error and yields nothing.
  SseError feed(std::string_view bytes, std::vector<SseEvent>& out);
  // The same events, handed to `sink` as views instead of copies: the data
  // of an event whose only data line lies within `bytes` is not copied at
  // all, and nothing is allocated per event once the buffers have grown.
  SseError feed_views(std::string_view bytes, const EventSink& sink);

  // At end of stream: true when bytes of an undispatched event are pending
  // (WHATWG discards them; callers report "stream ended mid-event").
  bool has_partial_event() const;
  size_t comment_count() const { return comments_; }
  SseError error() const { return error_; }

 private:
  void scan(std::string_view bytes, const EventSink& sink);
  // `owner`: the buffer `l` lies in, or null when it lies in the caller's
  // bytes (then a view of it may be kept until the end of this feed).
  void line(std::string_view l, std::string* owner, const EventSink& sink);
  void data_line(std::string_view value, std::string* owner);
  std::string_view data() const;  // the current event's data so far
  void keep_data();  // copies a data view into data_ before its bytes go away
  SseLimits limits_;
  SseError error_ = SseError::kNone;
  std::string buf_;          // the current incomplete line
  bool pending_cr_ = false;  // last byte was CR: a following LF belongs to it
  bool bom_checked_ = false;
  std::string data_;
  size_t data_offset_ = 0;      // data_ starts with the "data:" prefix of a line it took over
  std::string_view data_view_;  // the event's data while it is one line still in the caller's bytes
  bool data_is_view_ = false;
  bool has_data_ = false;
  std::string event_;
  std::string last_id_;
  std::optional<long long> retry_;
  bool partial_ = false;     // any field line since the last dispatch
  size_t comments_ = 0;
};

// One event: optional `event:` and `id:` lines, the data split on '\n' into
// `data:` lines, then a blank line. All lines end in LF.
std::string encode_sse(std::string_view data, std::string_view event = {}, std::string_view id = {});
// A comment line (": text\n"), for keep-alives.
std::string encode_sse_comment(std::string_view text);

}  // namespace a2a::wire
