// Writes frames to the agent's stdout: exactly
// "Content-Length: N\r\nContent-Type: application/json\r\n\r\n<body>",
// one frame at a time under a mutex, each fully written (flushed) before the
// next. The first failure (EPIPE, timeout) is sticky: later writes fail at
// once and `on_failure` runs once so the reader loop can stop.
//
// Batching: frames written by the one thread named with batch_writes_from()
// (the reader, answering pipelined requests inline) are collected and go out
// in one write(2) at flush(), which that thread calls before it waits for
// input. A frame from any other thread writes the collected ones first, so
// the bytes on stdout keep the order of the write calls.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

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
  // Whether frames carry "Content-Type: application/json" (p46 yes, stdio-json no).
  // Set before the first write.
  void set_content_type(bool on) { content_type_ = on; }
  // The frame bytes for `body`, faults included.
  std::string encode(std::string_view body) const;
  // The same, appended to `out`.
  void encode_into(std::string& out, std::string_view body) const;

  // Frames from the calling thread are collected until flush() from now on.
  void batch_writes_from_this_thread();
  // Writes what was collected. False if stdout has failed.
  bool flush();

  bool failed() const { return failed_.load(); }
  std::string failure() const;

 private:
  bool write_locked(std::string_view bytes);
  bool flush_locked();

  int fd_;
  Faults faults_;
  core::Millis write_timeout_;
  std::function<void()> on_failure_;
  std::atomic<bool> framing_faults_{false};
  bool content_type_ = true;
  std::atomic<bool> failed_{false};
  std::atomic<std::thread::id> batcher_{};
  mutable std::mutex mu_;
  std::string failure_;  // guarded by mu_
  std::string pending_;  // guarded by mu_: frames of the batching thread not yet written
};

}  // namespace a2a::agent
