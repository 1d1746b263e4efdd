// Helpers for the agent's gRPC tests (header-only): a real GrpcAgent on
// 127.0.0.1:0 over a real AgentCore, and a real gRPC client (GenericStub for
// unary calls of any method, bytes included; the generated stub for the two
// server streams). Every call carries a deadline, so every wait is bounded.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <google/protobuf/util/json_util.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "lf/a2a/v1/a2a.grpc.pb.h"
#include "peers/a2a-ref-agent/grpc/grpc_server.hpp"
#include "peers/a2a-ref-agent/test_support.hpp"
#include "runner/grpc/proto_json.hpp"
#include "runner/grpc/status.hpp"

namespace a2a::agent::testing {

using Metadata = std::vector<std::pair<std::string, std::string>>;
inline const Metadata kV1Md = {{"a2a-version", "1.0"}};

struct GrpcReply {
  grpc::StatusCode code = grpc::StatusCode::UNKNOWN;
  std::string message;
  Json body;     // the response as ProtoJSON (null on error)
  Json details;  // grpc-status-details-bin decoded ({code, message, details}); null when absent
  std::multimap<std::string, std::string> initial;  // the server's initial metadata
  std::vector<Json> events;                         // streams: every StreamResponse
};

inline std::string reason_of(const GrpcReply& r) {
  if (!r.details.is_object()) return "";
  for (const auto& d : r.details["details"])
    if (d.value("@type", "") == "type.googleapis.com/google.rpc.ErrorInfo") return d.value("reason", "");
  return "";
}
inline std::string domain_of(const GrpcReply& r) {
  if (!r.details.is_object()) return "";
  for (const auto& d : r.details["details"])
    if (d.value("@type", "") == "type.googleapis.com/google.rpc.ErrorInfo") return d.value("domain", "");
  return "";
}

inline void fill_reply(GrpcReply& out, const grpc::Status& st, const grpc::ClientContext& ctx) {
  out.code = st.error_code();
  out.message = st.error_message();
  if (!st.error_details().empty()) {
    auto d = grpcwire::decode_status(st.error_details());
    EXPECT_TRUE(d) << "grpc-status-details-bin is not a google.rpc.Status";
    if (d) out.details = *d;
  }
  for (const auto& [k, v] : ctx.GetServerInitialMetadata())
    out.initial.emplace(std::string(k.data(), k.size()), std::string(v.data(), v.size()));
}

class GrpcClient {
 public:
  explicit GrpcClient(uint16_t port)
      : channel_(grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials(),
                                           unlimited())),
        generic_(channel_),
        stub_(lf::a2a::v1::A2AService::NewStub(channel_)) {}

  // Any method path, any bytes.
  GrpcReply raw(const std::string& path, const std::string& bytes, const Metadata& md = kV1Md,
                core::Millis timeout = core::Millis(8000), std::string* response_bytes = nullptr) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + timeout);
    for (const auto& [k, v] : md) ctx.AddMetadata(k, v);
    grpc::Slice slice(bytes);
    grpc::ByteBuffer request(&slice, 1), response;
    std::promise<grpc::Status> done;
    generic_.UnaryCall(&ctx, path, grpc::StubOptions(), &request, &response,
                       [&done](grpc::Status s) { done.set_value(std::move(s)); });
    auto f = done.get_future();
    // The deadline ends the call; the extra seconds only guard against a bug of gRPC's.
    if (f.wait_for(timeout + std::chrono::seconds(5)) != std::future_status::ready) {
      ADD_FAILURE() << path << ": the call did not end after its deadline";
      ctx.TryCancel();
      f.wait();
    }
    grpc::Status st = f.get();
    GrpcReply out;
    fill_reply(out, st, ctx);
    if (st.ok() && response_bytes) {
      std::vector<grpc::Slice> slices;
      EXPECT_TRUE(response.Dump(&slices).ok());
      for (const auto& s : slices) response_bytes->append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
    return out;
  }

  // A unary operation with a ProtoJSON request; the response decoded.
  GrpcReply call(model::Operation op, const Json& request, const Metadata& md = kV1Md,
                 core::Millis timeout = core::Millis(8000)) {
    const auto& m = grpcwire::method_of(op);
    auto bytes = grpcwire::json_to_binary(*m.input_type(), request);
    EXPECT_TRUE(bytes) << bytes.error().message;
    std::string response;
    GrpcReply out = raw(grpcwire::method_path(op), bytes ? *bytes : "", md, timeout, &response);
    if (out.code == grpc::StatusCode::OK) {
      auto j = grpcwire::binary_to_json(*m.output_type(), response);
      EXPECT_TRUE(j) << j.error().message;
      if (j) out.body = *j;
    }
    return out;
  }

  // SendStreamingMessage or SubscribeToTask: every event, then the status.
  GrpcReply stream(model::Operation op, const Json& request, const Metadata& md = kV1Md,
                   core::Millis timeout = core::Millis(8000)) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + timeout);
    for (const auto& [k, v] : md) ctx.AddMetadata(k, v);
    std::unique_ptr<grpc::ClientReader<lf::a2a::v1::StreamResponse>> reader;
    lf::a2a::v1::SendMessageRequest send;
    lf::a2a::v1::SubscribeToTaskRequest subscribe;
    if (op == model::Operation::kSendStreamingMessage) {
      EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(request.dump(), &send).ok());
      reader = stub_->SendStreamingMessage(&ctx, send);
    } else {
      EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(request.dump(), &subscribe).ok());
      reader = stub_->SubscribeToTask(&ctx, subscribe);
    }
    GrpcReply out;
    lf::a2a::v1::StreamResponse event;
    while (reader->Read(&event)) {
      std::string text;
      EXPECT_TRUE(google::protobuf::util::MessageToJsonString(event, &text).ok());
      out.events.push_back(Json::parse(text));
    }
    fill_reply(out, reader->Finish(), ctx);
    return out;
  }

 private:
  // The client reads answers of any size (a faulty agent may echo a large request).
  static grpc::ChannelArguments unlimited() {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(-1);
    return args;
  }
  std::shared_ptr<grpc::Channel> channel_;
  grpc::GenericStub generic_;
  std::unique_ptr<lf::a2a::v1::A2AService::Stub> stub_;
};

// A core and a gRPC server over it (no HTTP), torn down in order.
struct GrpcFixture {
  explicit GrpcFixture(Faults faults = {}, AgentConfig config = fast_config()) {
    config.faults = faults;
    core = std::make_unique<AgentCore>(config);
    GrpcAgentOptions o;
    o.faults = faults;
    o.log_fd = -1;
    auto started = GrpcAgent::start(o);
    EXPECT_TRUE(started.ok()) << (started.ok() ? "" : started.error().str());
    if (started.ok()) {
      server = std::move(*started);
      server->attach(*core);
      client = std::make_unique<GrpcClient>(server->port());
    }
  }
  ~GrpcFixture() {
    client.reset();
    if (server) server->stop();
  }
  std::unique_ptr<AgentCore> core;
  std::unique_ptr<GrpcAgent> server;
  std::unique_ptr<GrpcClient> client;
};

inline Faults one_fault(Fault f) {
  Faults faults;
  faults.add(f);
  return faults;
}

}  // namespace a2a::agent::testing
