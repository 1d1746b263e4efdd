// The runner's side of one stdio agent process: spawns it, pumps its stdout
// through the Content-Length decoder on a reader thread, and keeps every frame
// in an inbox that steps consume by predicate ("the response with id 7", "the
// next notification", "the next frame"). Frames that a step does not want stay
// for later steps, so pipelined and concurrent steps can wait for their own
// replies. Agent misbehaviour (framing errors, floods, exits) is recorded as
// state, never thrown.
#pragma once

#include <condition_variable>
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
};

struct ConnectionOptions {
  transport::SpawnOptions spawn;
  wire::ContentLengthRules rules = wire::ContentLengthRules::lenient_strict();
  size_t max_inbox_bytes = 256ull * 1024 * 1024;  // beyond: stop reading, flag a flood
};

class AgentConnection {
 public:
  static core::Expected<std::unique_ptr<AgentConnection>> start(const ConnectionOptions& opts);
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
  // Copies of the frames nobody consumed yet (for diagnostics).
  std::vector<InboxFrame> pending() const;
  // True when no byte arrives from the agent for `quiet`, bounded by deadline;
  // true at once when stdout has ended (nothing more can arrive).
  bool quiet_for(core::Millis quiet, core::Deadline deadline);
  // Waits for stdout EOF (true) or the deadline (false).
  bool wait_eof(core::Deadline deadline);
  std::optional<transport::ExitStatus> wait_exit(core::Deadline deadline);

  // Why take() stopped early: "", "agent closed stdout (exit 0)", "framing error: ...".
  std::string why() const;
  bool eof() const;
  std::string framing_error() const;   // "" when none
  size_t unconsumed() const;

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

  std::unique_ptr<transport::StdioProcess> proc_;
  std::unique_ptr<wire::Decoder> decoder_;
  size_t max_inbox_bytes_ = 0;
  core::Clock::time_point started_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<InboxFrame> inbox_;
  size_t inbox_bytes_ = 0;
  size_t next_seq_ = 0;
  core::Clock::time_point last_byte_at_;
  bool eof_ = false;
  bool stop_ = false;
  std::string framing_error_;
  std::string interrupted_;
  std::thread reader_;
};

}  // namespace a2a::engine
