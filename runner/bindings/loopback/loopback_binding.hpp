// The loopback binding (docs/bindings.md "The loopback binding"): the
// reference agent's transport-neutral core (peers/a2a-ref-agent/agent_core)
// linked into the runner, so the abstract-operation suites run against it,
// and against its semantic faults, with no process and no socket. Errors are
// the core's JSON-RPC-shaped {code, message, data}; stream events are the
// core's StreamResponse objects, in order. What lives on a wire (framing,
// HTTP, gRPC status, push delivery) is not here: those scenarios keep the
// real transports.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runner/core/expected.hpp"
#include "runner/engine/binding_registry.hpp"

namespace a2a::bindings {

// The registry entry (key "loopback", card name "LOOPBACK"), with start_agent.
engine::OperationBinding loopback_operation_binding();

// Why the in-process agent cannot inject the fault named `name` ("" when it
// can): an unknown name, a fault of a wire (stdio, HTTP, gRPC), or one whose
// effect the loopback agent has no way to show (push delivery).
std::string loopback_fault_refusal(std::string_view name);

// One run's agent: a fresh AgentCore with these faults (each must pass
// loopback_fault_refusal). The state shuts the core down when released.
core::Expected<engine::InProcessAgent> start_loopback_agent(const std::vector<std::string>& faults);

}  // namespace a2a::bindings
