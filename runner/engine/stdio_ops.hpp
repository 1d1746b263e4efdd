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

#include "runner/engine/session.hpp"
#include "runner/transport/http_client.hpp"

namespace a2a::engine {

struct OpResult {
  enum class Status { kResult, kError, kNoResponse };
  Status status = Status::kNoResponse;
  Json request_id;
  Json result;                     // unary: the A2A object (assertion root)
  Json error;                      // the JSON-RPC error object
  std::vector<Json> events;        // streaming: StreamResponse payloads in order
  std::vector<Json> stream_errors; // event/streamError params
  std::vector<std::string> violations;
  std::string problem;             // kNoResponse: why (timeout, EOF, framing)
  bool deadline_hit = false;       // the scenario deadline (not the step's) ended the wait
  // HTTP bindings.
  std::string binding = "stdio";   // where the call went: stdio, jsonrpc, rest
  int http_status = 0;             // the response's status (0 on stdio or without response)
  transport::HeaderList http_headers;
  int error_status = 0;            // REST: the HTTP status `error` goes with (an SSE error: its code)
};

bool is_streaming_operation(std::string_view operation);

// `params` are final (interpolated, messageId added). Dispatches on the
// session's binding (stdio here, HTTP bindings in http_ops.cpp).
OpResult call_operation(Session& s, const std::string& operation, const Json& params,
                        core::Deadline deadline);

// Short description of frames still unconsumed ("2 unconsumed frames: {...}; {...}").
std::string describe_pending(const AgentConnection& conn, size_t max_frames = 3);

}  // namespace a2a::engine
