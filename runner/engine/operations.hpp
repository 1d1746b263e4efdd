// ACTS abstract operations, whatever the binding: the engine names the
// operation and its final params, and the binding the run targets (a
// registered OperationBinding, binding_registry.hpp; docs/bindings.md)
// puts it on its wire and reads the answer back as an OpResult. Every
// departure from the binding's own rules is a violation in the result even
// when the A2A payload is fine, so every abstract step also checks the wire.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "runner/engine/op_result.hpp"
#include "runner/engine/session.hpp"
#include "runner/transport/url.hpp"

namespace a2a::engine {

bool is_streaming_operation(std::string_view operation);

// The registry key of the binding a session targets: "stdio", "jsonrpc",
// "rest", "jsonrpc@0.3" (an A2A 0.3 interface: the 0.3 adapter), "grpc", ...
std::string operation_binding_key(const Session& s);

// `params` are final (interpolated, messageId added). Never throws; bounded
// by `deadline`. A binding this build lacks is a kNoResponse with the reason.
OpResult call_operation(Session& s, const std::string& operation, const Json& params,
                        core::Deadline deadline);

// The interface's tenant added to params, unless they name one (every
// network binding sends it: AgentInterface.tenant, spec §4.4.6).
Json with_tenant(const Session& s, const Json& params);
// The target interface's URL, parsed (an empty Url when the session has none
// or it does not parse: discovery and --url checking refuse such targets).
transport::Url interface_url(const Session& s);

}  // namespace a2a::engine
