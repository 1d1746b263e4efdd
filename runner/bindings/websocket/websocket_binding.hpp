// The runner's WebSocket binding (the a2a-rust extension, docs/websocket.md):
// ACTS abstract operations as JSON-RPC 2.0 requests with the A2A 1.0 method
// names, one per text frame, on one connection per scenario (opened at its
// first operation, with A2A-Version and every --header on the upgrade
// request). A unary answer is the frame with the request's id; a stream is
// every frame with its id, ended by {"result": {"status": "stream_complete"}}
// or by an error frame. Requests in flight are multiplexed by id.
#pragma once

#include "runner/engine/binding_registry.hpp"

namespace a2a::bindings {

// The registry entry: key "websocket", card name "WEBSOCKET".
engine::OperationBinding websocket_operation_binding();

}  // namespace a2a::bindings
