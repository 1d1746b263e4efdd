// A gRPC interface URL as a channel target (spec §10: the card's url of a
// GRPC interface is "host:port"; schemes are accepted for plaintext and TLS).
// Shared by the runner's gRPC binding and the reference client.
#pragma once

#include <string>

#include "runner/core/expected.hpp"

namespace a2a::grpcwire {

struct GrpcTarget {
  std::string authority;  // host:port
  bool tls = false;       // https:// or grpcs://
};

// "host:port" (the 1.0 card form), "http://host:port", "grpc://host:port"
// (plaintext), "https://host:port", "grpcs://host:port" (TLS). A path other
// than "/" is an error (the service path is fixed).
core::Expected<GrpcTarget> parse_target(const std::string& url);

}  // namespace a2a::grpcwire
