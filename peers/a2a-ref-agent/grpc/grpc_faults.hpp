// The gRPC faults (faults.hpp, `grpc-*`) as decorators around the clean
// gRPC path of grpc_server.cpp: a policy (the gates and limits the server
// applies, the spec's by default), an error filter (A2A error -> wire
// status), a stream decorator and a finish filter. Without faults each is
// the identity, so the server reads like the spec (docs/grpc.md).
#pragma once

#include <memory>
#include <string>

#include "peers/a2a-ref-agent/event_stream.hpp"
#include "peers/a2a-ref-agent/faults.hpp"
#include "runner/grpc/status.hpp"

namespace a2a::agent {

inline constexpr int kGrpcMaxReceive = 4 << 20;  // like the HTTP bindings' kMaxBody

// What the server checks and how it labels its answers.
struct GrpcPolicy {
  bool check_version = true;      // a2a-version other than 1.0 / 1.0.N: VersionNotSupportedError
  bool absent_version_is_current = false;  // no a2a-version: served as 1.0 (instead of 0.3, refused)
  bool require_card_auth = true;  // GetExtendedAgentCard needs `authorization: Bearer <token>`
  int max_receive = kGrpcMaxReceive;         // larger requests: RESOURCE_EXHAUSTED (by gRPC itself)
  int unknown_method = grpcwire::kUnimplemented;
  int malformed_request = grpcwire::kInvalidArgument;
  std::string version_label;  // "" = no a2a-version in the initial metadata (the spec asks for none)
};

GrpcPolicy grpc_policy(const Faults& faults);

// The wire status of an error object {code, message, data?} (the core's
// CallError::to_json()): grpcwire::status_from_error, then the error faults.
grpcwire::WireStatus grpc_error_status(const Faults& faults, const Json& error_object);

// How a stream that failed (before its first event or mid-stream) ends:
// `error` itself, unless grpc-stream-error-as-ok turns it into OK.
grpcwire::WireStatus grpc_stream_failure(const Faults& faults, grpcwire::WireStatus error);

// The stream faults (grpc-stream-no-terminal, grpc-events-after-terminal)
// around a core stream; the stream itself without them.
std::unique_ptr<EventStream> decorate_grpc_stream(const Faults& faults, std::unique_ptr<EventStream> stream);

}  // namespace a2a::agent
