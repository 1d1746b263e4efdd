// A2A 0.3 JSON-RPC served beside 1.0 on the same URL (--serve-0.3), as the
// official SDKs' compat layers do: a request without A2A-Version (which means
// 0.3, spec §3.6.2) or with 0.3 is read with the 0.3 method names and shapes,
// translated to 1.0 (runner/a2a/v03.hpp), run by the same core, and its
// result, stream events and errors translated back (a2a-protocol.md §9.1).
// The envelope rules (parse errors, batches, ids, notifications, media type)
// were applied by handle_jsonrpc before this is reached.
#include <string>

#include "peers/a2a-ref-agent/http_binding.hpp"
#include "runner/a2a/v03.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {
namespace {

namespace v03 = model::v03;

// v03-v1-states: every `status.state` (tasks, status-updates, task lists)
// written with its 1.0 name.
void write_v1_states(Json& value) {
  if (value.is_array()) {
    for (auto& v : value) write_v1_states(v);
    return;
  }
  if (!value.is_object()) return;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (it.key() == "status" && it->is_object() && it->contains("state") && (*it)["state"].is_string()) {
      auto s = v03::task_state_from_v03((*it)["state"].get<std::string>());
      if (s) (*it)["state"] = std::string(model::to_string(*s));
    }
    write_v1_states(*it);
  }
}

// v03-no-kind: every `kind` member removed (the 1.0 habit of no discriminators).
void drop_kinds(Json& value) {
  if (value.is_array()) {
    for (auto& v : value) drop_kinds(v);
    return;
  }
  if (!value.is_object()) return;
  value.erase("kind");
  for (auto& [k, v] : value.items()) drop_kinds(v);
}

// The 0.3 shape of a 1.0 result, with the 0.3 output faults applied.
Json result_out(const Faults& f, model::Operation op, const Json& v1_result) {
  Json out = v03::result_to_v03(op, v1_result).json;
  if (f.has(Fault::kV03V1States)) write_v1_states(out);
  if (f.has(Fault::kV03NoKind)) drop_kinds(out);
  if (f.has(Fault::kV03WrappedResult) && op == model::Operation::kSendMessage && out.is_object()) {
    out = Json{{out.value("kind", "") == "message" ? "message" : "task", out}};
  }
  return out;
}

Json event_out(const Faults& f, const Json& v1_event) {
  Json out = v03::event_to_v03(v1_event).json;
  if (f.has(Fault::kV03V1States)) write_v1_states(out);
  if (f.has(Fault::kV03NoFinal) && out.is_object() && out.contains("final")) out["final"] = false;
  if (f.has(Fault::kV03NoKind)) drop_kinds(out);
  return out;
}

// A 1.0 CallError as the 0.3 error object (codes kept; ErrorInfo details kept as data).
Json error_out(const Faults& f, const CallError& e) {
  Json out = v03::error_to_v03(rpc_error_object(f, e)).json;
  if (f.has(Fault::kV03ErrorCodes) && out.is_object() && out.value("code", 0) <= -32001 && out.value("code", 0) >= -32007)
    out["code"] = jsonrpc::kInternalError;
  return out;
}

void reply_error(HttpExchange& ex, const Faults& f, const Json& id, const CallError& e) {
  rpc_reply(ex, f, 200, rpc_error_response(f, id, error_out(f, e)), kV03Version);
}

// What a 0.3 request naming no 0.3 method gets: a 1.0 method name is
// VersionNotSupported (the method exists, in the version the client did not
// ask for: send A2A-Version: 1.0), anything else Method not found.
CallError unknown_method(const Faults& f, const std::string& method) {
  if (model::operation_from_method(method, model::MethodNaming::kV1)) {
    return a2a_error(jsonrpc::A2AError::kVersionNotSupported,
                     "Version not supported: '" + method + "' is an A2A 1.0 method, and this request speaks 0.3 "
                     "(no A2A-Version means 0.3, spec §3.6.2); send A2A-Version: 1.0 or use the 0.3 method name",
                     Json{{"requestedVersion", "0.3"}, {"supportedVersions", "1.0, 0.3"}});
  }
  int code = f.has(Fault::kErrMethodNotFoundCode) ? jsonrpc::kInvalidRequest : jsonrpc::kMethodNotFound;
  return CallError{code, "Method not found: '" + method + "' is not an A2A 0.3 method", nullptr};
}

// 0.3 params -> 1.0 params; a translation note (a wrong shape, a value the
// 0.3 schema does not allow) is -32602, as the reference agent is strict.
CallResult params_in(model::Operation op, const jsonrpc::Message& m) {
  if (!m.has_params && op == model::Operation::kGetExtendedAgentCard) return Json(nullptr);
  v03::Translation t = v03::params_to_v1(op, m.params);
  if (t.ok()) return std::move(t.json);
  // The notes as the core words its -32602 errors: a google.rpc.BadRequest.
  std::string why;
  Json violations = Json::array();
  for (const auto& n : t.notes) {
    why += (why.empty() ? "" : "; ") + n;
    size_t colon = n.find(": ");
    violations.push_back({{"field", n.substr(0, colon)},
                          {"description", colon == std::string::npos ? n : n.substr(colon + 2)}});
  }
  Json detail = {{"@type", "type.googleapis.com/google.rpc.BadRequest"}, {"fieldViolations", violations}};
  return CallError{jsonrpc::kInvalidParams, "Invalid params: " + why, Json::array({detail})};
}

void answer_call(const HttpContext& ctx, HttpExchange& ex, const Json& id, model::Operation op, const Json& params) {
  const Faults& f = ctx.faults;
  CallResult r = ctx.core->call(op, params);
  if (!r.ok()) return reply_error(ex, f, id, r.error());
  ex.reply(rpc_text_reply(f, rpc_result_text(f, id, result_out(f, op, r.value())), kV03Version));
}

void serve_stream(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex, const Json& id,
                  model::Operation op, const Json& params) {
  const Faults& f = ctx.faults;
  StreamOpen opened = ctx.core->open_stream(op, params);
  if (!opened.stream) return reply_error(*ex, f, id, opened.error.value_or(internal_error("stream refused")));
  SseFormat format;
  format.version = std::string(kV03Version);
  format.event = [&f, id](const Json& event) { return rpc_result_text(f, id, event_out(f, event)); };
  format.error = [&f, id](const CallError& e) { return rpc_error_response(f, id, error_out(f, e)); };
  pump_stream(ctx, ex, std::move(opened.stream), format);
}

}  // namespace

void handle_jsonrpc_v03(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex, const jsonrpc::Message& m) {
  const Faults& f = ctx.faults;
  std::optional<model::Operation> op = v03::operation_from_v03_method(m.method);
  if (!op) return reply_error(*ex, f, m.id, unknown_method(f, m.method));
  CallResult in = params_in(*op, m);
  if (!in.ok()) return reply_error(*ex, f, m.id, in.error());
  const Json& params = in.value();
  if (model::is_streaming(*op)) return serve_stream(ctx, ex, m.id, *op, params);
  if (*op == model::Operation::kGetExtendedAgentCard && !extended_card_authorized(ctx, ex->request())) {
    ex->reply(unauthenticated_reply(f, m.id));
    return;
  }
  if (!ctx.core->may_block(*op, params)) return answer_call(ctx, *ex, m.id, *op, params);
  // A send that waits for its task waits on a worker, never on the I/O thread.
  auto job = [&ctx, ex, id = m.id, op = *op, params] { answer_call(ctx, *ex, id, op, params); };
  if (!ctx.offload(ex, std::move(job))) ex->reply(overloaded_reply());
}

}  // namespace a2a::agent
