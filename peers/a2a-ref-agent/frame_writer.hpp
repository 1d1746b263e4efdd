// Writes frames to the agent's stdout: exactly
// "Content-Length: N\r\nContent-Type: application/json\r\n\r\n<body>",
// one frame at a time under a mutex, each fully written (flushed) before the
// next. The first failure (EPIPE, timeout) is sticky: later writes fail at
// once and `on_failure` runs once so the reader loop can stop.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "peers/a2a-ref-agent/faults.hpp"
#include "runner/core/deadline.hpp"

namespace a2a::agent {

class FrameWriter {
 public:
  FrameWriter(int fd, Faults faults, core::Millis write_timeout, std::function<void()> on_failure);

  bool write_json(const nlohmann::json& j);
  bool write_body(std::string_view body);
  // Bytes as given, no framing (faults only: stdout noise, half frames).
  bool write_raw(std::string_view bytes);
  // The framing faults apply from now on (called after the handshake frame,
  // so a framing defect shows up in the framing scenarios, not as a failed handshake).
  void enable_framing_faults() { framing_faults_ = true; }
  // The frame bytes for `body`, faults included.
  std::string encode(std::string_view body) const;

  bool failed() const { return failed_.load(); }
  std::string failure() const;

 private:
  bool write_locked(std::string_view bytes);

  int fd_;
  Faults faults_;
  core::Millis write_timeout_;
  std::function<void()> on_failure_;
  std::atomic<bool> framing_faults_{false};
  std::atomic<bool> failed_{false};
  mutable std::mutex mu_;
  std::string failure_;  // guarded by mu_
};

}  // namespace a2a::agent
