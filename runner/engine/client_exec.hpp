// The steps of client scenarios (docs/client-conformance.md): the runner
// drives the client under test through script lines on its stdin, plays its
// agent (the double's link on stdio, the scripted server on HTTP) and judges
// the client's requests, result lines and exit.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "runner/engine/binding_registry.hpp"
#include "runner/engine/client_harness.hpp"
#include "runner/engine/client_http.hpp"
#include "runner/engine/session.hpp"
#include "runner/engine/step_outcome.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

struct ClientContext {
  ClientProcess* process = nullptr;
  DoubleLink* link = nullptr;          // stdio
  ScriptedServer* server = nullptr;    // jsonrpc / rest
  std::string binding;                 // "stdio", "jsonrpc", "rest", or a registered binding ("grpc")
  bool handshake_pending = false;      // stdio, automatic handshake not done yet
  nlohmann::json last_id;              // stdio: id of the last request taken
  std::shared_ptr<transport::HttpExchange> last_exchange;  // HTTP: the request to answer
  nlohmann::json last_http_id;         // jsonrpc: its JSON-RPC id
  ScriptedAgent* scripted = nullptr;   // a registered binding's scripted agent (grpc)
};

// Client-role handling of a wire action; nullopt when the generic stdio
// action applies (after the automatic handshake, when one is pending).
std::optional<StepOutcome> run_client_wire(Session& s, const scenario::WireAction& w,
                                           const std::string& step_id);

// ACTS client_response (§10): the client performs `operation`, the scripted
// agent answers with `wire_payload` (its id set to the request's), and the
// client's printed result must satisfy `expect_parsed`.
StepOutcome run_client_response(Session& s, const scenario::Step& st);

// The script op of a2a-ref-client's format for an ACTS operation; "" when
// the contract has none (get_agent_card: no operation prints the public card).
std::string script_op(const std::string& operation);

}  // namespace a2a::engine
