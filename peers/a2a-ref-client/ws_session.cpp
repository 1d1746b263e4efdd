#include "peers/a2a-ref-client/ws_session.hpp"

#include "peers/a2a-ref-client/fault.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::client {
namespace {

constexpr size_t kExcerpt = 200;

ClientError transport_error(std::string message) {
  return ClientError{ClientErrorKind::kTransport, std::move(message), nullptr};
}

// The id of a text frame's JSON (null when absent, not JSON or binary): the
// inbox is searched by it without building a whole Message per frame.
Json frame_id(const transport::WsFrame& f) {
  if (!f.text) return nullptr;
  Json doc = jsonrpc::parse_json_or_discarded(f.payload);
  if (!doc.is_object()) return nullptr;
  auto it = doc.find("id");
  return it == doc.end() ? Json(nullptr) : *it;
}

// A frame answering our request: a text JSON-RPC response with its id (an
// error with id null counts: the agent could not read our id, and the CLI
// has one request in flight). nullopt and *why for anything else.
std::optional<jsonrpc::Message> response_of(const transport::WsFrame& f, const Json& id, std::string* why) {
  if (!f.text) {
    *why = "the answer came in a binary frame (the binding sends JSON-RPC in text frames): " +
           core::escape_bytes(f.payload, kExcerpt);
    return std::nullopt;
  }
  std::string reason;
  auto msg = jsonrpc::parse_message(f.payload, &reason);
  if (!msg || (msg->kind != jsonrpc::Kind::kResponse && msg->kind != jsonrpc::Kind::kError)) {
    *why = "the frame is not a JSON-RPC response" + (reason.empty() ? "" : " (" + reason + ")") + ": " +
           core::escape_bytes(f.payload, kExcerpt);
    return std::nullopt;
  }
  bool id_ok = msg->id == id || (msg->kind == jsonrpc::Kind::kError && msg->id.is_null()) ||
               fault_on("client-match-wrong-id") || fault_on("client-assume-in-order");
  if (!id_ok) {
    *why = "response id " + jsonrpc::dump(msg->id) + " does not match request id " + jsonrpc::dump(id);
    return std::nullopt;
  }
  return msg;
}

}  // namespace

bool is_stream_complete(const Json& result) {
  return result.is_object() && result.size() == 1 && result.value("status", Json()) == "stream_complete";
}

core::Expected<std::unique_ptr<WsSession>> WsSession::create(SelectedInterface chosen, WsSessionOptions options,
                                                             core::Deadline deadline) {
  auto url = transport::WsUrl::parse(chosen.iface.url);
  if (!url) {
    return core::fail(core::ErrorKind::kInvalidArgument,
                      "interface URL '" + chosen.iface.url + "' is unusable: " + url.error().message);
  }
  transport::WsOptions o;
  if (!fault_on("client-no-version-header")) o.headers.emplace_back("A2A-Version", std::string(kClientVersion));
  if (!options.bearer_token.empty()) o.headers.emplace_back("Authorization", "Bearer " + options.bearer_token);
  if (options.transcript) options.transcript->add(transport::Direction::kToPeer, "WebSocket upgrade " + chosen.iface.url);
  transport::WsRefusal refusal;
  auto conn = transport::WsConnection::connect(chosen.iface.url, std::move(o), deadline, &refusal);
  if (!conn) {
    std::string msg = "WebSocket connection to " + chosen.iface.url + " failed: " + conn.error().message;
    if (refusal.status != 0) {
      msg = "the agent refused the WebSocket upgrade at " + chosen.iface.url + ": HTTP " +
            std::to_string(refusal.status) + " " + core::escape_bytes(refusal.body, kExcerpt);
    }
    return core::fail(refusal.status != 0 ? core::ErrorKind::kProtocol : conn.error().kind, msg);
  }
  return std::unique_ptr<WsSession>(new WsSession(std::move(chosen), std::move(options), std::move(*conn)));
}

WsSession::WsSession(SelectedInterface chosen, WsSessionOptions options, std::unique_ptr<transport::WsConnection> conn)
    : chosen_(std::move(chosen)), options_(std::move(options)), conn_(std::move(conn)) {}

std::optional<ClientError> WsSession::dead() const {
  if (!conn_->closed()) return std::nullopt;
  return transport_error("the WebSocket connection to " + chosen_.iface.url + " ended: " + conn_->why());
}

core::Expected<Json> WsSession::send_request(model::Operation op, const Json& params, core::Deadline deadline) {
  Json id = next_id_++;
  Json p = params;
  // The interface's tenant (§3.2.7) travels in the request, as on JSON-RPC.
  if (chosen_.iface.tenant && p.is_object() && !p.contains("tenant")) p["tenant"] = *chosen_.iface.tenant;
  Json req = {{"jsonrpc", "2.0"},
              {"id", id},
              {"method", std::string(model::method_name(op, model::MethodNaming::kV1))},
              {"params", std::move(p)}};
  std::string text = jsonrpc::dump(req);
  if (options_.transcript) options_.transcript->add(transport::Direction::kToPeer, text);
  auto sent = conn_->send(text, true, deadline);
  if (!sent) return core::fail(sent.error());
  return id;
}

core::Expected<transport::WsFrame> WsSession::next_answer(const Json& id, core::Deadline deadline,
                                                          const std::string& what) {
  bool any = fault_on("client-match-wrong-id") || fault_on("client-assume-in-order");
  auto frame = conn_->take(
      [&](const transport::WsFrame& f) {
        if (any || !f.text) return true;
        Json fid = frame_id(f);
        return fid == id || fid.is_null();
      },
      deadline);
  if (!frame) {
    if (conn_->closed())
      return core::fail(core::ErrorKind::kEof, what + ": the connection ended before the answer: " + conn_->why());
    return core::fail(core::ErrorKind::kTimeout, what + ": no answer within the deadline");
  }
  if (options_.transcript)
    options_.transcript->add(transport::Direction::kFromPeer, (frame->text ? "" : "[binary] ") + frame->payload);
  return std::move(*frame);
}

namespace {
CallResult failure_of(core::ErrorKind kind, std::string message) {
  return CallResult::failure({kind == core::ErrorKind::kTimeout ? ClientErrorKind::kTimeout
                                                                : ClientErrorKind::kTransport,
                              std::move(message), nullptr});
}
CallResult failure_of(const core::Error& e) { return failure_of(e.kind, e.message); }
}  // namespace

CallResult WsSession::call(model::Operation op, const Json& params, core::Deadline deadline) {
  if (model::is_streaming(op))
    return CallResult::failure({ClientErrorKind::kUsage, "call() on a streaming operation", nullptr});
  if (auto d = dead()) return CallResult::failure(*d);
  auto id = send_request(op, params, deadline);
  std::string what = "request id " + (id ? jsonrpc::dump(*id) : "?") + " (" +
                     std::string(model::canonical_name(op)) + ")";
  if (!id) return failure_of(id.error().kind, what + ": " + id.error().message);
  auto frame = next_answer(*id, deadline, what);
  if (!frame) return failure_of(frame.error());
  std::string why;
  auto msg = response_of(*frame, *id, &why);
  if (!msg) return CallResult::failure(transport_error(what + ": " + why));
  if (msg->kind == jsonrpc::Kind::kError) return CallResult::failure({ClientErrorKind::kAgent, "", msg->error});
  return CallResult::success(msg->result);
}

// An error frame ends the stream: before any event it is the operation's
// error, after events a streamError item (as an SSE error event is on
// JSON-RPC over HTTP) and a normal end; no completion frame follows one.
CallResult WsSession::stream(model::Operation op, const Json& params, const StreamCallback& on_event,
                             core::Deadline deadline) {
  if (!model::is_streaming(op))
    return CallResult::failure({ClientErrorKind::kUsage, "stream() on a unary operation", nullptr});
  if (auto d = dead()) return CallResult::failure(*d);
  auto id = send_request(op, params, deadline);
  std::string what = "stream id " + (id ? jsonrpc::dump(*id) : "?") + " (" +
                     std::string(model::canonical_name(op)) + ")";
  if (!id) return failure_of(id.error().kind, what + ": " + id.error().message);
  for (size_t events = 0;; ++events) {
    if (events >= options_.max_stream_events)
      return CallResult::failure(transport_error(what + ": more than " + std::to_string(events) + " events"));
    auto frame = next_answer(*id, deadline, what);
    if (!frame) {
      if (events > 0 && frame.error().kind == core::ErrorKind::kEof && fault_on("client-eof-mid-stream-ok"))
        return CallResult::success(nullptr);
      return failure_of(frame.error());
    }
    std::string why;
    auto msg = response_of(*frame, *id, &why);
    if (!msg) return CallResult::failure(transport_error(what + ": " + why));
    if (msg->kind == jsonrpc::Kind::kError) {
      ClientError e{ClientErrorKind::kAgent, "", msg->error};
      if (events == 0) {
        if (fault_on("client-stream-error-as-end")) return CallResult::success(nullptr);
        return CallResult::failure(e);
      }
      if (fault_on("client-ignore-stream-error")) continue;  // waits on for a completion that never comes
      on_event(StreamItem{StreamItem::Type::kStreamError, e.rpc_error});
      return CallResult::success(nullptr);
    }
    if (is_stream_complete(msg->result) && !fault_on("client-ws-ignore-completion")) return CallResult::success(nullptr);
    on_event(StreamItem{StreamItem::Type::kEvent, msg->result});
  }
}

}  // namespace a2a::client
