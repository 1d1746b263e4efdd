#include "runner/grpc/generic_call.hpp"

#include <grpcpp/impl/client_unary_call.h>
#include <grpcpp/impl/rpc_method.h>

#include "runner/grpc/byte_buffer.hpp"

namespace a2a::grpcwire {

bool is_our_receive_limit(const grpc::Status& st) {
  return st.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED &&
         st.error_message().find(std::to_string(kMaxReceiveBytes)) != std::string::npos;
}

grpc::Status unary_call(grpc::ChannelInterface* channel, const std::string& path, grpc::ClientContext& ctx,
                        const std::string& request, std::string& response) {
  // RpcMethod keeps the pointer; `path` outlives the call.
  grpc::internal::RpcMethod rpc(path.c_str(), grpc::internal::RpcMethod::NORMAL_RPC);
  grpc::ByteBuffer out = to_buffer(request), in;
  grpc::Status st = grpc::internal::BlockingUnaryCall(channel, rpc, &ctx, out, &in);
  if (st.ok()) response = from_buffer(in);
  return st;
}

std::unique_ptr<grpc::ClientReader<grpc::ByteBuffer>> server_stream(grpc::ChannelInterface* channel,
                                                                    const std::string& path,
                                                                    grpc::ClientContext& ctx,
                                                                    const std::string& request) {
  // The call is created here (the method name is copied into it), so the
  // RpcMethod may end with this function.
  grpc::internal::RpcMethod rpc(path.c_str(), grpc::internal::RpcMethod::SERVER_STREAMING);
  return std::unique_ptr<grpc::ClientReader<grpc::ByteBuffer>>(
      grpc::internal::ClientReaderFactory<grpc::ByteBuffer>::Create(channel, rpc, &ctx, to_buffer(request)));
}

}  // namespace a2a::grpcwire
