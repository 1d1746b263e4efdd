// The scripted gRPC agent of `a2a-conform client --binding grpc`
// (docs/client-conformance.md, docs/grpc.md "Clients on gRPC"): an HTTP
// server for the card (one GRPC interface, "127.0.0.1:PORT": this agent)
// and a gRPC server, one generic service, that records every call (method,
// metadata, the request as ProtoJSON) for x-expect-request and answers what
// x-reply says: result -> the method's output message; error -> a gRPC status
// with google.rpc details (grpcwire::status_from_error); stream -> messages
// then OK, or an error status (gRPC has no error event: it ends the stream).
#pragma once

#include <memory>

#include "runner/core/expected.hpp"
#include "runner/engine/binding_registry.hpp"

namespace a2a::bindings {

core::Expected<std::unique_ptr<engine::ScriptedAgent>> start_grpc_scripted_agent(transport::Transcript* tr);

}  // namespace a2a::bindings
