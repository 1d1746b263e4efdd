// The JSON-RPC over HTTP+SSE binding (A2A spec §9, a2a-protocol.md §4.5):
// one POST of a JSON-RPC 2.0 request to the interface URL per operation with
// the 1.0 method name; a unary answer is one application/json response with
// our id, a stream is SSE whose every data is a JSON-RPC response with our id.
#include "runner/bindings/jsonrpc/jsonrpc_binding.hpp"

#include "runner/a2a/methods.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/error_expect.hpp"
#include "runner/match/match_result.hpp"

namespace a2a::bindings::jsonrpc_http {

using namespace http;
using engine::OpResult;
using engine::Session;

namespace {

bool same_id(const Json& j, const Json& id) { return j.contains("id") && match::strictly_equal(j["id"], id); }

void check_envelope(OpResult& r, const Json& j, const Json& id, const std::string& where) {
  if (!j.contains("jsonrpc") || j["jsonrpc"] != "2.0")
    add_violation(r, where + " lacks \"jsonrpc\": \"2.0\" (JSON-RPC 2.0 §5)");
  if (j.contains("result") && j.contains("error"))
    add_violation(r, where + " has both result and error (JSON-RPC 2.0 §5)");
  if (!same_id(j, id))
    add_violation(r, where + " has id " + match::compact(j.value("id", Json()), 60) + ", the request's is " +
                         match::compact(id));
}

// A whole body that must be one JSON-RPC response to request `id`.
void take_jsonrpc_body(OpResult& r, const std::string& body, const Json& id) {
  std::string why;
  Json j = jsonrpc::parse_json(body, &why).value_or(Json(Json::value_t::discarded));
  if (j.is_discarded() || !j.is_object() || (!j.contains("result") && !j.contains("error"))) {
    r.status = OpResult::Status::kNoResponse;
    r.problem = "HTTP " + std::to_string(r.http_status) + " body is not a JSON-RPC response" +
                (why.empty() ? "" : " (not JSON: " + why + ")") + ": " + core::escape_bytes(body, 200);
    return;
  }
  check_envelope(r, j, id, "the response");
  if (j.contains("error")) {
    r.status = OpResult::Status::kError;
    r.error = j["error"];
    r.error_status = r.http_status;
  } else {
    r.status = OpResult::Status::kResult;
    r.result = j["result"];
  }
}

void check_json_type(OpResult& r) {
  if (media_type(r.http_headers) != "application/json")
    add_violation(r, "a JSON-RPC response must be Content-Type application/json (A2A spec §9), got '" +
                         transport::find_header(r.http_headers, "Content-Type").value_or("") + "'");
}

// A stream: each SSE data a JSON-RPC response with our id.
void jsonrpc_stream(Session& s, const transport::Url& url, const transport::HttpRequest& req, const Json& id,
                    core::Deadline d, OpResult& r) {
  auto on_data = [&](const std::string& data) {
    std::string why;
    Json j = jsonrpc::parse_json(data, &why).value_or(Json(Json::value_t::discarded));
    if (j.is_discarded() || !j.is_object() || (!j.contains("result") && !j.contains("error"))) {
      add_violation(r, "SSE data is not a JSON-RPC response (a2a-protocol.md §4.5)" +
                           (why.empty() ? "" : " (not JSON: " + why + ")") + ": " + core::escape_bytes(data, 120));
      return;
    }
    check_envelope(r, j, id, "a stream event");
    if (j.contains("error")) r.stream_errors.push_back(j["error"]);
    else r.events.push_back(j["result"]);
  };
  std::string whole;
  bool collected = false;
  if (!stream_exchange(s, url, req, d, r, on_data, whole, collected)) return;
  if (collected) {
    check_json_type(r);
    take_jsonrpc_body(r, whole, id);
    if (r.status == OpResult::Status::kResult)
      add_violation(r, "a streaming call was answered with one application/json result, not an SSE stream");
    return;
  }
  r.status = OpResult::Status::kResult;
  if (r.events.empty() && !r.stream_errors.empty()) {
    // An error sent as the only SSE event (Go does this): the call failed.
    r.status = OpResult::Status::kError;
    r.error = r.stream_errors.front();
    r.stream_errors.erase(r.stream_errors.begin());
  }
}

}  // namespace

OpResult jsonrpc_exchange(Session& s, const std::string& method, const Json& params, bool streaming,
                          core::Deadline d) {
  OpResult r;
  r.binding = "jsonrpc";
  Json id = s.fresh_id();
  r.request_id = id;
  Json env = jsonrpc::make_request(id, method, params);
  auto url = engine::interface_url(s);
  auto req = make_request(s, "POST", url.target(), streaming, jsonrpc::dump(env));
  if (streaming) {
    jsonrpc_stream(s, url, req, id, d, r);
    return r;
  }
  auto resp = exchange(s, url, req, d, r);
  if (!resp) return r;
  check_json_type(r);
  take_jsonrpc_body(r, resp->body, id);
  if (resp->truncated) note_cut_body(r);
  return r;
}

namespace {

OpResult jsonrpc_call(Session& s, const std::string& operation, const Json& params, core::Deadline d) {
  if (operation == "get_agent_card") return fetch_card_operation(s, d);
  auto op = model::operation_from_acts(operation);
  if (!op) {
    OpResult r;
    r.binding = "jsonrpc";
    r.problem = "operation " + operation + " has no JSON-RPC method";
    return r;
  }
  return jsonrpc_exchange(s, std::string(model::method_name(*op, model::MethodNaming::kV1)),
                          engine::with_tenant(s, params), model::is_streaming(*op), d);
}

}  // namespace

}  // namespace a2a::bindings::jsonrpc_http

namespace a2a::bindings {

engine::OperationBinding jsonrpc_operation_binding() {
  engine::OperationBinding b;
  b.key = "jsonrpc";
  b.card_name = "JSONRPC";
  b.title = "JSON-RPC over HTTP+SSE";
  b.over_http = true;
  b.check_url = http::url_problem;
  b.call = jsonrpc_http::jsonrpc_call;
  return b;
}


}  // namespace a2a::bindings
