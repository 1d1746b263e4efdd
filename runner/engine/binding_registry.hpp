// The network bindings the runner can test, by name (docs/bindings.md). A
// binding is one folder (runner/bindings/<name>/) that fills in an
// OperationBinding and one registration call (register_bindings(), in the
// CLI). The engine dispatches abstract operations, card discovery, --binding
// and error matching through this table, for every binding: stdio, jsonrpc,
// rest, their A2A 0.3 adapters (jsonrpc@0.3, rest@0.3), grpc, loopback.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/engine/op_result.hpp"
#include "runner/engine/step_outcome.hpp"
#include "runner/match/match_result.hpp"

namespace a2a::transport {
class Transcript;
}

namespace a2a::engine {

struct Session;

// How an x-reply went: sent, not taken by the client (a failure), or not
// sayable on this binding (a SKIP: e.g. a member protobuf has no field for).
struct ScriptedReply {
  std::string failure;
  std::string not_expressible;
};

// The scripted agent of `a2a-conform client` on a registered binding
// (docs/client-conformance.md): it serves a card naming itself over HTTP,
// records each call the client under test makes, and answers as the
// scenario's x-reply says. The engine judges; the binding speaks the wire.
class ScriptedAgent {
 public:
  virtual ~ScriptedAgent() = default;
  // {target}: the base URL whose /.well-known/agent-card.json names the agent.
  virtual std::string target() const = 0;
  // The url of the card's interface (gRPC: "127.0.0.1:PORT"): {{agent.interface}}.
  virtual std::string interface_url() const = 0;
  // x-card: members that replace the default card's (before the client starts).
  virtual void set_card_members(nlohmann::json members) = 0;
  // x-expect-request: the next call, as assertions see it ({method, path,
  // params, headers}); nullopt when none came before the deadline.
  virtual std::optional<nlohmann::json> take(core::Deadline d) = 0;
  // x-reply to the last call taken. `pause` waits a delay_ms (scaled,
  // bounded by the scenario's deadline).
  virtual ScriptedReply reply(const nlohmann::json& spec, const std::function<void(int ms)>& pause,
                              core::Deadline d) = 0;
};

// A binding's scripted agent made and started: `Agent` is constructed from
// the transcript and has `core::Expected<void> start()`.
template <class Agent>
core::Expected<std::unique_ptr<ScriptedAgent>> start_scripted_agent(transport::Transcript* tr) {
  auto agent = std::make_unique<Agent>(tr);
  auto started = agent->start();
  if (!started) return core::fail(started.error());
  return std::unique_ptr<ScriptedAgent>(std::move(agent));
}

// Per-scenario state a binding keeps in Session::binding_state (a channel,
// a connection); branches of x-concurrent share it.
struct BindingState {
  virtual ~BindingState() = default;
};

// An agent that runs inside the runner (the loopback binding): started once
// per run, shared by every scenario (and -j worker) of it, as one agent
// process serves a whole run; it must be thread-safe and stop (waking
// blocked calls) when the last reference goes.
struct InProcessAgent {
  nlohmann::json card;                  // what capability gating reads (RunConfig::agent_card)
  std::string url;                      // the card interface's url: the target reports name
  std::shared_ptr<BindingState> agent;  // RunConfig::in_process_agent: what `call` talks to
};

struct OperationBinding {
  std::string key;        // "grpc": --binding, BindingTarget::binding, results' binding
  std::string card_name;  // "GRPC": AgentInterface.protocolBinding
  std::string title;      // "gRPC": for people
  // The A2A version family of the interfaces it tests: "1" (1.x), or "0.3"
  // for an adapter keyed "<key>@0.3" (a card interface whose protocolVersion is 0.3).
  std::string protocol_version = "1";
  // Rides on HTTP (jsonrpc, rest and their 0.3 adapters): raw HTTP steps and
  // tests written for "the HTTP bindings" (x-binding: http) apply to it.
  bool over_http = false;
  // Why an interface URL (from the card, or --url) is not usable; "" when it is.
  std::function<std::string(const std::string& url)> check_url;
  // One abstract operation (ACTS name, params final): never throws, bounded by the deadline.
  std::function<OpResult(Session& s, const std::string& operation, const nlohmann::json& params,
                         core::Deadline deadline)>
      call;
  // expect_error against one of this binding's errors (OpResult::error,
  // error_status). Empty: the error is a JSON-RPC {code, message, data}
  // object, read by match::match_error (stdio, jsonrpc, websocket, ...).
  std::function<match::MatchResult(const OpResult& r, const nlohmann::json& expect_error)> match_error;
  // Client runs (`a2a-conform client --binding KEY`): the scripted agent of
  // one scenario, recording into `tr`. Empty: the binding tests no clients.
  std::function<core::Expected<std::unique_ptr<ScriptedAgent>>(transport::Transcript* tr)> scripted_agent;
  // In-process bindings (`run --binding KEY` without --url or --agent): the
  // run's agent, with the faults named on the command line (an error, exit 2,
  // for a fault it cannot inject). Empty: the binding reaches an agent at --url.
  std::function<core::Expected<InProcessAgent>(const std::vector<std::string>& faults)> start_agent;
  // The binding's own raw step (`x-ws` on the WebSocket binding,
  // docs/scenario-format.md §3.4): frames, upgrades and control frames that
  // no abstract operation sends. Empty: the binding has none. `consume`
  // false (x-grades): an expectation looks at the frame without taking it.
  std::function<StepOutcome(Session& s, const scenario::WireAction& w, const std::string& step_id, bool consume)>
      wire_step;
  // In-process bindings: the CLI option that names those faults
  // ("--loopback-fault"), as replay commands repeat it.
  std::string fault_option;
};

// Adds (or replaces, by key) a binding. Call before any run starts.
void register_binding(OperationBinding b);
const OperationBinding* find_binding(std::string_view key);
// The binding that tests a card interface: its protocolBinding and the
// version family ("1" or "0.3") of its protocolVersion.
const OperationBinding* find_binding_by_card_name(std::string_view card_name, std::string_view version_family = "1");
// Registered keys, in registration order.
std::vector<std::string> registered_bindings();

// Every binding this build has (runner/bindings/all/register_bindings.cpp): the one place a
// new binding is registered.
void register_bindings();

}  // namespace a2a::engine
