// The JSON-RPC layer of a stdio session after the handshake: classifies each
// frame body (JSON-RPC 2.0 STRICT, stdio-binding.md §8.3), answers unary
// requests by id (at once on the reader thread when the call cannot block,
// else from a worker pool), and hands streams to the StreamServer.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <string_view>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "peers/a2a-ref-agent/profile.hpp"
#include "peers/a2a-ref-agent/rpc_out.hpp"
#include "peers/a2a-ref-agent/service_params.hpp"
#include "peers/a2a-ref-agent/stream_server.hpp"
#include "peers/a2a-ref-agent/worker_pool.hpp"

namespace a2a::agent {

struct SessionLimits {
  int workers = 2;       // unary threads at start (only calls that may block use them; more are grown on demand)
  int max_workers = 64;  // grown to while all are busy
  size_t max_queue = 4096;
  core::Millis max_stream{600000};
};

// What a session knows beyond the profile (stdio-json, §4).
struct SessionContext {
  ServiceParams session_params;  // from A2A_SP_*; requests' serviceParams override them
  int protocol_exit = 2;         // exit status of a protocol error (kExitProtocol)
};

// The binding-local method of stdio-json: answered with {}, then the child exits 0.
inline constexpr std::string_view kShutdownMethod = "system/shutdown";

class RpcSession {
 public:
  RpcSession(AgentCore& core, RpcOut& out, const Profile& profile, SessionLimits limits, int log_fd,
             SessionContext ctx = {});
  ~RpcSession();  // abort()

  // Handles one frame body (`headers`: its header lines, when the reader
  // keeps them). nullopt: keep serving; a value: stop and exit with it.
  std::optional<int> on_body(std::string_view body, const std::vector<wire::Header>* headers = nullptr);
  // Periodic work from the reader loop (releases a response held by conc-reorder-ids).
  void tick();
  // Clean end (stdin EOF): open streams canceled, queued ones answered with
  // an error, unary calls get up to `grace` to finish, then the core is shut down.
  void drain(core::Millis grace);
  // Fast end (fatal error): the core is shut down at once. Idempotent.
  void abort();

 private:
  std::optional<int> on_rejected(std::string_view body, const Json& reply);
  // stdio-json control frames and request pre-checks. True when `doc` was
  // handled here (then *exit says whether to stop).
  bool on_control(const Json& doc, const std::vector<wire::Header>* headers, std::optional<int>& exit);
  void on_request(const Json& id, const std::string& method, const Json& params);
  void run_unary(const Json& id, model::Operation op, const Json& params);
  void write_unary(Json response);
  void log(std::string_view msg) const;

  AgentCore& core_;
  RpcOut& out_;
  const Profile& profile_;
  Faults faults_;
  int log_fd_;
  SessionContext ctx_;
  WorkerPool pool_;
  StreamServer streams_;
  int requests_ = 0;  // reader thread only
  std::mutex held_mu_;
  std::optional<Json> held_;  // conc-reorder-ids: a response waiting for a partner
  core::Clock::time_point held_since_;
  bool ended_ = false;
};

}  // namespace a2a::agent
