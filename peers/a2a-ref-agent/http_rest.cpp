// The HTTP+JSON/REST binding (spec §11, a2a-protocol.md §4.4): routes from
// runner/a2a/rest_routes, path parameters over body/query copies, 200 with
// the response message (Delete: 204), google.rpc.Status errors, SSE streams
// of bare StreamResponses. Checks run cheapest and most general first:
// path safety, sizes, route, tenant, version, media type, body, query.
// Served on the I/O thread like JSON-RPC: only a send that may block, and
// a stream that waits for events, go to a worker (ctx.offload).
#include "peers/a2a-ref-agent/http_binding.hpp"
#include "runner/a2a/rest_routes.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/transport/url.hpp"

namespace a2a::agent {
namespace {

using model::Operation;

struct RestRequest {
  const HttpContext& ctx;
  const std::shared_ptr<HttpExchange>& ex;
  bool a2a_json = false;  // answer application/a2a+json

  void fail(int http, std::string_view status, const std::string& message, HeaderList extra = {}) const {
    ServerReply r = rest_status_reply(http, status, message, ctx.faults, a2a_json);
    for (auto& h : extra) r.headers.push_back(std::move(h));
    ex->reply(std::move(r));
  }
  void fail(const CallError& e) const { ex->reply(rest_error_reply(e, ctx.faults, a2a_json)); }
};

bool names_a2a_json(const ServerRequest& req) {
  if (media_type(req.header("Content-Type").value_or("")) == "application/a2a+json") return true;
  return req.header("Accept").value_or("").find("application/a2a+json") != std::string::npos;
}

// A "." or ".." segment, also percent-encoded ("%2e%2E", ".%2e"): resolvers
// would climb the path with it, so it is never an id.
std::optional<std::string> dot_segment(std::string_view path) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    std::string_view seg = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    std::string decoded = transport::percent_decode(seg);
    if (decoded == "." || decoded == "..") return std::string(seg);
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return std::nullopt;
}

// The route, or the request was answered (404 / 405).
std::optional<model::RestRoute> route(const RestRequest& rr) {
  const ServerRequest& req = rr.ex->request();
  auto m = model::match_rest_route(req.method, req.path());
  if (auto* r = std::get_if<model::RestRoute>(&m)) return std::move(*r);
  auto& err = std::get<model::RestRouteError>(m);
  if (err.status == 405 && rr.ctx.faults.has(Fault::kHttpRestWrongVerbOk)) {
    // The fault: serve the route as if the first allowed verb had been used.
    auto again = model::match_rest_route(err.allow.substr(0, err.allow.find(',')), req.path());
    if (auto* r = std::get_if<model::RestRoute>(&again)) return std::move(*r);
  }
  if (err.status == 405) {
    rr.fail(405, "UNIMPLEMENTED", err.message, {{"Allow", err.allow}});
  } else {
    rr.fail(404, "NOT_FOUND", err.message);
  }
  return std::nullopt;
}

// The params a POST body or a GET/DELETE query carries, or the request was answered.
std::optional<Json> request_params(const RestRequest& rr, Operation op) {
  const ServerRequest& req = rr.ex->request();
  if (req.method != "POST") {
    auto q = model::parse_rest_query(op, req.query());
    if (auto* err = std::get_if<std::string>(&q)) {
      rr.fail(invalid_params("query", *err));
      return std::nullopt;
    }
    return std::get<Json>(std::move(q));
  }
  if (req.body.empty()) return Json::object();  // e.g. POST :subscribe / :cancel without a body
  std::string ct = media_type(req.header("Content-Type").value_or(""));
  if (ct != "application/json" && ct != "application/a2a+json") {
    std::string got = ct.empty() ? "no Content-Type" : "Content-Type '" + ct + "'";
    rr.fail(415, "INVALID_ARGUMENT",
            "Unsupported media type: " + got + "; REST bodies are application/json or application/a2a+json");
    return std::nullopt;
  }
  Json body = jsonrpc::parse_json_or_discarded(req.body);
  if (body.is_discarded()) {
    rr.fail(CallError{jsonrpc::kParseError, "Invalid JSON body: the request body does not parse as JSON", nullptr});
    return std::nullopt;
  }
  if (!body.is_object()) {
    rr.fail(invalid_params("body", "must be a JSON object (the request message)"));
    return std::nullopt;
  }
  return body;
}

// A unary operation's answer (from the I/O thread, or from a worker for a
// send that may block: `ex` and the flag are held by value for that).
// `params` are this call's own: call_text may move the message out of them.
void answer_rest_call(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex, bool a2a_json, Operation op,
                 Json params) {
  std::string content_type = a2a_json ? "application/a2a+json" : "application/json";
  if (!ctx.faults.any()) {
    // The result as text (AgentCore::call_text): the same bytes, no tree for a send's task.
    AgentCore::CallText t = ctx.core->call_text(op, std::move(params));
    if (t.error) {
      ex->reply(rest_error_reply(*t.error, ctx.faults, a2a_json));
    } else if (op == Operation::kDeletePushConfig) {
      ex->reply(ServerReply{204, {{"A2A-Version", std::string(kServedVersion)}}, "", false});
    } else {
      ServerReply out = json_reply(200, nullptr, std::move(content_type));
      out.body = std::move(t.text);
      ex->reply(std::move(out));
    }
    return;
  }
  CallResult r = ctx.core->call(op, params);
  if (!r.ok()) {
    ex->reply(rest_error_reply(r.error(), ctx.faults, a2a_json));
  } else if (op == Operation::kDeletePushConfig) {
    ex->reply(ServerReply{204, {{"A2A-Version", std::string(kServedVersion)}}, "", false});
  } else {
    const Json* value = &r.value();
    if (op == Operation::kSendMessage && ctx.faults.has(Fault::kHttpRestUnwrappedSend) && value->is_object() &&
        value->size() == 1)
      value = &value->begin().value();
    ex->reply(json_reply(200, *value, std::move(content_type)));
  }
}

void serve(const RestRequest& rr, Operation op, Json params) {
  const HttpContext& ctx = rr.ctx;
  if (model::is_streaming(op)) {
    StreamOpen opened = ctx.core->open_stream(op, params);
    if (!opened.stream) {
      rr.fail(opened.error.value_or(internal_error("stream refused")));
      return;
    }
    SseFormat format;
    format.event = [](const Json& event) { return jsonrpc::dump(event); };
    format.event_text = [](std::string_view event) { return std::string(event); };
    // By value: the rest of the stream is pumped on a worker after `rr` is gone.
    format.error = [faults = ctx.faults](const CallError& e) {
      return Json::parse(rest_error_reply(e, faults, false).body);
    };
    pump_stream(ctx, rr.ex, std::move(opened.stream), format);
    return;
  }
  if (op == Operation::kGetExtendedAgentCard && !extended_card_authorized(ctx, rr.ex->request())) {
    ServerReply reply = rest_status_reply(401, "UNAUTHENTICATED",
                                          "GetExtendedAgentCard requires 'Authorization: Bearer <token>' (spec §13.3)",
                                          ctx.faults, rr.a2a_json);
    reply.headers.emplace_back("WWW-Authenticate", std::string(kBearerChallenge));
    rr.ex->reply(std::move(reply));
    return;
  }
  if (!ctx.core->may_block(op, params)) {
    answer_rest_call(ctx, rr.ex, rr.a2a_json, op, std::move(params));
    return;
  }
  // A send that waits for its task waits on a worker, never on the I/O thread.
  auto job = [&ctx, ex = rr.ex, a2a_json = rr.a2a_json, op, params = std::move(params)]() mutable {
    answer_rest_call(ctx, ex, a2a_json, op, std::move(params));
  };
  if (!ctx.offload(rr.ex, std::move(job))) rr.ex->reply(overloaded_reply());
}

// Size and path checks before routing; true when the request was answered.
bool refused(const RestRequest& rr) {
  const ServerRequest& req = rr.ex->request();
  const Faults& f = rr.ctx.faults;
  if (!f.has(Fault::kHttpNoPathProtection)) {
    if (auto seg = dot_segment(req.path())) {
      rr.fail(400, "INVALID_ARGUMENT", "Invalid path: the segment '" + *seg + "' is not allowed");
      return true;
    }
  }
  if (req.query().size() > kMaxQuery && !rr.ctx.faults.has(Fault::kHttpNoQueryLimit)) {
    rr.fail(414, "INVALID_ARGUMENT", "Request-URI too long: the query string is above " + std::to_string(kMaxQuery) +
                                         " bytes");
    return true;
  }
  if (req.body.size() > kMaxBody && !f.has(Fault::kHttpNoBodyLimit)) {
    rr.fail(413, "INVALID_ARGUMENT", "Request body of " + std::to_string(req.body.size()) +
                                         " bytes is above the limit of " + std::to_string(kMaxBody) + " bytes");
    return true;
  }
  return false;
}

}  // namespace

void handle_rest(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex) {
  RestRequest rr{ctx, ex, names_a2a_json(ex->request())};
  if (refused(rr)) return;
  auto r = route(rr);
  if (!r) return;
  if (r->path_params.contains("tenant")) {
    std::string tenant = r->path_params["tenant"].get<std::string>();
    if (ctx.tenant.empty() || tenant != ctx.tenant) {
      rr.fail(404, "NOT_FOUND", "Not found: '" + tenant + "' is not a tenant of this agent");
      return;
    }
  }
  if (auto e = check_version(ex->request(), ctx.faults)) {
    rr.fail(*e);
    return;
  }
  auto params = request_params(rr, r->op);
  if (!params) return;
  // Path parameters override any copy in the body or query.
  for (auto it = r->path_params.begin(); it != r->path_params.end(); ++it) (*params)[it.key()] = it.value();
  serve(rr, r->op, std::move(*params));
}

}  // namespace a2a::agent
