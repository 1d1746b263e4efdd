#include "runner/bindings/grpc/grpc_binding.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <memory>
#include <optional>

#include <google/protobuf/descriptor.h>
#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/channel_arguments.h>
#include <grpcpp/support/sync_stream.h>

#include "runner/bindings/grpc/grpc_scripted_agent.hpp"
#include "runner/core/ascii.hpp"
#include "runner/core/escape.hpp"
#include "runner/bindings/http/http_exchange.hpp"
#include "runner/engine/session.hpp"
#include "runner/grpc/byte_buffer.hpp"
#include "runner/grpc/generic_call.hpp"
#include "runner/grpc/proto_json.hpp"
#include "runner/grpc/status.hpp"
#include "runner/match/grpc_error.hpp"
#include "runner/match/match_result.hpp"

namespace a2a::bindings {
namespace {

using engine::OpResult;
using engine::Session;
using Json = nlohmann::json;

constexpr size_t kMaxEvents = 10000;  // a stream beyond this is cut (and fails), as on HTTP

struct GrpcState : engine::BindingState {
  std::shared_ptr<grpc::Channel> channel;
  std::string authority;
};

// One channel per scenario (and its x-concurrent branches): a misbehaving
// connection never reaches another scenario, so verdicts do not depend on -j.
core::Expected<GrpcState*> state_of(Session& s) {
  if (auto* st = dynamic_cast<GrpcState*>(s.binding_state.get())) return st;
  auto target = grpc_target(s.target->url);
  if (!target) return core::fail(target.error());
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(grpcwire::kMaxReceiveBytes);
  args.SetMaxSendMessageSize(64 << 20);  // suites/grpc sends oversized requests on purpose
  // A fresh connection per scenario, not one shared through gRPC's subchannel pool.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  auto creds = target->tls ? grpc::SslCredentials(grpc::SslCredentialsOptions{}) : grpc::InsecureChannelCredentials();
  auto st = std::make_shared<GrpcState>();
  st->channel = grpc::CreateCustomChannel(target->authority, creds, args);
  st->authority = target->authority;
  s.binding_state = st;
  return st.get();
}

void add_violation(OpResult& r, std::string what) { r.violations.push_back(std::move(what)); }

// x-grpc pad_bytes: an unknown length-delimited field (number 9999) of n
// bytes after the message; a receiver skips it, but it counts towards the
// message size (suites/grpc: RESOURCE_EXHAUSTED on an oversized request).
void append_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}
void append_padding(std::string& bytes, size_t n) {
  if (n == 0) return;
  append_varint(bytes, (9999u << 3) | 2u);
  append_varint(bytes, n);
  bytes.append(n, 'x');
}

// proto3 cannot tell an empty string from an absent one, and ProtoJSON
// leaves empty strings out; spec §3.1.4 has an empty nextPageToken mean "the
// last page" and requires the member in JSON. On gRPC an absent
// next_page_token is therefore read as "" (docs/grpc.md "What the wire
// cannot say").
void fill_page_token(const google::protobuf::Descriptor& type, Json& j) {
  if (j.is_object() && !j.contains("nextPageToken") && type.FindFieldByName("next_page_token"))
    j["nextPageToken"] = "";
}

void keep_metadata(OpResult& r, const std::multimap<grpc::string_ref, grpc::string_ref>& md, const char* where) {
  for (const auto& [k, v] : md) {
    std::string key(k.data(), k.size());
    if (key.ends_with("-bin")) continue;  // binary (the status details are decoded into `error`)
    r.http_headers.emplace_back(std::string(where) + key, std::string(v.data(), v.size()));
  }
}

// A status that is not OK, as a google.rpc.Status JSON: {code, status,
// message, details}; the details are the trailer's, decoded.
Json status_json(const grpc::Status& st, OpResult& r) {
  Json e = {{"code", static_cast<int>(st.error_code())},
            {"status", grpcwire::code_name(static_cast<int>(st.error_code()))},
            {"message", st.error_message()}};
  const std::string& details = st.error_details();
  if (!details.empty()) {
    auto d = grpcwire::decode_status(details);
    if (!d) {
      add_violation(r, "grpc-status-details-bin is not a google.rpc.Status (spec §10.6): " + d.error().message);
    } else {
      e["details"] = (*d)["details"];
      if ((*d)["code"] != e["code"])
        add_violation(r, "the google.rpc.Status in grpc-status-details-bin has code " + (*d)["code"].dump() +
                             ", the call's status is " + e["code"].dump() + " (spec §10.6: one status)");
    }
  }
  return e;
}

// What our side of a failed call means: nothing from the agent.
bool no_answer(const grpc::Status& st, const core::Deadline& d, OpResult& r, Session& s, const std::string& what,
               size_t events) {
  auto code = st.error_code();
  bool ours = (code == grpc::StatusCode::DEADLINE_EXCEEDED && d.expired()) || code == grpc::StatusCode::UNAVAILABLE ||
              // our own receive limit (the agent's limit on our request names its own number)
              grpcwire::is_our_receive_limit(st);
  if (!ours) return false;
  r.status = OpResult::Status::kNoResponse;
  r.deadline_hit = s.deadline.expired();
  if (code == grpc::StatusCode::DEADLINE_EXCEEDED)
    r.problem = events ? what + ": the stream did not end within the step's deadline, after " +
                             std::to_string(events) + " event(s)"
                       : what + ": no answer within the step's deadline";
  else if (code == grpc::StatusCode::UNAVAILABLE)
    r.problem = what + ": the agent is unavailable (" + st.error_message() + ")";
  else
    r.problem = what + ": the agent's message exceeds the runner's " + std::to_string(grpcwire::kMaxReceiveBytes >> 20) +
                " MiB limit (" + st.error_message() + ")";
  return true;
}

// UNAVAILABLE is what the channel itself reports when the connection fails,
// so it reads as no answer; but when the connection is still up after it,
// the agent sent it (a load-shedding answer, engine::shed_signal): the
// status is kept in `error` (the call stays kNoResponse for the scenario
// path). A connection lost at that very moment may still read as up; then a
// transport error is counted as shed (neither is a verdict; docs/load.md).
void keep_agent_unavailable(const grpc::Status& st, GrpcState& g, Session& s, OpResult& r) {
  if (st.error_code() != grpc::StatusCode::UNAVAILABLE || g.channel->GetState(false) != GRPC_CHANNEL_READY) return;
  r.error_status = static_cast<int>(st.error_code());
  r.error = status_json(st, r);
  r.problem += " (the connection stayed up: the agent's own status)";
  if (s.transcript) s.transcript->add(transport::Direction::kFromPeer, "gRPC status " + r.error.dump());
}

// A call the session's interrupter cancelled (a signal) got no answer.
bool cancelled_by_us(const grpc::Status& st, Session& s, OpResult& r, const std::string& what) {
  if (st.error_code() != grpc::StatusCode::CANCELLED || !s.interrupter || !s.interrupter->interrupted()) return false;
  r.status = OpResult::Status::kNoResponse;
  r.problem = what + ": cancelled by the runner (interrupted)";
  return true;
}

OpResult grpc_call(Session& s, const std::string& operation, const Json& params, core::Deadline d) {
  if (operation == "get_agent_card") {
    // The card is served over HTTP at --url (a gRPC interface has no card method but the extended one).
    OpResult r = http::fetch_card_operation(s, d);
    r.binding = "grpc";
    return r;
  }
  OpResult r;
  r.binding = "grpc";
  auto op = model::operation_from_acts(operation);
  if (!op) {
    r.problem = "operation " + operation + " has no gRPC method";
    return r;
  }
  const auto& method = grpcwire::method_of(*op);
  std::string path = grpcwire::method_path(*op);
  Json p = engine::with_tenant(s, params);
  auto bytes = grpcwire::json_to_binary(*method.input_type(), p);
  if (!bytes) {
    r.not_expressible = bytes.error().message;
    return r;
  }
  if (s.interrupter && s.interrupter->interrupted()) {
    r.problem = "not sent: the session's calls were interrupted";
    return r;
  }
  auto st = state_of(s);
  if (!st) {
    r.problem = "the gRPC interface " + s.target->url + " is not usable: " + st.error().message;
    return r;
  }
  // x-grpc: another method, metadata, padding, a deadline of the step's own.
  const Json opts = s.grpc_options ? *s.grpc_options : Json::object();
  if (opts.contains("method")) {
    std::string m = opts["method"].get<std::string>();
    path = m.starts_with("/") ? m : "/" + std::string(grpcwire::kServiceName) + "/" + m;
  }
  if (opts.contains("pad_bytes")) append_padding(*bytes, opts["pad_bytes"].get<size_t>());
  // x-grpc corrupt: a field-1 length prefix that runs past the end: not a message.
  if (opts.value("corrupt", false)) bytes->append("\x0a\xff\x01", 3);
  bool own_deadline = opts.contains("deadline_ms");
  core::Deadline call_deadline = d;
  if (own_deadline) call_deadline = d.min(core::Deadline::after(core::Millis(opts["deadline_ms"].get<int>())));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + call_deadline.remaining());
  std::map<std::string, std::optional<std::string>> md = {{"a2a-version", s.a2a_version()}};
  for (const auto& [k, v] : s.config->http_headers) md[core::ascii_lower(k)] = v;
  if (opts.contains("metadata"))
    for (const auto& [k, v] : opts["metadata"].items())
      md[core::ascii_lower(k)] = v.is_string() ? std::optional<std::string>(v.get<std::string>()) : std::nullopt;
  for (const auto& [k, v] : md)
    if (v) ctx.AddMetadata(k, *v);
  r.request_id = path;
  if (s.transcript)
    s.transcript->add(transport::Direction::kToPeer, "gRPC " + st.value()->authority + " " + path + " " +
                                                         p.dump() + " (" + std::to_string(bytes->size()) + " bytes)");
  std::string what = path + " on " + st.value()->authority;
  // A signal ends the call now (a2a-conform load), not at its deadline.
  engine::CallInterrupter::Registration stop_on_signal;
  if (s.interrupter) stop_on_signal = s.interrupter->on_interrupt([&ctx] { ctx.TryCancel(); });
  grpc::Status status;
  if (!model::is_streaming(*op)) {
    std::string body;
    status = grpcwire::unary_call(st.value()->channel.get(), path, ctx, *bytes, body);
    keep_metadata(r, ctx.GetServerInitialMetadata(), "");
    keep_metadata(r, ctx.GetServerTrailingMetadata(), "trailer ");
    if (status.ok()) {
      r.status = OpResult::Status::kResult;
      auto j = grpcwire::binary_to_json(*method.output_type(), body);
      if (!j) {
        add_violation(r, "the response is not a valid " + method.output_type()->full_name() + " (spec §10.1): " +
                             j.error().message);
        r.result = nullptr;
      } else {
        r.result = std::move(*j);
        fill_page_token(*method.output_type(), r.result);
      }
      if (s.transcript) s.transcript->add(transport::Direction::kFromPeer, "gRPC OK " + r.result.dump());
      return r;
    }
  } else {
    auto reader = grpcwire::server_stream(st.value()->channel.get(), path, ctx, *bytes);
    grpc::ByteBuffer ev;
    bool cut = false;
    while (reader->Read(&ev)) {
      auto j = grpcwire::binary_to_json(*method.output_type(), grpcwire::from_buffer(ev));
      if (!j) {
        add_violation(r, "stream message " + std::to_string(r.events.size()) + " is not a valid " +
                             method.output_type()->full_name() + ": " + j.error().message);
      } else {
        if (s.transcript) s.transcript->add(transport::Direction::kFromPeer, "gRPC stream " + j->dump());
        r.events.push_back(std::move(*j));
      }
      if (r.events.size() >= kMaxEvents) {
        add_violation(r, "the stream did not end within " + std::to_string(kMaxEvents) + " messages; the rest was not read");
        ctx.TryCancel();
        cut = true;
        break;
      }
    }
    status = reader->Finish();
    keep_metadata(r, ctx.GetServerInitialMetadata(), "");
    keep_metadata(r, ctx.GetServerTrailingMetadata(), "trailer ");
    if (cut) {
      r.status = OpResult::Status::kResult;
      return r;
    }
    if (cancelled_by_us(status, s, r, what)) return r;
    engine::check_stream_closes_at_terminal(r);
    if (status.ok()) {
      r.status = OpResult::Status::kResult;
      if (s.transcript) s.transcript->add(transport::Direction::kFromPeer, "gRPC stream ended: OK");
      return r;
    }
    if (!r.events.empty() && !no_answer(status, d, r, s, what, r.events.size())) {
      // A stream that fails after its first message: the error is a stream error.
      r.status = OpResult::Status::kResult;
      r.stream_errors.push_back(status_json(status, r));
      if (s.transcript)
        s.transcript->add(transport::Direction::kFromPeer, "gRPC stream ended: " + r.stream_errors.back().dump());
      return r;
    }
    if (r.status == OpResult::Status::kNoResponse && !r.problem.empty()) return r;
  }
  // A deadline the step set itself (x-grpc deadline_ms) is what it tests: the status is the answer.
  if (cancelled_by_us(status, s, r, what)) return r;
  bool step_deadline = own_deadline && status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED && !d.expired();
  if (!step_deadline && no_answer(status, d, r, s, what, 0)) {
    keep_agent_unavailable(status, *st.value(), s, r);
    return r;
  }
  r.status = OpResult::Status::kError;
  r.error_status = static_cast<int>(status.error_code());
  r.error = status_json(status, r);
  if (s.transcript) s.transcript->add(transport::Direction::kFromPeer, "gRPC status " + r.error.dump());
  return r;
}

}  // namespace

core::Expected<GrpcTarget> grpc_target(const std::string& url) { return grpcwire::parse_target(url); }

engine::OperationBinding grpc_operation_binding() {
  engine::OperationBinding b;
  b.key = "grpc";
  b.card_name = "GRPC";
  b.title = "gRPC";
  b.check_url = [](const std::string& url) -> std::string {
    auto t = grpc_target(url);
    return t ? "" : t.error().message;
  };
  b.call = grpc_call;
  b.scripted_agent = start_grpc_scripted_agent;
  b.match_error = [](const OpResult& r, const Json& expect) {
    return match::match_grpc_error(r.error, r.error_status, expect);
  };
  return b;
}

}  // namespace a2a::bindings
