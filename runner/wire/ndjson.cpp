// Newline-delimited JSON framing (MCP stdio, stdio-binding.md §7; docs/wire.md).
// Same shape as the Content-Length decoder: parse inside feed(), copy each
// line once, keep only a partial line (bounded by max_line) between feeds.
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <utility>

#include "runner/wire/codec.hpp"
#include "runner/wire/scan_support.hpp"

namespace a2a::wire {
namespace {

using detail::at;

class NdjsonDecoder final : public Decoder {
 public:
  explicit NdjsonDecoder(size_t max_line) : max_line_(max_line) {}

  void feed(std::string_view bytes) override {
    while (!bytes.empty() && !done_ && !finished_) consume(bytes);
  }

  void finish() override {
    if (finished_ || done_) {
      finished_ = true;
      return;
    }
    finished_ = true;
    if (!line_.empty()) {
      fail(FrameError::kTruncatedBody, at(offset_) + "end of input inside a line of " +
                                           std::to_string(line_.size()) + " bytes that started at byte " +
                                           std::to_string(offset_ - line_.size()) + " (no trailing newline)");
      return;
    }
    done_ = true;
    terminal_.status = DecodeResult::Status::kEnd;
  }

  DecodeResult next() override {
    if (!ready_.empty()) {
      DecodeResult r;
      r.status = DecodeResult::Status::kFrame;
      r.frame.body = std::move(ready_.front().first);
      queued_bytes_ -= ready_.front().second;
      ready_.pop_front();
      return r;
    }
    if (done_) return terminal_;
    return {};
  }

  size_t buffered() const override { return static_cast<size_t>(queued_bytes_ + line_.size()); }

  // One line at a time through the same path as feed() (a line is still
  // copied once: this framing is not on a hot path).
  FrameView take(std::string_view& in) override {
    while (ready_.empty() && !in.empty() && !done_ && !finished_) consume(in);
    DecodeResult r = next();
    if (r.status != DecodeResult::Status::kFrame) return FrameView{r.status, {}, r.error, terminal_.detail};
    taken_ = std::move(r.frame.body);
    return FrameView{DecodeResult::Status::kFrame, taken_, FrameError::kNone, {}};
  }

 private:
  // True when `n` line bytes (without '\n') cannot be a line within the cap;
  // one byte of slack for the '\r' of "\r\n".
  bool beyond_cap(size_t n) const { return n > max_line_ && n - max_line_ > 1; }
  void consume(std::string_view& in);
  void complete_line(std::string&& line, uint64_t line_at, size_t wire_size);
  void fail_too_long(uint64_t line_at, std::string_view why);
  void fail(FrameError error, std::string detail);

  size_t max_line_;
  bool done_ = false;
  bool finished_ = false;
  uint64_t offset_ = 0;   // stream offset of the next byte fed
  std::string line_;      // partial line carried across feed() calls
  std::deque<std::pair<std::string, uint64_t>> ready_;  // body, its size on the wire
  uint64_t queued_bytes_ = 0;
  DecodeResult terminal_;
  std::string taken_;  // the body take() last handed out
};

void NdjsonDecoder::consume(std::string_view& in) {
  const void* nl = std::memchr(in.data(), '\n', in.size());
  uint64_t line_at = offset_ - line_.size();
  if (!nl) {
    if (beyond_cap(line_.size() + in.size())) {
      fail_too_long(line_at, "with no newline yet");
      return;
    }
    line_.append(in);
    offset_ += in.size();
    in = {};
    return;
  }
  auto take = static_cast<size_t>(static_cast<const char*>(nl) - in.data()) + 1;
  if (beyond_cap(line_.size() + take - 1)) {
    fail_too_long(line_at, "");  // before copying the line
    return;
  }
  std::string line = line_.empty() ? std::string(in.substr(0, take - 1))
                                   : std::move(line_.append(in.substr(0, take - 1)));
  line_.clear();
  in.remove_prefix(take);
  offset_ += take;
  complete_line(std::move(line), line_at, static_cast<size_t>(offset_ - line_at));
}

void NdjsonDecoder::complete_line(std::string&& line, uint64_t line_at, size_t wire_size) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.size() > max_line_) {
    fail_too_long(line_at, "");
    return;
  }
  if (line.empty()) return;  // empty lines carry no message
  queued_bytes_ += wire_size;
  ready_.emplace_back(std::move(line), wire_size);
}

void NdjsonDecoder::fail_too_long(uint64_t line_at, std::string_view why) {
  fail(FrameError::kLineTooLong, at(line_at) + "line exceeds the cap of " + std::to_string(max_line_) +
                                     " bytes" + (why.empty() ? "" : " " + std::string(why)));
}

void NdjsonDecoder::fail(FrameError error, std::string detail) {
  done_ = true;
  terminal_.status = DecodeResult::Status::kError;
  terminal_.error = error;
  terminal_.detail = std::move(detail);
  line_ = std::string();
}

class NdjsonEncoder final : public Encoder {
 public:
  std::string encode(std::string_view body) const override {
    std::string out;
    out.reserve(body.size() + 1);
    out.append(body).push_back('\n');
    return out;
  }
};

}  // namespace

std::unique_ptr<Decoder> make_ndjson_decoder(size_t max_line) { return std::make_unique<NdjsonDecoder>(max_line); }

std::unique_ptr<Encoder> make_ndjson_encoder() { return std::make_unique<NdjsonEncoder>(); }

}  // namespace a2a::wire
