// A2A errors on the gRPC binding (spec §5.4, §10.6): a status code from the
// v1.0.1 table and a google.rpc.Status, carrying a google.rpc.ErrorInfo for
// every A2A error, in the grpc-status-details-bin trailer. Both directions:
// the reference agent encodes its errors here, the runner and the reference
// client decode what an agent sent.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "runner/core/expected.hpp"

namespace a2a::grpcwire {

using Json = nlohmann::json;

// gRPC status codes by number (grpc::StatusCode's values; the wire's).
inline constexpr int kOk = 0;
inline constexpr int kCancelled = 1;
inline constexpr int kUnknown = 2;
inline constexpr int kInvalidArgument = 3;
inline constexpr int kDeadlineExceeded = 4;
inline constexpr int kNotFound = 5;
inline constexpr int kFailedPrecondition = 9;
inline constexpr int kUnimplemented = 12;
inline constexpr int kInternal = 13;
inline constexpr int kUnavailable = 14;
inline constexpr int kResourceExhausted = 8;
inline constexpr int kUnauthenticated = 16;

// "NOT_FOUND" for 5; "CODE_<n>" for a number outside 0..16.
std::string code_name(int code);
std::optional<int> code_by_name(std::string_view name);

// The status code of an error object's JSON-RPC code: the §5.4 table for
// A2A errors (-32001..-32009), and for JSON-RPC's own INVALID_ARGUMENT
// (-32700, -32600, -32602), UNIMPLEMENTED (-32601), INTERNAL (-32603);
// -31401 (no credentials) is UNAUTHENTICATED; anything else UNKNOWN.
int status_code_for(int jsonrpc_code);

// What goes on the wire for an error.
struct WireStatus {
  int code = kUnknown;
  std::string message;
  std::string details;  // serialized google.rpc.Status ("" = no details trailer)
};

// An error object {code, message, data?} (the core's shape): the table's
// status code, the message, and google.rpc.Status{code, message, details}
// where details are data's entries that carry an "@type" protobuf knows
// (ErrorInfo, BadRequest). ErrorInfo metadata values that are not strings
// are written as their JSON text (the proto map is string to string).
WireStatus status_from_error(const Json& error_object);

// google.rpc.Status {code, message, details: [{"@type": ..., ...}]} as bytes.
core::Expected<std::string> encode_status(int code, const std::string& message, const Json& details);
// grpc-status-details-bin to JSON {code, message, details: [{"@type": ..., ...}]};
// a detail whose type this build does not know stays {"@type", "value" (base64)}.
core::Expected<Json> decode_status(std::string_view bytes);

}  // namespace a2a::grpcwire
