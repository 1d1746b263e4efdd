// Calls of A2AService methods by their path ("/lf.a2a.v1.A2AService/GetTask"),
// with messages as serialized bytes: the one place the runner's gRPC binding
// and the reference client reach gRPC's generic (ByteBuffer) call API, and the
// one receive limit they both apply to what an agent sends.
#pragma once

#include <memory>
#include <string>

#include <grpcpp/client_context.h>
#include <grpcpp/impl/channel_interface.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/status.h>
#include <grpcpp/support/sync_stream.h>

namespace a2a::grpcwire {

// The largest message we accept from an agent; a bigger one fails the call
// on our side with RESOURCE_EXHAUSTED (is_our_receive_limit).
inline constexpr int kMaxReceiveBytes = 16 << 20;

// True when `st` is our receive limit firing, not the agent refusing our
// request: gRPC's message names the limit it applied, and the agent's own
// limit names its number, not ours.
bool is_our_receive_limit(const grpc::Status& st);

// One unary call; on OK, `response` holds the answer's bytes.
grpc::Status unary_call(grpc::ChannelInterface* channel, const std::string& path, grpc::ClientContext& ctx,
                        const std::string& request, std::string& response);

// A server-streaming call, started: Read() each message, then Finish().
std::unique_ptr<grpc::ClientReader<grpc::ByteBuffer>> server_stream(grpc::ChannelInterface* channel,
                                                                    const std::string& path,
                                                                    grpc::ClientContext& ctx,
                                                                    const std::string& request);

}  // namespace a2a::grpcwire
