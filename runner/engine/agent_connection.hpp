// The runner's side of one stdio agent process: spawns it, pumps its stdout
// through the Content-Length decoder on a reader thread, and keeps every frame
// in an inbox that steps consume by predicate ("the response with id 7", "the
// next notification", "the next frame"). Frames that a step does not want stay
// for later steps, so pipelined and concurrent steps can wait for their own
// replies. Agent misbehaviour (framing errors, floods, exits) is recorded as
// state, never thrown.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/transport/stdio_process.hpp"
#include "runner/wire/codec.hpp"

namespace a2a::engine {

using Json = nlohmann::json;

struct InboxFrame {
  size_t seq = 0;              // arrival order
  double t_ms = 0;             // since spawn
  std::string raw_header;      // header block bytes as written by the agent
  std::string body;            // raw body bytes
  std::optional<Json> json;    // parsed body, when it is JSON
  std::string json_error;      // why it is not (unset when json is)
};

struct ConnectionOptions {
  transport::SpawnOptions spawn;
  wire::ContentLengthRules rules = wire::ContentLengthRules::lenient_strict();
  // Frames nobody consumed yet may cost this much memory (body, its parsed
  // JSON counted as the body's size again, kFrameOverhead each); beyond it the
  // reader stops and flags a flood. One frame alone is always let in (a body
  // may be up to the framing's 64 MiB cap).
  size_t max_inbox_bytes = 64ull * 1024 * 1024;
};

// Where a connection's bytes come from and go to: the agent process's pipes,
// or (client scenarios) the link to the agent double a client spawned, whose
// exit is the client's. Failures are values, as for transport::StdioProcess.
class PeerChannel {
 public:
  virtual ~PeerChannel() = default;
  virtual core::Expected<void> write(std::string_view bytes, core::Deadline deadline) = 0;
  virtual transport::ReadResult read_some(core::Deadline deadline) = 0;
  virtual void close_stdin() = 0;
  virtual std::optional<transport::ExitStatus> poll_exit() = 0;
  virtual std::optional<transport::ExitStatus> wait_exit(core::Deadline deadline) = 0;
  virtual transport::ExitStatus shutdown(core::Millis grace, core::Millis term_grace) = 0;
  virtual transport::ExitStatus kill_now() = 0;
};

class AgentConnection {
 public:
  static core::Expected<std::unique_ptr<AgentConnection>> start(const ConnectionOptions& opts);
  // Frames from any channel (client scenarios: the agent double's link).
  static std::unique_ptr<AgentConnection> attach(std::unique_ptr<PeerChannel> channel,
                                                 const wire::ContentLengthRules& rules,
                                                 size_t max_inbox_bytes);
  ~AgentConnection();

  // Writes bytes to the agent's stdin (kTimeout / kBrokenPipe as errors).
  core::Expected<void> send(std::string_view bytes, core::Deadline deadline);
  void close_stdin();

  // Waits for the first unconsumed frame that satisfies `want` and removes it.
  // nullopt when the deadline passes or the stream can produce no more frames
  // (EOF, framing error, flood); why() then says which.
  std::optional<InboxFrame> take(const std::function<bool(const InboxFrame&)>& want,
                                 core::Deadline deadline);
  // Like take() but leaves the frame in the inbox (graded alternatives look at
  // one frame several ways); remove(seq) drops it once a grade is decided.
  std::optional<InboxFrame> peek(const std::function<bool(const InboxFrame&)>& want,
                                 core::Deadline deadline);
  void remove(size_t seq);
  // Copies of the first `max_frames` frames nobody consumed yet (for
  // diagnostics; unconsumed() counts them all).
  std::vector<InboxFrame> pending(size_t max_frames = SIZE_MAX) const;
  // True when no byte arrives from the agent for `quiet`, bounded by deadline;
  // true at once when stdout has ended (nothing more can arrive).
  bool quiet_for(core::Millis quiet, core::Deadline deadline);
  // Waits for stdout EOF (true) or the deadline (false).
  bool wait_eof(core::Deadline deadline);
  std::optional<transport::ExitStatus> wait_exit(core::Deadline deadline);

  // Why take() stopped early or found nothing: "", "agent closed stdout (exit 0)",
  // "agent output is not valid framing: ...", "agent flooded stdout: ...",
  // "agent exited (exit 0) but a process it left behind keeps its stdout open".
  std::string why() const;
  bool eof() const;
  std::string framing_error() const;   // "" when none
  size_t unconsumed() const;

  // Only for connections made by start() (an agent process).
  transport::StdioProcess& process() { return *proc_; }
  const transport::StdioProcess& process() const { return *proc_; }
  transport::ExitStatus shutdown(core::Millis grace, core::Millis term_grace);
  transport::ExitStatus kill_now();
  void interrupt(const std::string& reason);  // wakes every waiter (scenario deadline)

 private:
  AgentConnection() = default;
  std::optional<InboxFrame> find(const std::function<bool(const InboxFrame&)>& want,
                                 core::Deadline deadline, bool remove);
  void reader_loop();
  void on_bytes(const std::string& data);
  bool push_frame(wire::Frame&& f, std::string&& raw_header);  // false: flood cap hit
  static size_t cost(const InboxFrame& f);

  std::unique_ptr<PeerChannel> chan_;
  transport::StdioProcess* proc_ = nullptr;  // start(): the process behind chan_
  std::unique_ptr<wire::Decoder> decoder_;
  size_t max_inbox_bytes_ = 0;
  core::Clock::time_point started_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<InboxFrame> inbox_;
  size_t inbox_bytes_ = 0;     // estimated memory of inbox_, see max_inbox_bytes
  size_t next_seq_ = 0;
  core::Clock::time_point last_byte_at_;
  bool eof_ = false;
  bool stop_ = false;
  std::string framing_error_;
  std::string interrupted_;
  std::thread reader_;
};

// Short description of frames still unconsumed ("2 unconsumed frames: {...}; {...}").
std::string describe_pending(const AgentConnection& conn, size_t max_frames = 3);

}  // namespace a2a::engine
