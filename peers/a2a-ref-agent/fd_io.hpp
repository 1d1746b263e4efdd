// Bounded I/O on raw file descriptors for the stdio server: every read and
// write waits with poll(2) and a deadline, so a peer that stops reading or
// writing can stall us only as long as we choose.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "runner/core/deadline.hpp"
#include "runner/wire/codec.hpp"

namespace a2a::agent {

enum class WriteStatus { kOk, kTimeout, kBrokenPipe, kError };

// Writes every byte or fails. Chunks of at most PIPE_BUF after POLLOUT, so a
// single write(2) on a pipe never blocks beyond the deadline.
WriteStatus write_all(int fd, std::string_view bytes, core::Deadline deadline, std::string* error = nullptr);

// A self-pipe that interrupts FrameReader::next() from another thread.
class WakePipe {
 public:
  WakePipe();
  ~WakePipe();
  WakePipe(const WakePipe&) = delete;
  WakePipe& operator=(const WakePipe&) = delete;
  void wake();  // async-signal-safe, thread-safe, idempotent until drained
  int read_fd() const { return fds_[0]; }

 private:
  int fds_[2] = {-1, -1};
};

// Reads Content-Length frames from a descriptor into one reused buffer: a
// frame that arrived whole is handed out as a view of that buffer, never copied.
class FrameReader {
 public:
  struct Result {
    enum class Kind {
      kFrame,    // `body` is one frame body
      kEnd,      // clean EOF at a frame boundary
      kError,    // fatal framing error or read error; `error` says which
      kTimeout,  // deadline passed
      kWoken,    // the wake pipe was written
    };
    Kind kind = Kind::kEnd;
    std::string_view body;  // valid until the next call on the reader
    std::string error;
    wire::FrameError frame_error = wire::FrameError::kNone;  // kError from the decoder: which one
    const std::vector<wire::Header>* headers = nullptr;      // kFrame with keep_headers; valid as `body`
  };

  // `keep_headers`: frames come with their header lines (stdio-json reads
  // A2A-SP-* from them); this path copies each body once more, so P46,
  // which has no use for headers, keeps the zero-copy one.
  FrameReader(int fd, wire::ContentLengthRules rules, int wake_fd, bool keep_headers = false);
  Result next(core::Deadline deadline);
  // A fresh decoder, buffered bytes discarded (only for --fault reader-survive-fatal).
  void reset_decoder();
  // Runs each time before the reader waits for input (the stdio server
  // writes out the answers it collected meanwhile).
  void set_before_wait(std::function<void()> f) { before_wait_ = std::move(f); }

 private:
  // One poll + read; refills `unread_`. Returns a result only when the caller must return it.
  std::optional<Result> fill(core::Deadline deadline);
  Result next_with_headers(core::Deadline deadline);
  static Result error_result(wire::FrameError e, std::string_view detail);

  int fd_;
  int wake_fd_;
  wire::ContentLengthRules rules_;
  std::unique_ptr<wire::Decoder> decoder_;
  std::unique_ptr<char[]> buf_;
  std::string_view unread_;  // bytes of buf_ the decoder has not taken yet
  std::function<void()> before_wait_;
  bool eof_ = false;
  bool keep_headers_ = false;
  wire::Frame current_;  // keep_headers: the frame handed out last
};

}  // namespace a2a::agent
