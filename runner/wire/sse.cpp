// SSE event-stream interpretation (WHATWG HTML §9.2.6). A line is dispatched
// as soon as its terminator arrives: a CR ends the line at once and a
// following LF (maybe in the next chunk) is skipped, so an event ended by
// "\r\r" is not held back waiting for a byte that may never come, and chunking
// never changes the events produced. feed_views() hands out views: an event
// whose single data line lies in the caller's chunk is never copied.
#include "runner/wire/sse.hpp"

#include "runner/wire/scan_support.hpp"

#include <charconv>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace a2a::wire {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
// A line buffer that grew past this (one huge line) is released after use.
constexpr size_t kKeptLineCapacity = 1 << 20;
using detail::kPrefetchAhead;

// Index of the first CR or LF in p[0, n), or n: one pass over the bytes
// (SSE2 where the target has it), whichever terminator the line has.
size_t find_eol(const char* p, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i lf = _mm_set1_epi8('\n');
  auto hits = [&](size_t at) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    return _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, lf));
  };
  // 64 bytes per test while no terminator is near: one branch per cache
  // line, and a prefetch ahead (hardware prefetchers stop at page ends; free
  // when the bytes are cached).
  for (; i + 64 <= n; i += 64) {
    __builtin_prefetch(p + i + kPrefetchAhead);
    __m128i any = _mm_or_si128(_mm_or_si128(hits(i), hits(i + 16)), _mm_or_si128(hits(i + 32), hits(i + 48)));
    if (_mm_movemask_epi8(any) != 0) break;
  }
  for (; i + 16 <= n; i += 16) {
    auto mask = static_cast<unsigned>(_mm_movemask_epi8(hits(i)));
    if (mask != 0) return i + static_cast<size_t>(__builtin_ctz(mask));
  }
#endif
  for (; i < n; ++i) {
    if (p[i] == '\r' || p[i] == '\n') return i;
  }
  return n;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// Writes `text` as `prefix`-led lines: CRLF, CR and LF all split, so no stray
// CR inside a line can end it early on the reader's side.
void append_lines(std::string& out, std::string_view prefix, std::string_view text) {
  size_t i = 0;
  for (;;) {
    size_t end = text.find_first_of("\r\n", i);
    out += prefix;
    out += text.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    out += '\n';
    if (end == std::string_view::npos) return;
    i = end + 1;
    if (text[end] == '\r' && i < text.size() && text[i] == '\n') ++i;
  }
}

std::string one_line(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != '\r' && c != '\n') out += c;
  return out;
}

}  // namespace

std::string_view to_string(SseError e) {
  switch (e) {
    case SseError::kNone: return "none";
    case SseError::kLineTooLong: return "line too long";
    case SseError::kEventTooLarge: return "event too large";
  }
  return "unknown";
}

SseParser::SseParser(SseLimits limits) : limits_(limits) {}

bool SseParser::has_partial_event() const { return partial_ || !buf_.empty(); }

SseError SseParser::feed(std::string_view bytes, std::vector<SseEvent>& out) {
  return feed_views(bytes, [&out](const SseEventView& e) {
    out.push_back(SseEvent{std::string(e.event), std::string(e.data), std::string(e.id), e.retry});
  });
}

SseError SseParser::feed_views(std::string_view bytes, const EventSink& sink) {
  // The BOM may itself arrive split across chunks: hold its prefix in buf_
  // until it is either complete (dropped) or disproved (replayed as data).
  while (!bom_checked_ && !bytes.empty() && error_ == SseError::kNone) {
    buf_ += bytes.front();
    bytes.remove_prefix(1);
    if (buf_ == kBom) {
      buf_.clear();
      bom_checked_ = true;
    } else if (kBom.substr(0, buf_.size()) != buf_) {
      bom_checked_ = true;
      std::string held;
      held.swap(buf_);
      feed_views(held, sink);
    }
  }
  if (error_ == SseError::kNone) scan(bytes, sink);
  keep_data();  // `bytes` is the caller's: nothing may point into it after this call
  if (error_ != SseError::kNone) {
    // Nothing after a broken line can be framed reliably; free what we held.
    std::string().swap(buf_);
    std::string().swap(data_);
    data_offset_ = 0;
  }
  return error_;
}

void SseParser::scan(std::string_view bytes, const EventSink& sink) {
  while (!bytes.empty() && error_ == SseError::kNone) {
    if (pending_cr_) {
      pending_cr_ = false;
      if (bytes.front() == '\n') {
        bytes.remove_prefix(1);
        continue;
      }
    }
    const size_t end = find_eol(bytes.data(), bytes.size());
    if (end == bytes.size()) {
      if (buf_.size() + bytes.size() > limits_.max_line) {
        error_ = SseError::kLineTooLong;
        return;
      }
      buf_.append(bytes);
      return;
    }
    if (buf_.size() + end > limits_.max_line) {
      error_ = SseError::kLineTooLong;
      return;
    }
    if (buf_.empty() && !has_data_ && end + 1 < bytes.size() && bytes[end] == '\n' && bytes[end + 1] == '\n' &&
        bytes.starts_with("data:")) {
      // The usual event, one data line and a blank line, dispatched in one
      // step: the same checks and the same event as line() twice would give.
      std::string_view value = bytes.substr(5, end - 5);
      if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      if (value.size() > limits_.max_event) {
        error_ = SseError::kEventTooLarge;
        return;
      }
      sink(SseEventView{event_, value, last_id_, retry_});
      event_.clear();
      retry_.reset();
      partial_ = false;
      bytes.remove_prefix(end + 2);
      continue;
    }
    if (buf_.empty()) {
      line(bytes.substr(0, end), nullptr, sink);
    } else {
      buf_.append(bytes.substr(0, end));
      line(buf_, &buf_, sink);
      if (buf_.capacity() > kKeptLineCapacity) std::string().swap(buf_);
      buf_.clear();
    }
    size_t past = end + 1;
    if (bytes[end] == '\r') {
      if (past < bytes.size()) {
        if (bytes[past] == '\n') ++past;
      } else {
        pending_cr_ = true;
      }
    }
    bytes.remove_prefix(past);
  }
}

std::string_view SseParser::data() const {
  return data_is_view_ ? data_view_ : std::string_view(data_).substr(data_offset_);
}

void SseParser::keep_data() {
  if (!data_is_view_) return;
  data_.assign(data_view_);
  data_offset_ = 0;
  data_is_view_ = false;
}

void SseParser::data_line(std::string_view value, std::string* owner) {
  if (data().size() + (has_data_ ? 1 : 0) + value.size() > limits_.max_event) {
    error_ = SseError::kEventTooLarge;
    return;
  }
  if (!has_data_ && !owner) {
    data_view_ = value;
    data_is_view_ = true;
  } else if (!has_data_) {
    // A line assembled across chunks: take over its buffer instead of
    // copying the value out of it (the value runs to the buffer's end).
    data_offset_ = owner->size() - value.size();
    data_.swap(*owner);
  } else {
    keep_data();
    data_ += '\n';
    data_.append(value);
  }
  has_data_ = true;
}

void SseParser::line(std::string_view l, std::string* owner, const EventSink& sink) {
  if (error_ != SseError::kNone) return;
  if (l.empty()) {
    if (has_data_) sink(SseEventView{event_, data(), last_id_, retry_});
    data_.clear();
    data_offset_ = 0;
    data_is_view_ = false;
    event_.clear();
    retry_.reset();
    has_data_ = false;
    partial_ = false;
    return;
  }
  if (l.front() == ':') {
    ++comments_;
    return;
  }
  partial_ = true;
  // Nearly every line of a stream is a data line: it skips the general split.
  if (l.starts_with("data:")) {
    std::string_view value = l.substr(5);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    data_line(value, owner);
    return;
  }
  size_t colon = l.find(':');
  std::string_view field = l.substr(0, colon);
  std::string_view value;
  if (colon != std::string_view::npos) {
    value = l.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    data_line(value, owner);
  } else if (field == "event") {
    event_.assign(value);
  } else if (field == "id") {
    // WHATWG: an id containing NUL is ignored (it could not be echoed back).
    if (value.find('\0') == std::string_view::npos) last_id_.assign(value);
  } else if (field == "retry") {
    long long v = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (all_digits(value) && ec == std::errc()) retry_ = v;
  }
}

std::string encode_sse(std::string_view data, std::string_view event, std::string_view id) {
  std::string out;
  out.reserve(data.size() + event.size() + id.size() + 24);
  if (!event.empty()) out += "event: " + one_line(event) + "\n";
  if (!id.empty()) out += "id: " + one_line(id) + "\n";
  append_lines(out, "data: ", data);
  out += '\n';
  return out;
}

std::string encode_sse_comment(std::string_view text) {
  std::string out;
  append_lines(out, ": ", text);
  return out;
}

}  // namespace a2a::wire
