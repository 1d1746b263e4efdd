// A2A 0.3 as adapters (docs/a2a-0.3.md "Runner"): a 0.3 interface of a card
// (protocolVersion 0.3) is tested as "jsonrpc@0.3" or "rest@0.3". Each
// adapter takes the 1.0 abstract operation the scenarios speak, sends its
// 0.3 form over the 1.0 binding's wire machinery (the JSON-RPC exchange, the
// HTTP exchange and SSE), and translates the answer back to 1.0, so the 1.0
// assertions apply; every translation note is a violation naming the 0.3 rule.
#pragma once

#include <vector>

#include "runner/engine/binding_registry.hpp"
#include "runner/engine/op_result.hpp"

namespace a2a::bindings {

// Key "jsonrpc@0.3": slash method names, 0.3 params, no A2A-Version.
engine::OperationBinding jsonrpc_v03_operation_binding();
// Key "rest@0.3": the 0.3 /v1 routes with ProtoJSON of the 0.3 proto.
engine::OperationBinding rest_v03_operation_binding();

namespace a2a03 {
// The 0.3 stream's end (§9.1 "End of stream"): the last status-update carries
// final:true and nothing follows an event that does. One entry per event.
void check_final(engine::OpResult& r, const std::vector<bool>& is_status, const std::vector<bool>& finals);
}  // namespace a2a03

}  // namespace a2a::bindings
