#include "peers/a2a-ref-agent/frame_writer.hpp"

#include "peers/a2a-ref-agent/fd_io.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/wire/codec.hpp"

namespace a2a::agent {
namespace {

size_t utf8_code_points(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

}  // namespace

FrameWriter::FrameWriter(int fd, Faults faults, core::Millis write_timeout, std::function<void()> on_failure)
    : fd_(fd), faults_(faults), write_timeout_(write_timeout), on_failure_(std::move(on_failure)) {}

std::string FrameWriter::encode(std::string_view body) const {
  if (!framing_faults_ || !faults_.any()) return wire::encode_content_length(body);
  size_t length = faults_.has(Fault::kFrameCountChars) ? utf8_code_points(body) : body.size();
  if (faults_.has(Fault::kFrameLengthOffByOne)) ++length;
  std::string_view eol = faults_.has(Fault::kFrameBareLf) ? "\n" : "\r\n";
  std::string_view name = faults_.has(Fault::kFrameLowercaseHeader) ? "content-length" : "Content-Length";
  std::string out;
  out.reserve(body.size() + 64);
  out.append(name).append(": ").append(std::to_string(length)).append(eol);
  out.append("Content-Type: application/json").append(eol).append(eol).append(body);
  return out;
}

bool FrameWriter::write_json(const nlohmann::json& j) { return write_body(jsonrpc::dump(j)); }

bool FrameWriter::write_body(std::string_view body) {
  std::string frame = encode(body);
  std::lock_guard<std::mutex> lk(mu_);
  return write_locked(frame);
}

bool FrameWriter::write_raw(std::string_view bytes) {
  std::lock_guard<std::mutex> lk(mu_);
  return write_locked(bytes);
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
