// Content-Length framing (stdio-binding.md §2, §8.2, §9; docs/wire.md).
// The decoder parses eagerly inside feed(): a body is copied exactly once,
// from the caller's chunk into the frame, so large bodies cost about one
// memcpy. Only a partial header line or a partial body outlives a feed().
// take() shares every rule with feed() but stops after each frame and hands
// out views, so a frame wholly inside the caller's chunk is never copied.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <utility>

#include "runner/core/escape.hpp"
#include "runner/wire/codec.hpp"
#include "runner/wire/scan_support.hpp"

namespace a2a::wire {
namespace {

constexpr std::string_view kLengthName = "Content-Length";
// First reservation for a body: enough for typical messages in one step, small
// enough that a peer declaring 64 MiB and sending 10 bytes costs little.
constexpr size_t kInitialBodyReserve = 64 * 1024;
constexpr size_t kShownBytes = 120;  // of a line, in error details
// take()'s reused body buffer is released above this, so one huge frame does
// not pin its memory for the rest of the session.
constexpr size_t kKeptBodyCapacity = 1 << 20;
constexpr std::string_view kCanonicalName = "Content-Length: ";
constexpr std::string_view kCanonicalTypeLine = "Content-Type: application/json\r\n";
// take(): how far ahead of the next frame its successors' header lines are prefetched.
using detail::kPrefetchAhead;

bool is_header_byte(unsigned char c) {
  return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\r' || c == '\n';
}

bool is_space_or_tab(char c) { return c == ' ' || c == '\t'; }

std::string_view trim_space_tab(std::string_view v) {
  while (!v.empty() && is_space_or_tab(v.front())) v.remove_prefix(1);
  while (!v.empty() && is_space_or_tab(v.back())) v.remove_suffix(1);
  return v;
}

bool iequals_ascii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// Strict decimal: digits only (optionally "+" and leading zeros, as Rust's
// usize::from_str), no whitespace, no sign '-', no hex, no exponent, <= 2^64-1.
bool parse_decimal(std::string_view v, bool allow_plus_and_zeros, uint64_t& out) {
  if (allow_plus_and_zeros && !v.empty() && v.front() == '+') v.remove_prefix(1);
  if (v.empty()) return false;
  if (!allow_plus_and_zeros && v.size() > 1 && v.front() == '0') return false;
  uint64_t n = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return false;
    auto digit = static_cast<uint64_t>(c - '0');
    if (n > (UINT64_MAX - digit) / 10) return false;
    n = n * 10 + digit;
  }
  out = n;
  return true;
}

using detail::at;
std::string quoted(std::string_view bytes) { return "'" + core::escape_bytes(bytes, kShownBytes) + "'"; }

// The header block every conforming writer emits (encode_content_length's,
// with or without its Content-Type line) when it and the whole body are in
// `in`. Every rule set reads these bytes the same way, so the shortcut only
// skips the line-by-line work; anything else (leading zeros, other fields, a
// body still to come, a header or body cap it would break) gives header 0
// and goes the general way, which also words the errors.
struct CanonicalFrame {
  size_t header = 0;  // bytes of the header block, blank line included; 0 = not canonical
  size_t body = 0;
  std::string_view digits;
  bool typed = false;  // with the Content-Type line
};

inline bool is_crlf(const char* p) { return p[0] == '\r' && p[1] == '\n'; }

inline CanonicalFrame parse_canonical(std::string_view in, const ContentLengthRules& rules) {
  // The shortest canonical block is the name, one digit and two CRLFs.
  const size_t n = in.size();
  const char* p = in.data();
  if (n < kCanonicalName.size() + 5 || std::memcmp(p, kCanonicalName.data(), kCanonicalName.size()) != 0) return {};
  size_t i = kCanonicalName.size();
  const size_t first = i;
  uint64_t length = 0;
  // 19 digits cannot overflow; a longer value goes the general way.
  while (i < n && i - first < 19 && static_cast<unsigned char>(p[i] - '0') < 10) {
    length = length * 10 + static_cast<uint64_t>(p[i++] - '0');
  }
  const size_t last = i;
  if (last == first || (p[first] == '0' && last - first > 1) || n - i < 4 || !is_crlf(p + i)) return {};
  i += 2;
  const bool typed = n - i >= kCanonicalTypeLine.size() + 2 &&
                     std::memcmp(p + i, kCanonicalTypeLine.data(), kCanonicalTypeLine.size()) == 0;
  if (typed) i += kCanonicalTypeLine.size();
  if (!is_crlf(p + i)) return {};
  i += 2;
  if ((rules.max_header_block != 0 && i > rules.max_header_block) || length > rules.max_body || length > n - i) return {};
  return CanonicalFrame{i, static_cast<size_t>(length), in.substr(first, last - first), typed};
}

class ContentLengthDecoder final : public Decoder {
 public:
  explicit ContentLengthDecoder(ContentLengthRules rules) : rules_(rules) {}

  void feed(std::string_view bytes) override {
    while (!bytes.empty() && state_ != State::kDone && !finished_) step(bytes);
  }

  FrameView take(std::string_view& in) override {
    view_mode_ = true;
    if (body_viewed_) {
      body_viewed_ = false;
      if (body_.capacity() > kKeptBodyCapacity) body_ = std::string();
      body_.clear();
    }
    if (state_ == State::kHeader && !frame_started_ && !finished_) {
      // The common case first: a canonical frame wholly in `in` changes no
      // state but the stream offset.
      CanonicalFrame f = parse_canonical(in, rules_);
      if (f.header != 0) {
        const std::string_view body = in.substr(f.header, f.body);
        offset_ += f.header + f.body;
        in.remove_prefix(f.header + f.body);
        // Small frames touch one line in four: ask for the header lines
        // ahead before the hardware would (free when they are cached).
        __builtin_prefetch(in.data() + kPrefetchAhead);
        __builtin_prefetch(in.data() + kPrefetchAhead + 64);
        return FrameView{DecodeResult::Status::kFrame, body, FrameError::kNone, {}};
      }
    }
    while (!view_ready_ && !in.empty() && state_ != State::kDone && !finished_) step(in);
    if (view_ready_) {
      view_ready_ = false;
      return FrameView{DecodeResult::Status::kFrame, view_body_, FrameError::kNone, {}};
    }
    if (state_ == State::kDone) return FrameView{terminal_.status, {}, terminal_.error, terminal_.detail};
    return {};
  }

  void finish() override;

  DecodeResult next() override {
    if (!ready_.empty()) {
      DecodeResult r;
      r.status = DecodeResult::Status::kFrame;
      r.frame = std::move(ready_.front().first);
      queued_bytes_ -= ready_.front().second;
      ready_.pop_front();
      return r;
    }
    if (state_ == State::kDone) return terminal_;
    return {};
  }

  size_t buffered() const override {
    return static_cast<size_t>(queued_bytes_ + (frame_started_ ? offset_ - frame_start_ : 0));
  }

 private:
  enum class State { kHeader, kBody, kDone };

  void step(std::string_view& in) {
    if (state_ == State::kBody) {
      consume_body(in);
    } else if (frame_started_ || !take_canonical_frame(in)) {
      consume_header(in);
    }
  }
  bool take_canonical_frame(std::string_view& in);
  void consume_header(std::string_view& in);
  bool check_line_bytes(std::string_view segment);
  void process_line(std::string_view line, uint64_t line_at);
  void process_field(std::string_view content, std::string_view line, uint64_t line_at);
  void set_length(std::string_view value, std::string_view line, uint64_t line_at);
  bool check_body_cap();
  void end_header_block(uint64_t line_at);
  void consume_body(std::string_view& in);
  void grow_body(size_t incoming);
  // `in_place`: the whole body, still in the caller's chunk; null: body_.
  void emit_frame(const std::string_view* in_place = nullptr);
  void fail_truncated_body();
  void fail(FrameError error, std::string detail);

  ContentLengthRules rules_;
  State state_ = State::kHeader;
  bool finished_ = false;
  uint64_t offset_ = 0;        // stream offset of the next byte fed
  bool frame_started_ = false; // a byte of the current frame has arrived
  uint64_t frame_start_ = 0;   // stream offset of that byte
  std::string line_;           // partial header line carried across feed() calls
  size_t header_bytes_ = 0;    // complete lines of this header block, terminators included
  size_t header_lines_ = 0;    // non-empty lines of this header block
  std::vector<Header> headers_;
  bool have_length_ = false;
  uint64_t length_ = 0;
  uint64_t length_at_ = 0;     // offset of the line that set length_
  std::string body_;
  uint64_t remaining_ = 0;     // body bytes still to come
  std::deque<std::pair<Frame, uint64_t>> ready_;  // frame, its size on the wire
  uint64_t queued_bytes_ = 0;
  DecodeResult terminal_;      // kEnd or kError once state_ is kDone
  bool view_mode_ = false;     // take() is used: frames are handed out one at a time, headers not kept
  bool view_ready_ = false;    // take(): a frame is complete, view_body_ shows it
  std::string_view view_body_;
  bool body_viewed_ = false;   // take(): view_body_ showed body_, which is cleared on the next call
};

// Legacy-path half of the canonical shortcut: the frame goes through
// emit_frame() with its headers recorded as written.
bool ContentLengthDecoder::take_canonical_frame(std::string_view& in) {
  CanonicalFrame f = parse_canonical(in, rules_);
  if (f.header == 0) return false;
  if (!view_mode_) {
    headers_.reserve(2);
    headers_.push_back(Header{std::string(kLengthName), std::string(f.digits)});
    if (f.typed) headers_.push_back(Header{"Content-Type", "application/json"});
  }
  frame_started_ = true;
  frame_start_ = offset_;
  const std::string_view body = in.substr(f.header, f.body);
  offset_ += f.header + f.body;
  in.remove_prefix(f.header + f.body);
  emit_frame(&body);
  return true;
}

// Takes bytes up to and including the next '\n' (or all of `in`), checking
// each byte and the header cap before anything is kept.
void ContentLengthDecoder::consume_header(std::string_view& in) {
  if (!frame_started_) {
    frame_started_ = true;
    frame_start_ = offset_;
  }
  const void* nl = std::memchr(in.data(), '\n', in.size());
  size_t take = nl ? static_cast<size_t>(static_cast<const char*>(nl) - in.data()) + 1 : in.size();
  std::string_view segment = in.substr(0, take);
  if (!check_line_bytes(segment)) return;
  uint64_t line_at = offset_ - line_.size();
  in.remove_prefix(take);
  offset_ += take;
  if (!nl) {
    line_.append(segment);
  } else if (line_.empty()) {
    process_line(segment, line_at);
  } else {
    line_.append(segment);
    std::string line = std::move(line_);
    line_.clear();
    process_line(line, line_at);
  }
}

bool ContentLengthDecoder::check_line_bytes(std::string_view segment) {
  size_t limit = segment.size();
  const size_t cap = rules_.max_header_block;
  const size_t used = header_bytes_ + line_.size();
  if (cap != 0) limit = std::min(limit, cap - used);  // used <= cap: checked on every byte
  for (size_t i = 0; i < limit; ++i) {
    auto c = static_cast<unsigned char>(segment[i]);
    if (is_header_byte(c)) continue;
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", c);
    fail(FrameError::kNonAsciiHeader,
         at(offset_ + i) + "byte " + hex + " is not printable ASCII in header line " +
             quoted(line_ + std::string(segment.substr(0, i + 1))));
    return false;
  }
  if (limit < segment.size()) {
    fail(FrameError::kHeaderTooLarge,
         at(offset_ + limit) + "header block exceeds the cap of " + std::to_string(cap) +
             " bytes (frame started at byte " + std::to_string(frame_start_) + ")");
    return false;
  }
  return true;
}

void ContentLengthDecoder::process_line(std::string_view line, uint64_t line_at) {
  header_bytes_ += line.size();
  std::string_view content = line;
  bool terminated = !content.empty() && content.back() == '\n';
  if (terminated) content.remove_suffix(1);
  bool had_cr = !content.empty() && content.back() == '\r';
  if (had_cr) content.remove_suffix(1);
  while (rules_.strip_all_trailing_cr && !content.empty() && content.back() == '\r') content.remove_suffix(1);
  if (terminated && !had_cr && !rules_.allow_bare_lf) {
    fail(FrameError::kMalformedHeaderLine, at(line_at) + "header line ends in a bare LF " + quoted(line));
    return;
  }
  if (!content.empty()) {
    ++header_lines_;
    process_field(content, line, line_at);
  } else if (header_lines_ == 0 && rules_.skip_empty_lines_before_headers) {
    header_bytes_ = 0;  // a stray line between frames, not part of a header block
    frame_started_ = false;
  } else {
    end_header_block(line_at);
  }
}

void ContentLengthDecoder::process_field(std::string_view content, std::string_view line,
                                         uint64_t line_at) {
  size_t colon = content.find(':');
  if (colon == std::string_view::npos) {
    if (rules_.fatal_line_without_colon) {
      fail(FrameError::kMalformedHeaderLine, at(line_at) + "header line without ':' " + quoted(line));
    }
    return;  // P46: any other line is ignored
  }
  std::string_view name = content.substr(0, colon);
  std::string_view raw = content.substr(colon + 1);
  bool bad_name = name.empty() || std::any_of(name.begin(), name.end(), is_space_or_tab);
  if (rules_.fatal_line_without_colon && bad_name) {
    fail(FrameError::kMalformedHeaderLine,
         at(line_at) + "header name is empty or contains whitespace " + quoted(line));
    return;
  }
  bool is_length = rules_.case_insensitive_names ? iequals_ascii(name, kLengthName) : name == kLengthName;
  std::string_view value = raw;
  if (rules_.allow_whitespace_around_value) {
    value = trim_space_tab(raw);
  } else if (!raw.empty() && raw.front() == ' ') {
    value = raw.substr(1);
  } else {
    is_length = false;  // P46 only recognises the exact prefix "Content-Length: "
  }
  if (!view_mode_) {
    if (headers_.empty()) headers_.reserve(2);
    headers_.push_back(Header{std::string(name), std::string(value)});
  }
  if (is_length) set_length(value, line, line_at);
}

void ContentLengthDecoder::set_length(std::string_view value, std::string_view line, uint64_t line_at) {
  uint64_t n = 0;
  if (!parse_decimal(value, rules_.allow_plus_and_leading_zeros, n)) {
    fail(FrameError::kInvalidContentLength,
         at(line_at) + "Content-Length value " + quoted(value) +
             " is not a strict decimal number below 2^64 in line " + quoted(line));
    return;
  }
  if (have_length_ && rules_.duplicate_lengths_must_agree && n != length_) {
    fail(FrameError::kConflictingContentLength,
         at(line_at) + "Content-Length " + std::to_string(n) + " conflicts with Content-Length " +
             std::to_string(length_) + " at byte " + std::to_string(length_at_));
    return;
  }
  have_length_ = true;
  length_ = n;
  length_at_ = line_at;
  // With last-wins a later line may still lower the value, so P46 (like
  // read_frame) checks the cap only when the header block ends.
  if (rules_.duplicate_lengths_must_agree) check_body_cap();
}

bool ContentLengthDecoder::check_body_cap() {
  if (length_ <= rules_.max_body) return true;
  fail(FrameError::kBodyTooLarge,
       at(length_at_) + "Content-Length " + std::to_string(length_) + " exceeds the body cap of " +
           std::to_string(rules_.max_body) + " bytes (nothing allocated)");
  return false;
}

void ContentLengthDecoder::end_header_block(uint64_t line_at) {
  if (!have_length_) {
    fail(FrameError::kMissingContentLength,
         at(line_at) + "header block ended without a Content-Length line (frame started at byte " +
             std::to_string(frame_start_) + ", " + std::to_string(header_lines_) + " header lines)");
    return;
  }
  if (!check_body_cap()) return;
  state_ = State::kBody;
  remaining_ = length_;
  if (remaining_ == 0) emit_frame();
}

void ContentLengthDecoder::consume_body(std::string_view& in) {
  if (remaining_ == length_ && remaining_ <= in.size()) {
    // The whole body is here: hand it out without collecting it first.
    const std::string_view whole = in.substr(0, static_cast<size_t>(remaining_));
    in.remove_prefix(whole.size());
    offset_ += whole.size();
    remaining_ = 0;
    emit_frame(&whole);
    return;
  }
  auto take = static_cast<size_t>(std::min<uint64_t>(remaining_, in.size()));
  grow_body(take);
  body_.append(in.data(), take);
  in.remove_prefix(take);
  offset_ += take;
  remaining_ -= take;
  if (remaining_ == 0) emit_frame();
}

// Geometric growth bounded by the declared length: memory follows the bytes
// that actually arrived (at most ~2x), never the peer's claim.
void ContentLengthDecoder::grow_body(size_t incoming) {
  size_t need = body_.size() + incoming;
  if (need <= body_.capacity()) return;
  size_t target = std::max({need, 2 * body_.capacity(), kInitialBodyReserve});
  body_.reserve(static_cast<size_t>(std::min<uint64_t>(target, length_)));
}

void ContentLengthDecoder::emit_frame(const std::string_view* in_place) {
  if (view_mode_) {
    view_ready_ = true;
    view_body_ = in_place ? *in_place : std::string_view(body_);
    body_viewed_ = in_place == nullptr;
  } else {
    uint64_t wire_size = offset_ - frame_start_;
    queued_bytes_ += wire_size;
    ready_.emplace_back(Frame{std::move(headers_), in_place ? std::string(*in_place) : std::move(body_)}, wire_size);
    headers_.clear();
    body_.clear();
  }
  state_ = State::kHeader;
  frame_started_ = false;
  header_bytes_ = 0;
  header_lines_ = 0;
  have_length_ = false;
}

void ContentLengthDecoder::finish() {
  if (finished_ || state_ == State::kDone) {
    finished_ = true;
    return;
  }
  finished_ = true;
  if (state_ == State::kHeader && frame_started_) {
    if (rules_.eof_in_header_is_error) {
      fail(FrameError::kTruncatedHeader,
           at(offset_) + "end of input inside a header block that started at byte " +
               std::to_string(frame_start_) + (line_.empty() ? "" : ", partial line " + quoted(line_)));
      return;
    }
    // P46: read_line still hands over an unterminated last line and
    // read_frame interprets it ("Content-Length: x" fails, "\r" ends the block).
    if (!line_.empty()) {
      std::string line = std::move(line_);
      line_.clear();
      process_line(line, offset_ - line.size());
    }
  }
  if (state_ == State::kBody) fail_truncated_body();
  if (state_ == State::kHeader) {
    frame_started_ = false;  // P46 drops a partial header block silently
    state_ = State::kDone;
    terminal_.status = DecodeResult::Status::kEnd;
  }
}

void ContentLengthDecoder::fail_truncated_body() {
  fail(FrameError::kTruncatedBody,
       at(offset_) + "end of input after " + std::to_string(length_ - remaining_) + " of " +
           std::to_string(length_) + " body bytes (frame started at byte " + std::to_string(frame_start_) + ")");
}

void ContentLengthDecoder::fail(FrameError error, std::string detail) {
  state_ = State::kDone;
  terminal_.status = DecodeResult::Status::kError;
  terminal_.error = error;
  terminal_.detail = std::move(detail);
  line_ = std::string();
  body_ = std::string();
  headers_ = {};
}

}  // namespace

std::unique_ptr<Decoder> make_content_length_decoder(ContentLengthRules rules) {
  return std::make_unique<ContentLengthDecoder>(rules);
}

}  // namespace a2a::wire
