#include "peers/a2a-ref-agent/frame_writer.hpp"

#include <charconv>

#include "peers/a2a-ref-agent/fd_io.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {
namespace {

// Collected frames are written once they reach this size, flush() or not,
// so a client of a long pipelined run gets its first answers (and sends
// more requests) while the rest are still being computed. Measured with
// stdio_rtt_bench: 8 KiB beat both 4 KiB (more wake-ups) and 64 KiB (no overlap).
constexpr size_t kMaxPending = 8192;

size_t utf8_code_points(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

}  // namespace

FrameWriter::FrameWriter(int fd, Faults faults, core::Millis write_timeout, std::function<void()> on_failure)
    : fd_(fd), faults_(faults), write_timeout_(write_timeout), on_failure_(std::move(on_failure)) {}

std::string FrameWriter::encode(std::string_view body) const {
  std::string out;
  out.reserve(body.size() + 64);
  encode_into(out, body);
  return out;
}

void FrameWriter::encode_into(std::string& out, std::string_view body) const {
  const bool faulty = framing_faults_ && faults_.any();
  size_t length = faulty && faults_.has(Fault::kFrameCountChars) ? utf8_code_points(body) : body.size();
  if (faulty && faults_.has(Fault::kFrameLengthOffByOne)) ++length;
  std::string_view eol = faulty && faults_.has(Fault::kFrameBareLf) ? "\n" : "\r\n";
  std::string_view name = faulty && faults_.has(Fault::kFrameLowercaseHeader) ? "content-length" : "Content-Length";
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, length);
  out.append(name).append(": ").append(digits, end).append(eol);
  if (content_type_) out.append("Content-Type: application/json").append(eol);
  out.append(eol).append(body);
}

bool FrameWriter::write_json(const nlohmann::json& j) { return write_body(jsonrpc::dump(j)); }

bool FrameWriter::write_body(std::string_view body) {
  if (std::this_thread::get_id() == batcher_.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lk(mu_);
    if (failed_) return false;
    encode_into(pending_, body);
    // A long run of answers without a wait for input still goes out in bounded pieces.
    return pending_.size() < kMaxPending || flush_locked();
  }
  std::string frame = encode(body);
  std::lock_guard<std::mutex> lk(mu_);
  return flush_locked() && write_locked(frame);
}

bool FrameWriter::write_raw(std::string_view bytes) {
  std::lock_guard<std::mutex> lk(mu_);
  return flush_locked() && write_locked(bytes);
}

void FrameWriter::batch_writes_from_this_thread() { batcher_ = std::this_thread::get_id(); }

bool FrameWriter::flush() {
  std::lock_guard<std::mutex> lk(mu_);
  return flush_locked();
}

bool FrameWriter::flush_locked() {
  if (pending_.empty()) return !failed_;
  bool ok = write_locked(pending_);
  pending_.clear();
  if (pending_.capacity() > 16 * kMaxPending) std::string().swap(pending_);
  return ok;
}

bool FrameWriter::write_locked(std::string_view bytes) {
  if (failed_) return false;
  std::string error;
  WriteStatus s = write_all(fd_, bytes, core::Deadline::after(write_timeout_), &error);
  if (s == WriteStatus::kOk) return true;
  failure_ = "stdout: " + error;
  failed_ = true;
  if (on_failure_) on_failure_();
  return false;
}

std::string FrameWriter::failure() const {
  std::lock_guard<std::mutex> lk(mu_);
  return failure_;
}

}  // namespace a2a::agent
