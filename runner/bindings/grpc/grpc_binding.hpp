// The runner's gRPC binding (A2A spec §10, docs/grpc.md): ACTS abstract
// operations as calls of lf.a2a.v1.A2AService, params and results in
// ProtoJSON (protobuf's JSON mapping), errors as the status code plus the
// google.rpc.Status of grpc-status-details-bin, A2A service parameters as
// metadata (a2a-version, and every --header, lower-cased).
#pragma once

#include <string>

#include "runner/core/expected.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/grpc/target.hpp"

namespace a2a::bindings {

// The registry entry (key "grpc", card name "GRPC").
engine::OperationBinding grpc_operation_binding();

using GrpcTarget = grpcwire::GrpcTarget;
// An interface URL as a gRPC target: "host:port" (the 1.0 card form),
// "http://host:port", "grpc://host:port" (plaintext), "https://host:port",
// "grpcs://host:port" (TLS). A path other than "/" is an error.
core::Expected<GrpcTarget> grpc_target(const std::string& url);

}  // namespace a2a::bindings
