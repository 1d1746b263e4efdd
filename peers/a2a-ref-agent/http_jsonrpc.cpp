// JSON-RPC 2.0 over HTTP (spec §9, a2a-protocol.md §4.2): POST to the
// interface URL, application/json both ways, errors as JSON-RPC error objects
// with HTTP 200 (415 and 413 are HTTP-level refusals with a JSON-RPC body),
// notifications answered 204, streams as SSE whose data are JSON-RPC responses.
#include "peers/a2a-ref-agent/http_binding.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {
namespace {

// The id as the id faults write it (exact echo without faults).
Json out_id(const Faults& f, const Json& id) {
  if (f.has(Fault::kIdNullResponse)) return nullptr;
  if (f.has(Fault::kIdAsString) && id.is_number()) return id.dump();
  return id;
}

std::string content_type(const Faults& f) {
  return f.has(Fault::kHttpJsonrpcContentType) ? "text/plain" : "application/json";
}

}  // namespace

Json rpc_error_object(const Faults& f, const CallError& e) {
  Json err = e.to_json();
  apply_error_faults(f, err);
  return err;
}

Json rpc_error_response(const Faults& f, const Json& id, Json error_object) {
  return Json{{"jsonrpc", "2.0"}, {"id", out_id(f, id)}, {"error", std::move(error_object)}};
}

// jsonrpc::dump(jsonrpc::make_result(out_id(f, id), result)) without copying
// `result` into a new document; members in the same (sorted) order.
std::string rpc_result_text(const Faults& f, const Json& id, const Json& result) {
  return rpc_result_raw(f, id, jsonrpc::dump(result));
}

std::string rpc_result_raw(const Faults& f, const Json& id, std::string_view result_text) {
  std::string id_text = jsonrpc::dump(out_id(f, id));
  std::string out;
  out.reserve(result_text.size() + id_text.size() + 32);
  out.append("{\"id\":").append(id_text).append(",\"jsonrpc\":\"2.0\",\"result\":").append(result_text).append("}");
  return out;
}

ServerReply rpc_text_reply(const Faults& f, std::string body, std::string_view version) {
  ServerReply out = json_reply(200, nullptr, content_type(f));
  out.body = std::move(body);
  for (auto& [name, value] : out.headers) {
    if (name == "A2A-Version") value = std::string(version);
  }
  return out;
}

void rpc_reply(HttpExchange& ex, const Faults& f, int status, const Json& body, std::string_view version) {
  ServerReply out = rpc_text_reply(f, jsonrpc::dump(body), version);
  out.status = status;
  ex.reply(std::move(out));
}

CallError unauthenticated_error() {
  return CallError{kUnauthenticatedCode,
                   "Unauthenticated: GetExtendedAgentCard requires 'Authorization: Bearer <token>' (spec §13.3)",
                   nullptr};
}

ServerReply unauthenticated_reply(const Faults& f, const Json& id) {
  CallError e = unauthenticated_error();
  ServerReply r = json_reply(401, rpc_error_response(f, id, rpc_error_object(f, e)));
  r.headers.emplace_back("WWW-Authenticate", std::string(kBearerChallenge));
  return r;
}

namespace {

Json error_response(const Faults& f, const Json& id, const CallError& e) {
  return rpc_error_response(f, id, rpc_error_object(f, e));
}

void reply(HttpExchange& ex, const Faults& f, int status, const Json& body) { rpc_reply(ex, f, status, body); }

CallError invalid_request(std::string message) { return CallError{jsonrpc::kInvalidRequest, std::move(message), nullptr}; }

// HTTP-level refusals before the body is read as JSON-RPC; true when `ex` was answered.
bool refused(const HttpContext& ctx, HttpExchange& ex) {
  const ServerRequest& req = ex.request();
  const Faults& f = ctx.faults;
  if (req.query().size() > kMaxQuery) {
    reply(ex, f, 414, error_response(f, nullptr, invalid_request("Request-URI too long: the query string is above " +
                                                                  std::to_string(kMaxQuery) + " bytes")));
    return true;
  }
  if (req.body.size() > kMaxBody && !f.has(Fault::kHttpNoBodyLimit)) {
    reply(ex, f, 413, error_response(f, nullptr, invalid_request("Request body of " + std::to_string(req.body.size()) +
                                                                  " bytes is above the limit of " +
                                                                  std::to_string(kMaxBody) + " bytes")));
    return true;
  }
  std::string ct = media_type(req.header("Content-Type").value_or(""));
  if (ct != "application/json") {
    std::string got = ct.empty() ? "no Content-Type" : "Content-Type '" + ct + "'";
    reply(ex, f, 415, error_response(f, nullptr, invalid_request("Unsupported media type: " + got +
                                                                  "; JSON-RPC requests use application/json")));
    return true;
  }
  return false;
}

// Answers a body classify_incoming rejected (parse error, batch, bad envelope).
void answer_rejected(HttpExchange& ex, const Faults& f, Json answer) {
  int code = answer["error"].value("code", 0);
  if (code == jsonrpc::kParseError && f.has(Fault::kErrParseAsInvalidRequest)) {
    answer["error"]["code"] = jsonrpc::kInvalidRequest;
  }
  // err-batch-partial over HTTP: a batch is misread as one request with bad params.
  std::string_view body = ex.request().body;
  while (!body.empty() && (body.front() == ' ' || body.front() == '\n' || body.front() == '\r' || body.front() == '\t'))
    body.remove_prefix(1);
  if (f.has(Fault::kErrBatchPartial) && body.starts_with("[")) {
    answer["error"]["code"] = jsonrpc::kInvalidParams;
  }
  answer["id"] = out_id(f, answer.value("id", Json(nullptr)));
  reply(ex, f, 200, answer);
}

void serve_stream(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex, const Json& id,
                  model::Operation op, const Json& params) {
  const Faults& f = ctx.faults;
  StreamOpen opened = ctx.core->open_stream(op, params);
  if (!opened.stream) {
    // Refused before the first event: a plain JSON-RPC error response, no SSE.
    reply(*ex, f, 200, error_response(f, id, opened.error.value_or(internal_error("stream refused"))));
    return;
  }
  SseFormat format;
  format.event = [&f, id](const Json& event) { return rpc_result_text(f, id, event); };
  format.event_text = [&f, id](std::string_view event) { return rpc_result_raw(f, id, event); };
  format.error = [&f, id](const CallError& e) { return error_response(f, id, e); };
  pump_stream(ctx, ex, std::move(opened.stream), format);
}

// `params` are this call's own (moved from the parsed request).
void answer_call(const HttpContext& ctx, HttpExchange& ex, const Json& id, model::Operation op, Json params) {
  const Faults& f = ctx.faults;
  AgentCore::CallText r = ctx.core->call_text(op, std::move(params));
  if (r.error) return reply(ex, f, 200, error_response(f, id, *r.error));
  ex.reply(rpc_text_reply(f, rpc_result_raw(f, id, r.text)));
}

}  // namespace

void handle_jsonrpc(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex) {
  const Faults& f = ctx.faults;
  if (refused(ctx, *ex)) return;
  std::string_view body = ex->request().body;
  std::string rewritten;
  if (f.has(Fault::kHttpJsonrpcAnyVersionMember)) {
    Json j = jsonrpc::parse_json_or_discarded(body);
    if (j.is_object() && j.contains("jsonrpc") && j["jsonrpc"] != "2.0") {
      j["jsonrpc"] = "2.0";
      rewritten = j.dump();
      body = rewritten;
    }
  }
  jsonrpc::Incoming in = jsonrpc::classify_incoming(body, jsonrpc::Strictness::kStrict);
  if (!in.message) {
    if (in.reply) {
      answer_rejected(*ex, f, *in.reply);
    } else {
      ex->reply(ServerReply{204, {{"A2A-Version", std::string(kServedVersion)}}, "", false});
    }
    return;
  }
  jsonrpc::Message& m = *in.message;
  if (m.kind != jsonrpc::Kind::kRequest) {
    // J8: a notification is never answered (HTTP still needs a response: 204, no body).
    if (m.kind == jsonrpc::Kind::kNotification && f.has(Fault::kErrReplyToNotification)) {
      reply(*ex, f, 200, error_response(f, nullptr, invalid_request("Invalid Request: notification")));
      return;
    }
    ex->reply(ServerReply{204, {{"A2A-Version", std::string(kServedVersion)}}, "", false});
    return;
  }
  if (ctx.serve_v03 && requests_v03(ex->request())) {
    handle_jsonrpc_v03(ctx, ex, m);
    return;
  }
  if (auto e = check_version(ex->request(), f, ctx.serve_v03)) {
    reply(*ex, f, 200, error_response(f, m.id, *e));
    return;
  }
  auto op = model::operation_from_method(m.method, model::MethodNaming::kV1);
  if (!op) {
    int code = f.has(Fault::kErrMethodNotFoundCode) ? jsonrpc::kInvalidRequest : jsonrpc::kMethodNotFound;
    reply(*ex, f, 200,
          error_response(f, m.id, CallError{code, "Method not found: '" + m.method + "' is not an A2A 1.0 method",
                                            nullptr}));
    return;
  }
  if (model::is_streaming(*op)) {
    serve_stream(ctx, ex, m.id, *op, m.params);
    return;
  }
  if (*op == model::Operation::kGetExtendedAgentCard && !extended_card_authorized(ctx, ex->request())) {
    // 401 with a challenge; the body is still a JSON-RPC response (§10 C13).
    ex->reply(unauthenticated_reply(f, m.id));
    return;
  }
  if (!ctx.core->may_block(*op, m.params)) {
    answer_call(ctx, *ex, m.id, *op, std::move(m.params));
    return;
  }
  // A send that waits for its task waits on a worker, never on the I/O thread.
  auto job = [&ctx, ex, id = m.id, op = *op, params = std::move(m.params)]() mutable {
    answer_call(ctx, *ex, id, op, std::move(params));
  };
  if (!ctx.offload(ex, std::move(job))) ex->reply(overloaded_reply());
}

}  // namespace a2a::agent
