// Everything one scenario's steps share: the agent connection, the profile,
// variables and captures, the request-id counter, and the scenario deadline.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/deadline.hpp"
#include "runner/engine/agent_connection.hpp"
#include "runner/engine/call_interrupt.hpp"
#include "runner/engine/config.hpp"
#include "runner/engine/http_pool.hpp"
#include "runner/match/vars.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

class WebhookInbox;
struct ClientContext;
struct BindingState;

// Branches of x-concurrent get their own Session (own variables, so a
// fan-out's copies of one step do not overwrite each other's captures) that
// shares the connection and the id counter with the scenario's.
struct Session {
  const RunConfig* config = nullptr;
  const scenario::Test* test = nullptr;
  AgentConnection* conn = nullptr;  // stdio: owned by the scenario runner
  const BindingTarget* target = nullptr;  // HTTP bindings: the interface; nullptr = stdio
  HttpPool* http = nullptr;               // HTTP bindings: owned by the scenario runner
  transport::Transcript* transcript = nullptr;  // the scenario's (either binding)
  std::shared_ptr<WebhookInbox> hooks;    // this scenario's webhook deliveries, if any
  // A registered binding's own state (binding_registry.hpp), made on its first call.
  std::shared_ptr<BindingState> binding_state;
  // The x-grpc options of the operation step being run (null when none).
  const Json* grpc_options = nullptr;
  // Client scenarios: the client under test and the scripted agent; there
  // `conn` (stdio) reads the frames the client writes to its agent.
  ClientContext* client = nullptr;
  std::string session_id;           // the A2A_SESSION_ID we gave the agent
  core::Deadline deadline = core::Deadline::never();  // whole scenario
  // behavior_wait_ms(): a step's default bound and a repeat's polling last
  // at least this long (a slow tck-long-running), whatever --timeout-scale says.
  int behavior_wait_ms = 0;
  // After a stream's final frame a binding may watch the connection a while
  // for frames that follow it in the same burst (WebSocket: 250 ms, the
  // fault ws-events-after-complete). `a2a-conform load` turns the wait off:
  // its next call on the session looks for such frames first, so they are
  // still found, and no stream's latency carries the wait (docs/load.md).
  bool watch_after_stream = true;
  // Ends this session's calls in flight from another thread (gRPC and
  // WebSocket register with it; `a2a-conform load` interrupts it at a
  // signal). nullptr: calls end at their deadline. Branches share it.
  std::shared_ptr<CallInterrupter> interrupter;
  // stdio, `a2a-conform load`: one request at a time is in flight on this
  // session. A response with another id is then no request's answer: the
  // call ends at once with it (OpResult::stray_answer) instead of waiting
  // out its deadline. Responses with an id in `given_up_ids` (calls that
  // ended without their answer) are late answers and are dropped.
  bool single_flight = false;
  std::vector<Json> given_up_ids;
  // `run` and `verify --regrade` (init_session): call_operation retries an
  // answer of the "try again later" kinds (run_shed_signal) up to
  // kShedRetries times, and a step still declined is ERROR, not FAIL
  // (docs/runner.md "When the agent declines a request"). Off elsewhere:
  // `a2a-conform load` counts those answers itself (docs/load.md).
  bool retry_shed = false;

  std::mutex vars_mu;
  match::Vars vars;
  std::shared_ptr<std::atomic<long long>> next_id = std::make_shared<std::atomic<long long>>(1);

  // A branch: same connection, deadline and ids; a copy of the variables.
  std::unique_ptr<Session> branch();
  long long fresh_id() { return next_id->fetch_add(1); }
  // {{...}} references resolved against this session's variables.
  core::Expected<Json> interpolate(const Json& tmpl);

  const scenario::Profile& profile() const { return config->profile; }
  bool is_http() const { return target && target->is_http(); }
  bool is_network() const { return target && target->is_network(); }
  std::string binding() const { return target ? target->binding : "stdio"; }
  // The A2A-Version the runner sends: the test's spec_version, else 1.0.
  std::string a2a_version() const;
  // A step's own bound: the profile's step timeout (scaled), never past the scenario's.
  core::Deadline step_deadline(int within_ms = 0) const;
  // Scaled milliseconds.
  core::Millis scaled(int ms) const;
  // Frame bytes in the profile's framing for a body.
  std::string frame(std::string_view body) const;
};

}  // namespace a2a::engine
