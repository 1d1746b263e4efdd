// ACTS abstract operations over the stdio binding: one JSON-RPC request with
// the profile's method name, then the response with our id (unary) or the
// profile's stream events followed by the final response (streaming). Any
// deviation from the binding's envelope rules is recorded in `violations`
// even when the A2A payload itself is fine, so every abstract step also checks
// the binding (P46 §3.5-3.6).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/engine/op_result.hpp"
#include "runner/engine/session.hpp"

namespace a2a::engine {


bool is_streaming_operation(std::string_view operation);

// `params` are final (interpolated, messageId added). Dispatches on the
// session's binding (stdio here, HTTP bindings in http_ops.cpp).
OpResult call_operation(Session& s, const std::string& operation, const Json& params,
                        core::Deadline deadline);

// Short description of frames still unconsumed ("2 unconsumed frames: {...}; {...}").
std::string describe_pending(const AgentConnection& conn, size_t max_frames = 3);

}  // namespace a2a::engine
