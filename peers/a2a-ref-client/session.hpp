// A client session with one stdio agent, P46 profile (stdio-binding.md §3)
// or stdio-json (§4: versioned handshake, streams as responses ending in
// streamEnd, cancelStream for an abandoned stream, system/shutdown before
// stdin is closed, agent heartbeats ignored).
//
// connect() spawns the agent in its own process group, checks the handshake
// and acks it; on any handshake failure the child is killed (H8, H10, H12).
// Then a reader thread decodes stdout (lenient-strict framing, §9) and hands
// every body to a Router. Unary calls may be issued from many threads at once
// and are correlated by id (pipelining). Streams are serialised: P46 stream
// events carry no id, so a second stream() waits for the first to end.
// Every call has a deadline; after EOF or a framing error the session is dead
// and every call fails at once with the agent's exit status in the message.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "peers/a2a-ref-client/client_error.hpp"
#include "peers/a2a-ref-client/client_session.hpp"
#include "peers/a2a-ref-client/handshake.hpp"
#include "peers/a2a-ref-client/router.hpp"
#include "runner/a2a/methods.hpp"
#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/transport/stdio_process.hpp"

namespace a2a::client {

enum class IdStyle {
  kInteger,  // 1, 2, 3, ... (default: cheap, readable transcripts)
  kUuid,     // UUIDv7 strings, as the PR #46 client sends
};

struct SessionOptions {
  core::Millis handshake_timeout{10000};  // H10: from spawn to the handshake frame
  core::Millis close_grace{5000};         // L1/L2: wait after closing stdin, then TERM, 2 s, KILL
  std::string session_id;                 // A2A_SESSION_ID; empty = a fresh UUIDv7
  // L12: the agent gets a minimal environment (kMinimalEnv names copied from
  // ours) plus env_set plus A2A_SESSION_ID, unless inherit_env is true.
  bool inherit_env = false;
  std::map<std::string, std::string> env_set;
  IdStyle ids = IdStyle::kInteger;
  model::MethodNaming naming = model::MethodNaming::kP46;
  std::string variant{kVariantA2aV1};
  WireProfile profile = WireProfile::kP46;  // use options_for_profile() to set naming and variant too
  core::Millis shutdown_timeout{2000};      // stdio-json: how long close() waits for the system/shutdown answer
  DiagnosticSink on_diagnostic;  // dropped frames, ignored notifications; called from the reader thread
};

// `base` with profile, naming and variant of `profile`.
SessionOptions options_for_profile(SessionOptions base, WireProfile profile);

// Variables copied from our environment into the agent's minimal one.
extern const std::vector<std::string> kMinimalEnv;

// A request written but not yet answered (pipelining from one thread).
struct PendingCall {
  Json id;
  std::string what;  // "request id 3 (tasks/get)", prefixes error messages
  core::Deadline deadline = core::Deadline::never();
  std::optional<CallResult> failed;  // set when the write already failed
};

class StdioSession : public Session {
 public:
  // kSpawn when the program cannot start; kEof, kTimeout, kProtocol, kIo for
  // handshake failures (the message says exactly what was seen).
  static core::Expected<std::unique_ptr<StdioSession>> connect(const std::vector<std::string>& argv,
                                                               SessionOptions options = {});

  ~StdioSession() override;  // close() with the configured grace if still open
  StdioSession(const StdioSession&) = delete;
  StdioSession& operator=(const StdioSession&) = delete;

  // A unary operation. kUsage for a streaming operation.
  CallResult call(model::Operation op, const Json& params, core::Deadline deadline) override;
  // Any method name (for tests and raw use); the answer of a request with a fresh id.
  CallResult call_method(const std::string& method, const Json& params, core::Deadline deadline);
  // call() in two halves: write now, wait later, so one thread can keep many
  // requests in flight. Every started call must be finished exactly once.
  PendingCall start_call(model::Operation op, const Json& params, core::Deadline deadline);
  CallResult finish_call(PendingCall& pending);

  // A streaming operation: on_event gets every item in order on the calling
  // thread. Success = the final response arrived (result null, or non-null and
  // yielded). Failure = an error response with our id, EOF (C11), timeout.
  CallResult stream(model::Operation op, const Json& params, const StreamCallback& on_event,
                    core::Deadline deadline) override;

  // Close stdin, wait close_grace for the exit, then TERM/KILL the group; reaps.
  // Pending calls fail with kClosed. Idempotent: later calls return the same status.
  transport::ExitStatus close();

  const HandshakeInfo& handshake() const { return handshake_; }
  const std::string& session_id() const { return handshake_.session_id; }
  std::optional<ClientError> dead() const override { return router_.dead(); }
  transport::StdioProcess& process() { return *proc_; }

 private:
  StdioSession(std::unique_ptr<transport::StdioProcess> proc, std::unique_ptr<wire::Decoder> decoder,
               HandshakeInfo info, SessionOptions options);

  PendingCall start_method(const std::string& method, const Json& params, core::Deadline deadline);
  Json next_id();
  std::string method_of(model::Operation op) const;
  // Writes one request frame; on failure marks the session dead (a partial
  // frame leaves the byte stream unusable) and returns the error.
  std::optional<ClientError> write_request(const Json& id, const std::string& method,
                                           const Json& params, core::Deadline deadline,
                                           const std::string& what);
  void reader_loop();
  bool drain_frames();  // false after a fatal framing error
  void fail_on_eof_or_error(const std::string& cause);
  bool json() const { return options_.profile == WireProfile::kStdioJson; }
  // stdio-json: {"jsonrpc":"2.0","id":id,"cancelStream":true}, best effort.
  void send_cancel_stream(const Json& id, core::Deadline deadline);
  // stdio-json: system/shutdown, answered before close() closes stdin.
  void request_shutdown(core::Deadline deadline);

  std::unique_ptr<transport::StdioProcess> proc_;
  std::unique_ptr<wire::Decoder> decoder_;  // reader thread only, after connect()
  HandshakeInfo handshake_;
  SessionOptions options_;
  Router router_;

  std::timed_mutex write_mu_;  // one frame at a time on stdin
  std::atomic<long long> next_id_{1};

  std::thread reader_;
  std::atomic<bool> stop_reader_{false};
  std::mutex reader_done_mu_;
  std::condition_variable reader_done_cv_;
  bool reader_done_ = false;

  std::mutex close_mu_;
  std::optional<transport::ExitStatus> exit_;
};

}  // namespace a2a::client
