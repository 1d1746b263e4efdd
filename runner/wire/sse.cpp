// SSE event-stream interpretation (WHATWG HTML §9.2.6). A line is dispatched
// as soon as its terminator arrives: a CR ends the line at once and a
// following LF (maybe in the next chunk) is skipped, so an event ended by
// "\r\r" is not held back waiting for a byte that may never come, and chunking
// never changes the events produced.
#include "runner/wire/sse.hpp"

#include <charconv>
#include <cstring>

namespace a2a::wire {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

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
      feed(held, out);
    }
  }
  while (!bytes.empty() && error_ == SseError::kNone) {
    if (pending_cr_) {
      pending_cr_ = false;
      if (bytes.front() == '\n') {
        bytes.remove_prefix(1);
        continue;
      }
    }
    size_t end = bytes.find_first_of("\r\n");
    if (end == std::string_view::npos) {
      if (buf_.size() + bytes.size() > limits_.max_line) {
        error_ = SseError::kLineTooLong;
        break;
      }
      buf_.append(bytes);
      return error_;
    }
    if (buf_.size() + end > limits_.max_line) {
      error_ = SseError::kLineTooLong;
      break;
    }
    if (buf_.empty()) {
      line(bytes.substr(0, end), out);
    } else {
      buf_.append(bytes.substr(0, end));
      std::string l;
      l.swap(buf_);
      line(l, out);
    }
    if (bytes[end] == '\r') {
      if (end + 1 < bytes.size()) {
        if (bytes[end + 1] == '\n') ++end;
      } else {
        pending_cr_ = true;
      }
    }
    bytes.remove_prefix(end + 1);
  }
  if (error_ != SseError::kNone) {
    // Nothing after a broken line can be framed reliably; free what we held.
    std::string().swap(buf_);
    std::string().swap(data_);
  }
  return error_;
}

void SseParser::line(std::string_view l, std::vector<SseEvent>& out) {
  if (error_ != SseError::kNone) return;
  if (l.empty()) {
    if (has_data_) out.push_back(SseEvent{event_, data_, last_id_, retry_});
    data_.clear();
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
  size_t colon = l.find(':');
  std::string_view field = l.substr(0, colon);
  std::string_view value;
  if (colon != std::string_view::npos) {
    value = l.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  partial_ = true;
  if (field == "data") {
    size_t grown = data_.size() + (has_data_ ? 1 : 0) + value.size();
    if (grown > limits_.max_event) {
      error_ = SseError::kEventTooLarge;
      return;
    }
    if (has_data_) data_ += '\n';
    data_.append(value);
    has_data_ = true;
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
