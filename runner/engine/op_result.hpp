// What one abstract operation came back with, on any binding: the A2A
// object (the assertion root), the error, the stream's events, and every
// departure from the binding's rules as a violation (docs/bindings.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/transport/http_client.hpp"

namespace a2a::engine {

using Json = nlohmann::json;

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
  // Network bindings.
  std::string binding = "stdio";   // where the call went: stdio, jsonrpc, rest, grpc
  int http_status = 0;             // the response's status (0 on stdio or without response)
  transport::HeaderList http_headers;  // HTTP: the response's headers; gRPC: initial metadata, then trailers
  // REST: the HTTP status `error` goes with (an SSE error: its code); gRPC:
  // the status code (`error` is then the google.rpc.Status as JSON).
  int error_status = 0;
  // The step's params cannot be sent on this binding (gRPC: not a valid
  // protobuf message); the step SKIPs with this reason. Nothing was sent.
  std::string not_expressible;
};

// The error's A2A / JSON-RPC code whatever the binding: error.code on stdio
// and JSON-RPC; on REST and gRPC the code of the ErrorInfo reason's row of
// the error table (nullopt without one).
std::optional<long long> a2a_error_code(const OpResult& r);

// Spec §3.1.2: a task stream "MUST close when the task reaches a terminal
// state". For bindings whose stream end is the transport's own (gRPC's
// status, loopback's end of stream): an event after the first terminal one
// (a task or status update in completed, failed, canceled or rejected) is
// added to r.violations, once.
void check_stream_closes_at_terminal(OpResult& r);

}  // namespace a2a::engine
