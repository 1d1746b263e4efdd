#include "peers/a2a-ref-client/grpc/grpc_session.hpp"

#include <chrono>
#include <vector>

#include <google/protobuf/descriptor.h>
#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/channel_arguments.h>
#include <grpcpp/support/sync_stream.h>

#include "peers/a2a-ref-client/fault.hpp"
#include "runner/jsonrpc/errors.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/grpc/byte_buffer.hpp"
#include "runner/grpc/generic_call.hpp"
#include "runner/grpc/proto_json.hpp"
#include "runner/grpc/status.hpp"

namespace a2a::client {
namespace {

// The largest answer we read (a bigger one fails the call on our side).
constexpr core::Millis kDeadlineSlack{200};

std::string str_of(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

std::optional<int> code_from_details(const Json& details) {
  if (!details.is_array()) return std::nullopt;
  for (const Json& d : details) {
    if (!d.is_object() || str_of(d, "@type") != jsonrpc::kErrorInfoType) continue;
    std::string domain = str_of(d, "domain");
    if (!domain.empty() && domain != jsonrpc::kErrorDomain) continue;
    if (auto row = jsonrpc::row_by_reason(str_of(d, "reason"))) return row->jsonrpc_code;
  }
  return std::nullopt;
}

// Our side of a failed call: no answer from the agent (deadline, connection).
std::optional<ClientError> not_an_answer(const grpc::Status& st, const core::Deadline& d, const std::string& what) {
  auto code = st.error_code();
  // gRPC's timer (system clock) may fire a little before our steady-clock
  // deadline reads expired; an agent's own DEADLINE_EXCEEDED comes early.
  if (code == grpc::StatusCode::DEADLINE_EXCEEDED && d.remaining() <= kDeadlineSlack)
    return ClientError{ClientErrorKind::kTimeout, what + ": no answer within the deadline", nullptr};
  if (code == grpc::StatusCode::UNAVAILABLE)
    return ClientError{ClientErrorKind::kTransport, what + ": the agent is unavailable (" + st.error_message() + ")",
                       nullptr};
  if (grpcwire::is_our_receive_limit(st))
    return ClientError{ClientErrorKind::kTransport, what + ": the answer exceeds our limit (" + st.error_message() + ")",
                       nullptr};
  return std::nullopt;
}

ClientError agent_error(const grpc::Status& st) {
  std::string details = fault_on("client-http-status-only") ? std::string() : st.error_details();
  return ClientError{ClientErrorKind::kAgent, "",
                     grpc_error_object(static_cast<int>(st.error_code()), st.error_message(), details)};
}

ClientError transport_error(std::string message) {
  return ClientError{ClientErrorKind::kTransport, std::move(message), nullptr};
}

// proto3 cannot tell an empty nextPageToken from an absent one; JSON-RPC and
// REST write "" on the last page (§3.1.4), so the output is the same.
Json normalised(model::Operation op, Json result) {
  if (op == model::Operation::kListTasks && result.is_object() && !result.contains("nextPageToken"))
    result["nextPageToken"] = "";
  // google.protobuf.Empty: JSON-RPC answers null, REST an empty body (null).
  if (op == model::Operation::kDeletePushConfig && result == Json::object()) return nullptr;
  return result;
}

}  // namespace

Json grpc_error_object(int status_code, const std::string& message, const std::string& details_bin) {
  Json out = Json::object();
  Json details = nullptr;
  if (!details_bin.empty()) {
    auto d = grpcwire::decode_status(details_bin);
    details = d ? (*d)["details"] : Json(nullptr);
  }
  std::optional<int> code = code_from_details(details);
  if (!code && status_code == grpcwire::kInvalidArgument) code = jsonrpc::kInvalidParams;
  if (!code && status_code == grpcwire::kUnimplemented) code = jsonrpc::kMethodNotFound;
  if (!code && status_code == grpcwire::kInternal) code = jsonrpc::kInternalError;
  if (code) out["code"] = *code;
  out["message"] = message;
  out["status"] = grpcwire::code_name(status_code);
  if (!details.is_null()) out["details"] = details;
  return out;
}

core::Expected<std::unique_ptr<GrpcSession>> GrpcSession::create(SelectedInterface chosen,
                                                                 GrpcSessionOptions options) {
  auto target = grpcwire::parse_target(chosen.iface.url);
  if (!target) {
    return core::fail(core::ErrorKind::kInvalidArgument,
                      "interface URL '" + chosen.iface.url + "' is unusable: " + target.error().message);
  }
  return std::unique_ptr<GrpcSession>(new GrpcSession(std::move(chosen), std::move(*target), std::move(options)));
}

GrpcSession::GrpcSession(SelectedInterface chosen, grpcwire::GrpcTarget target, GrpcSessionOptions options)
    : chosen_(std::move(chosen)), target_(std::move(target)), options_(std::move(options)) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(grpcwire::kMaxReceiveBytes);
  auto creds = target_.tls ? grpc::SslCredentials(grpc::SslCredentialsOptions{}) : grpc::InsecureChannelCredentials();
  channel_ = grpc::CreateCustomChannel(target_.authority, creds, args);
}

namespace {

// One call's request: the bytes, the context (deadline, metadata), a name.
struct Prepared {
  std::string bytes;
  std::string path;
  std::string what;
};

core::Expected<Prepared> prepare(model::Operation op, const Json& params, const std::optional<std::string>& tenant,
                                 const std::string& authority) {
  Json p = params;
  // The interface's tenant (§3.2.7) travels in the request message.
  if (tenant && p.is_object() && !p.contains("tenant")) p["tenant"] = *tenant;
  const auto& method = grpcwire::method_of(op);
  auto bytes = grpcwire::json_to_binary(*method.input_type(), p);
  if (!bytes)
    return core::fail(core::ErrorKind::kInvalidArgument,
                      "the params are not a " + method.input_type()->full_name() + ": " + bytes.error().message);
  std::string path = grpcwire::method_path(op);
  return Prepared{std::move(*bytes), path, path + " on " + authority};
}

void setup_context(grpc::ClientContext& ctx, core::Deadline deadline, const std::string& bearer) {
  ctx.set_deadline(std::chrono::system_clock::now() + deadline.remaining());
  if (!fault_on("client-no-version-header")) ctx.AddMetadata("a2a-version", std::string(kClientVersion));
  if (!bearer.empty()) ctx.AddMetadata("authorization", "Bearer " + bearer);
}

}  // namespace

CallResult GrpcSession::call(model::Operation op, const Json& params, core::Deadline deadline) {
  if (model::is_streaming(op))
    return CallResult::failure({ClientErrorKind::kUsage, "call() on a streaming operation", nullptr});
  auto p = prepare(op, params, chosen_.iface.tenant, target_.authority);
  if (!p) return CallResult::failure({ClientErrorKind::kUsage, p.error().message, nullptr});
  transport::Transcript* tr = options_.transcript;
  if (tr) tr->add(transport::Direction::kToPeer, "gRPC " + p->what + " " + jsonrpc::dump(params));
  grpc::ClientContext ctx;
  setup_context(ctx, deadline, options_.bearer_token);
  std::string response;
  grpc::Status st = grpcwire::unary_call(channel_.get(), p->path, ctx, p->bytes, response);
  if (!st.ok()) {
    if (tr) tr->add(transport::Direction::kFromPeer, "gRPC status " + grpcwire::code_name(st.error_code()) + " " + st.error_message());
    if (auto e = not_an_answer(st, deadline, p->what)) return CallResult::failure(*e);
    return CallResult::failure(agent_error(st));
  }
  const auto& method = grpcwire::method_of(op);
  auto j = grpcwire::binary_to_json(*method.output_type(), response);
  if (!j)
    return CallResult::failure(transport_error(p->what + ": the answer is not a " +
                                               method.output_type()->full_name() + ": " + j.error().message));
  if (tr) tr->add(transport::Direction::kFromPeer, "gRPC OK " + jsonrpc::dump(*j));
  return CallResult::success(normalised(op, std::move(*j)));
}

// gRPC has no error event: a stream ends with its status. An error status
// after events is printed as a streamError (as the other bindings print an
// error event), and the stream ends there; before any event it is the
// operation's error.
CallResult GrpcSession::stream(model::Operation op, const Json& params, const StreamCallback& on_event,
                               core::Deadline deadline) {
  if (!model::is_streaming(op))
    return CallResult::failure({ClientErrorKind::kUsage, "stream() on a unary operation", nullptr});
  auto p = prepare(op, params, chosen_.iface.tenant, target_.authority);
  if (!p) return CallResult::failure({ClientErrorKind::kUsage, p.error().message, nullptr});
  transport::Transcript* tr = options_.transcript;
  if (tr) tr->add(transport::Direction::kToPeer, "gRPC " + p->what + " " + jsonrpc::dump(params));
  grpc::ClientContext ctx;
  setup_context(ctx, deadline, options_.bearer_token);
  auto reader = grpcwire::server_stream(channel_.get(), p->path, ctx, p->bytes);
  const auto& method = grpcwire::method_of(op);
  grpc::ByteBuffer message;
  size_t events = 0;
  std::optional<ClientError> broken;
  while (reader->Read(&message)) {
    auto j = grpcwire::binary_to_json(*method.output_type(), grpcwire::from_buffer(message));
    if (!j) {
      broken = transport_error(p->what + ": stream message " + std::to_string(events) + " is not a " +
                               method.output_type()->full_name() + ": " + j.error().message);
      ctx.TryCancel();
      break;
    }
    if (tr) tr->add(transport::Direction::kFromPeer, "gRPC stream " + jsonrpc::dump(*j));
    ++events;
    on_event(StreamItem{StreamItem::Type::kEvent, std::move(*j)});
    if (fault_on("client-grpc-first-message-only")) {
      ctx.TryCancel();
      reader->Finish();
      return CallResult::success(nullptr);
    }
  }
  grpc::Status st = reader->Finish();
  if (broken) return CallResult::failure(*broken);
  if (tr)
    tr->add(transport::Direction::kFromPeer,
            "gRPC stream ended: " + grpcwire::code_name(st.error_code()) + " " + st.error_message());
  if (st.ok()) return CallResult::success(nullptr);
  if (auto e = not_an_answer(st, deadline, p->what)) {
    if (e->kind == ClientErrorKind::kTransport && events > 0 && fault_on("client-eof-mid-stream-ok"))
      return CallResult::success(nullptr);
    return CallResult::failure(*e);
  }
  ClientError e = agent_error(st);
  if (events == 0) {
    if (fault_on("client-stream-error-as-end")) return CallResult::success(nullptr);
    return CallResult::failure(e);
  }
  if (!fault_on("client-ignore-stream-error")) on_event(StreamItem{StreamItem::Type::kStreamError, e.rpc_error});
  return CallResult::success(nullptr);
}

GrpcSessionFactory grpc_session_factory() {
  return [](const SelectedInterface& chosen,
            const GrpcSessionSetup& setup) -> core::Expected<std::unique_ptr<Session>> {
    auto s = GrpcSession::create(chosen, GrpcSessionOptions{setup.bearer_token, setup.transcript});
    if (!s) return core::fail(s.error());
    return std::unique_ptr<Session>(std::move(*s));
  };
}

}  // namespace a2a::client
