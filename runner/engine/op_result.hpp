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
  // WebSocket: the code of the agent's close frame when the connection
  // ended before the call's answer (0: none came).
  int close_code = 0;
  // stdio with Session::single_flight: a response whose id no request in
  // flight has came while this call waited; the call ended with it, at once
  // (kNoResponse; this is the frame's body).
  std::string stray_answer;
  // `run` (Session::retry_shed): how many answers in a row this call got
  // that were declines of the "try again later" kinds (run_shed_signal),
  // this one included; 0 when this answer is not one. Set by call_operation.
  int shed_answers = 0;
};

// The error's A2A / JSON-RPC code whatever the binding: error.code on stdio
// and JSON-RPC; on REST and gRPC the code of the ErrorInfo reason's row of
// the error table (nullopt without one).
std::optional<long long> a2a_error_code(const OpResult& r);

// A load-shedding answer: the agent declined this request for now, in a way
// its binding's own specification gives for "overloaded, try again later",
// and well-formed for its binding (docs/load.md "Shed answers", which quotes
// the sentences). "" when `r` is not one; else what it was: "HTTP 503",
// "HTTP 429", "JSON-RPC -32000", "gRPC RESOURCE_EXHAUSTED", "gRPC
// UNAVAILABLE", "WebSocket close 1013". Conservative: an answer with any
// binding violation, an A2A error (an A2A code, or an ErrorInfo of domain
// a2a-protocol.org) or any other code is not one.
std::string shed_signal(const OpResult& r);

// `run` (docs/runner.md "When the agent declines a request"): shed_signal's
// "try again later" kinds only: "HTTP 503", "HTTP 429", "gRPC UNAVAILABLE",
// "WebSocket close 1013"; else "". Not "JSON-RPC -32000" (an ordinary
// implementation-defined error code, which a scenario may expect) nor "gRPC
// RESOURCE_EXHAUSTED" (also a quota or a message size: not "retry").
std::string run_shed_signal(const OpResult& r);

// At most this many retries of a declined call in `run`.
inline constexpr int kShedRetries = 2;
// The wait before retry `retry` (1, 2) of a declined call: the answer's
// Retry-After in delay-seconds (RFC 9110 §10.2.3) capped at 2 s, else
// 100 ms then 400 ms. An HTTP-date Retry-After is not read (the default).
long long shed_retry_wait_ms(int retry, const OpResult& r);

// Spec §3.1.2: a task stream "MUST close when the task reaches a terminal
// state". For bindings whose stream end is the transport's own (gRPC's
// status, loopback's end of stream): an event after the first terminal one
// (a task or status update in completed, failed, canceled or rejected) is
// added to r.violations, once.
void check_stream_closes_at_terminal(OpResult& r);

}  // namespace a2a::engine
