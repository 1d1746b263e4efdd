// A client session over the gRPC binding (spec §10): every operation is a
// call of lf.a2a.v1.A2AService on one channel to the card's GRPC interface,
// params and results in ProtoJSON (runner/grpc/proto_json.hpp), with the
// metadata a2a-version: 1.0 (§10.2) and the operation's deadline as the
// call's gRPC deadline. A status other than OK is the agent's error: the
// JSON-RPC code of its ErrorInfo reason (§10.6, §5.4), so scripts read the
// same `{"kind":"agent","code":-32001}` on every binding. Not thread-safe:
// one call at a time, as the CLI makes them.
#pragma once

#include <memory>
#include <string>

#include "peers/a2a-ref-client/card.hpp"
#include "peers/a2a-ref-client/cli_run.hpp"
#include "peers/a2a-ref-client/client_session.hpp"
#include "runner/grpc/target.hpp"
#include "runner/transport/transcript.hpp"

namespace grpc {
class Channel;
}

namespace a2a::client {

struct GrpcSessionOptions {
  std::string bearer_token;                     // non-empty: "authorization: Bearer <token>" metadata
  transport::Transcript* transcript = nullptr;  // records every call and answer when set
};

class GrpcSession : public Session {
 public:
  // kInvalidArgument when the interface URL is not host:port (or a
  // http/https/grpc/grpcs URL without a path). No connection is made yet.
  static core::Expected<std::unique_ptr<GrpcSession>> create(SelectedInterface chosen,
                                                             GrpcSessionOptions options = {});

  CallResult call(model::Operation op, const Json& params, core::Deadline deadline) override;
  CallResult stream(model::Operation op, const Json& params, const StreamCallback& on_event,
                    core::Deadline deadline) override;
  // A channel reconnects by itself: no call leaves the session unusable.
  std::optional<ClientError> dead() const override { return std::nullopt; }

  const SelectedInterface& chosen() const { return chosen_; }

 private:
  GrpcSession(SelectedInterface chosen, grpcwire::GrpcTarget target, GrpcSessionOptions options);

  SelectedInterface chosen_;
  grpcwire::GrpcTarget target_;
  GrpcSessionOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
};

// The factory run_cli uses for a GRPC interface (main.cpp sets it in gRPC builds).
GrpcSessionFactory grpc_session_factory();

// A non-OK status as the error object printed for it:
// {"code":<JSON-RPC code>,"message":..,"status":"NOT_FOUND","details":[..]}.
// `code` is the JSON-RPC code of the A2A ErrorInfo reason (domain
// a2a-protocol.org), else -32602 for INVALID_ARGUMENT, -32601 for
// UNIMPLEMENTED, -32603 for INTERNAL, else left out. `details` are those
// of the decoded grpc-status-details-bin (absent when there is none).
Json grpc_error_object(int status_code, const std::string& message, const std::string& details_bin);

}  // namespace a2a::client
