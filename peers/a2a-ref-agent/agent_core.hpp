// The reference agent's A2A 1.0 semantics, independent of any binding: the
// 11 operations over a task store, in-band behaviours (behaviour.hpp) and
// injected semantic faults. Bindings (stdio P46 today; HTTP JSON-RPC, REST
// later) parse their envelope, call call() or open_stream(), and encode the
// outcome. All members are thread-safe; call() may block for a blocking
// SendMessage, at most config.max_block (or until shutdown()).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "peers/a2a-ref-agent/call_result.hpp"
#include "peers/a2a-ref-agent/choices.hpp"
#include "peers/a2a-ref-agent/event_stream.hpp"
#include "peers/a2a-ref-agent/faults.hpp"
#include "runner/a2a/methods.hpp"
#include "runner/core/deadline.hpp"

namespace a2a::agent {

inline constexpr std::string_view kAgentVersion = "0.1.0";

struct AgentConfig {
  core::Millis long_running{1000};  // tck-long-running default delay
  core::Millis max_block{60000};    // bound of a blocking SendMessage (tck-cancel never finishes)
  // AgentInterface entries of the agent card ({url, protocolBinding, protocolVersion}).
  Json interfaces = Json::array();
  Faults faults;
  // Where the spec leaves a choice: ours, or --legal-variation's (choices.hpp).
  std::shared_ptr<const Choices> choices = reference_choices();
  // Push delivery (a2a-protocol.md §5): called for each push config of a task
  // on each status or artifact event logged after the config was created,
  // with the config and the StreamResponse to POST. Called with the task
  // store locked: it must only queue, never block. Empty = not delivered.
  std::function<void(const Json& config, const Json& stream_response)> push_sink;
};

struct CoreState;
struct TaskRecord;
struct TaskView;

class AgentCore {
 public:
  explicit AgentCore(AgentConfig config);
  ~AgentCore();
  AgentCore(const AgentCore&) = delete;
  AgentCore& operator=(const AgentCore&) = delete;

  // A unary operation. A streaming operation here is a -32603 (bindings route them to open_stream).
  CallResult call(model::Operation op, const Json& params);
  // call() with the result serialized: `text` is jsonrpc::dump of call()'s
  // value, byte for byte, or `error` is set. SendMessage writes its task
  // straight from the store, without copying it into a tree, when nothing
  // reshapes results (no fault, choices that leave results alone); the
  // HTTP bindings answer with it (docs/performance.md, "HTTP").
  struct CallText {
    std::optional<CallError> error;
    std::string text;
  };
  CallText call_text(model::Operation op, const Json& params);
  // The same for params the binding gives up (parsed for this call only): a
  // SendMessage moves its message into the task instead of copying it.
  CallText call_text(model::Operation op, Json&& params);

  // GetTask for a binding that encodes the task itself straight from the
  // store, with no tree copied out (the gRPC binding: docs/grpc.md,
  // "Conversion"). `render` sees the task's record and view with the store
  // locked (it must not block) and returns false when it cannot encode them.
  // True when `render` ran and returned true; false when the binding must
  // call(op, params) instead: an error to answer, a fault or a choice that
  // reshapes results, or `render` declined.
  bool render_task(const Json& params, const std::function<bool(const TaskRecord&, const TaskView&)>& render);
  // False when call(op, params) certainly returns without waiting (all but
  // a blocking SendMessage that starts or continues a task), so a binding
  // may run it on its I/O thread.
  bool may_block(model::Operation op, const Json& params) const;
  // A streaming operation (SendStreamingMessage, SubscribeToTask).
  StreamOpen open_stream(model::Operation op, const Json& params);
  // Wakes every blocked call and stream: they return / end at once. Idempotent.
  void shutdown();

  const AgentConfig& config() const;

 private:
  // The operations as the core implements them; call() and open_stream()
  // hand their outcome to the choices (choices.hpp) on the way out.
  CallResult dispatch(model::Operation op, const Json& params);
  StreamOpen open(model::Operation op, const Json& params);
  std::unique_ptr<CoreState> state_;
};

// The full AgentCard (GetExtendedAgentCard; bindings may serve it as the public card too).
Json agent_card(const AgentConfig& config);

}  // namespace a2a::agent
