// expect_error on the gRPC binding (A2A spec §5.4, §10.6): the call's status
// code and the google.rpc.Status of grpc-status-details-bin, as the runner's
// gRPC binding gives them: {code, status, message, details}.
#pragma once

#include "runner/match/error_expect.hpp"

namespace a2a::match {

// An error name matches by its google.rpc.ErrorInfo first (reason in
// UPPER_SNAKE_CASE without "Error", domain "a2a-protocol.org": A2A errors on
// gRPC MUST carry one, §10.6), then by the status code of the v1.0.1 table
// (§5.4; JSON-RPC's own errors: INVALID_ARGUMENT, UNIMPLEMENTED for an
// unknown method, INTERNAL). `code` may also be a JSON-RPC code (its name is
// used) or a gRPC status name ("NOT_FOUND"); `data` applies to `details`.
MatchResult match_grpc_error(const Json& error_object, int grpc_code, const Json& expect_error,
                             const ErrorNames& names = ErrorNames::a2a());

// The gRPC status names the v1.0.1 table allows for an error name (canonical
// or as ACTS writes it); empty for a name with no mapping.
std::vector<std::string> grpc_statuses_of(std::string_view name, const ErrorNames& names = ErrorNames::a2a());

}  // namespace a2a::match
