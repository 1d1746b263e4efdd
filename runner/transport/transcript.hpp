// Every byte exchanged with a peer, in order, with timestamps: the transcript
// the reports show. Thread-safe: the stderr drain thread appends concurrently.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "runner/core/deadline.hpp"

namespace a2a::transport {

enum class Direction {
  kToPeer,    // bytes we wrote to the peer (stdin / request)
  kFromPeer,  // bytes the peer wrote (stdout / response)
  kStderr,    // the peer's stderr (captured, bounded)
  kNote,      // harness events: spawn, close stdin, signal, exit status
};

std::string_view to_string(Direction d);
// The direction as reports name it, from the runner's side where the peer is
// an agent: "to-agent", "from-agent", "stderr", "note" (result::WireEvent::dir).
std::string_view report_direction(Direction d);

struct TranscriptEntry {
  core::Clock::time_point at;
  Direction dir;
  std::string bytes;
};

class Transcript {
 public:
  // Keeps at most `max_bytes` of payload in total (per direction the rest is
  // counted, not stored) so a hostile peer cannot grow our memory. stderr may
  // fill at most a quarter of the cap, so log noise cannot crowd out the
  // protocol bytes. Notes (our own short texts) are exempt from the cap; the
  // first time a direction overflows, a note says so.
  explicit Transcript(size_t max_bytes = 4 * 1024 * 1024);

  void add(Direction dir, std::string_view bytes);
  void note(std::string_view text) { add(Direction::kNote, text); }

  std::vector<TranscriptEntry> entries() const;  // a copy, in order
  // Moves the entries out and starts the cap afresh (totals keep counting):
  // a long session (a2a-conform load) keeps the bytes of one call at a time.
  std::vector<TranscriptEntry> take_entries();
  core::Clock::time_point start() const { return start_; }
  size_t dropped_bytes() const;                  // payload not stored because of the cap
  size_t total_bytes(Direction dir) const;       // stored + dropped

 private:
  mutable std::mutex mu_;
  core::Clock::time_point start_;
  size_t max_bytes_;
  size_t stored_ = 0;
  size_t dropped_ = 0;
  size_t stderr_stored_ = 0;
  size_t totals_[4] = {0, 0, 0, 0};
  bool cap_noted_[4] = {false, false, false, false};
  std::vector<TranscriptEntry> entries_;
};

}  // namespace a2a::transport
