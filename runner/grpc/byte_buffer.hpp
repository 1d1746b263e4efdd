// gRPC's ByteBuffer <-> the serialized message as bytes, for the generic
// (ByteBuffer) calls and services of the runner, the reference agent and the
// reference client.
#pragma once

#include <string>

#include <grpcpp/support/byte_buffer.h>

namespace a2a::grpcwire {

// One slice holding a copy of `bytes`.
grpc::ByteBuffer to_buffer(const std::string& bytes);
// Every slice's bytes in order; "" when the buffer cannot be read.
std::string from_buffer(const grpc::ByteBuffer& buffer);

}  // namespace a2a::grpcwire
