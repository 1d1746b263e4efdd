// The JSON-RPC over HTTP+SSE binding (A2A spec §9): its registry entry, and
// the one exchange the A2A 0.3 adapter (runner/bindings/a2a03/) builds on.
#pragma once

#include <string>

#include "runner/bindings/http/http_exchange.hpp"
#include "runner/engine/binding_registry.hpp"

namespace a2a::bindings {

// The registry entry: key "jsonrpc", card name "JSONRPC".
engine::OperationBinding jsonrpc_operation_binding();

namespace jsonrpc_http {

// One JSON-RPC call over HTTP: `method` with `params` as they are (no
// tenant added, no renaming) POSTed to the interface URL; the answer (one
// response, or SSE of responses for `streaming`) with every envelope,
// id and content-type departure as a violation. r.binding is "jsonrpc".
engine::OpResult jsonrpc_exchange(engine::Session& s, const std::string& method, const nlohmann::json& params,
                                  bool streaming, core::Deadline d);

}  // namespace jsonrpc_http
}  // namespace a2a::bindings
