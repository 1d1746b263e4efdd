#include "runner/transport/transcript.hpp"

#include <algorithm>

namespace a2a::transport {

namespace {

// stderr may use at most this share of the cap: a chatty peer logging
// megabytes must not crowd the protocol bytes out of the report.
constexpr size_t kStderrShareDivisor = 4;

size_t index_of(Direction d) { return static_cast<size_t>(d); }

}  // namespace

std::string_view to_string(Direction d) {
  switch (d) {
    case Direction::kToPeer: return "to-peer";
    case Direction::kFromPeer: return "from-peer";
    case Direction::kStderr: return "stderr";
    case Direction::kNote: return "note";
  }
  return "unknown";
}

std::string_view report_direction(Direction d) {
  switch (d) {
    case Direction::kToPeer: return "to-agent";
    case Direction::kFromPeer: return "from-agent";
    case Direction::kStderr: return "stderr";
    case Direction::kNote: return "note";
  }
  return "unknown";
}

Transcript::Transcript(size_t max_bytes) : start_(core::Clock::now()), max_bytes_(max_bytes) {}

void Transcript::add(Direction dir, std::string_view bytes) {
  if (bytes.empty()) return;
  std::lock_guard lock(mu_);
  // The timestamp is taken under the lock so entry order and time order agree.
  auto now = core::Clock::now();
  totals_[index_of(dir)] += bytes.size();
  // Notes are the harness's own short texts (spawn, signals, exit status);
  // they are exempt from the cap so a report always shows how a run ended.
  if (dir == Direction::kNote) {
    entries_.push_back({now, dir, std::string(bytes)});
    return;
  }
  size_t room = max_bytes_ - std::min(stored_, max_bytes_);
  if (dir == Direction::kStderr) {
    size_t share = max_bytes_ / kStderrShareDivisor;
    room = std::min(room, share - std::min(stderr_stored_, share));
  }
  size_t keep = std::min(room, bytes.size());
  if (keep > 0) {
    entries_.push_back({now, dir, std::string(bytes.substr(0, keep))});
    stored_ += keep;
    if (dir == Direction::kStderr) stderr_stored_ += keep;
  }
  if (keep < bytes.size()) {
    if (!cap_noted_[index_of(dir)]) {
      cap_noted_[index_of(dir)] = true;
      std::string name(to_string(dir));
      entries_.push_back({now, Direction::kNote,
                          "transcript cap reached for " + name + " (" + std::to_string(max_bytes_) +
                              " bytes in total); further " + name + " bytes are counted, not stored"});
    }
    dropped_ += bytes.size() - keep;
  }
}

std::vector<TranscriptEntry> Transcript::take_entries() {
  std::lock_guard lock(mu_);
  std::vector<TranscriptEntry> out;
  out.swap(entries_);
  stored_ = 0;
  dropped_ = 0;
  stderr_stored_ = 0;
  for (bool& n : cap_noted_) n = false;
  return out;
}

std::vector<TranscriptEntry> Transcript::entries() const {
  std::lock_guard lock(mu_);
  return entries_;
}

size_t Transcript::dropped_bytes() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

size_t Transcript::total_bytes(Direction dir) const {
  std::lock_guard lock(mu_);
  return totals_[index_of(dir)];
}

}  // namespace a2a::transport
