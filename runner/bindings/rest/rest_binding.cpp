// ACTS abstract operations over the HTTP+JSON/REST binding (A2A spec §11,
// a2a-protocol.md §4.4): verb, path, query and body from the shared route
// table; 2xx = the result, any other status = an error whose body must be a
// google.rpc.Status ({"error": {code, status, message, details}}, code = the
// HTTP status); streams are SSE of bare StreamResponses.
#include "runner/bindings/rest/rest_binding.hpp"
#include "runner/bindings/http/http_exchange.hpp"

#include <algorithm>

#include "runner/a2a/rest_routes.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/error_expect.hpp"
#include "runner/match/match_result.hpp"

namespace a2a::bindings {

namespace {

using namespace http;

bool is_2xx(int status) { return status >= 200 && status < 300; }

// google.rpc.Status shape of an error body's `error` member (§11.6).
void check_status_shape(OpResult& r, const Json& e, int http_status) {
  const std::string rule = " (google.rpc.Status, a2a-protocol.md §4.4, §6.4)";
  if (!e.contains("code") || !e["code"].is_number_integer())
    add_violation(r, "REST error.code must be an integer" + rule);
  else if (http_status != 0 && e["code"].get<int>() != http_status)
    add_violation(r, "REST error.code " + std::to_string(e["code"].get<int>()) + " differs from the HTTP status " +
                         std::to_string(http_status) + rule);
  if (!e.contains("status") || !e["status"].is_string())
    add_violation(r, "REST error.status must be a string (a gRPC status name such as NOT_FOUND)" + rule);
  if (!e.contains("message") || !e["message"].is_string())
    add_violation(r, "REST error.message must be a string" + rule);
  if (e.contains("details") && !e["details"].is_array())
    add_violation(r, "REST error.details must be an array of @type objects" + rule);
}

// A whole (non-streamed) REST answer.
void take_rest_body(OpResult& r, const std::string& body, const std::string& content_type) {
  if (is_2xx(r.http_status)) {
    r.status = OpResult::Status::kResult;
    if (body.empty()) return;  // e.g. DeleteTaskPushNotificationConfig: 204 / empty 200
    Json j = jsonrpc::parse_json_or_discarded(body);
    if (j.is_discarded()) {
      add_violation(r, "the HTTP " + std::to_string(r.http_status) + " body is not JSON: " +
                           core::escape_bytes(body, 120));
      r.result = body;
      return;
    }
    if (!is_json_type(content_type))
      add_violation(r, "a JSON body must be Content-Type application/json or application/a2a+json, got '" +
                           content_type + "'");
    r.result = std::move(j);
    return;
  }
  r.status = OpResult::Status::kError;
  r.error_status = r.http_status;
  Json j = jsonrpc::parse_json_or_discarded(body);
  if (j.is_discarded() || !j.is_object() || !j.contains("error") || !j["error"].is_object()) {
    r.error = Json::object();
    add_violation(r, "the HTTP " + std::to_string(r.http_status) +
                         " error body is not {\"error\": google.rpc.Status} (a2a-protocol.md §4.4): " +
                         core::escape_bytes(body, 160));
    return;
  }
  r.error = j["error"];
  check_status_shape(r, r.error, r.http_status);
}

// One SSE data of a REST stream: a StreamResponse, or {"error": ...}.
void take_event(OpResult& r, const std::string& data) {
  Json j = jsonrpc::parse_json_or_discarded(data);
  if (j.is_discarded() || !j.is_object()) {
    add_violation(r, "SSE data is not a JSON object (a2a-protocol.md §4.5): " + core::escape_bytes(data, 120));
    return;
  }
  if (j.size() == 1 && j.contains("error")) {
    if (j["error"].is_object()) check_status_shape(r, j["error"], 0);
    r.stream_errors.push_back(j["error"]);
    return;
  }
  r.events.push_back(std::move(j));
}

OpResult rest_call(Session& s, const std::string& operation, const Json& params, core::Deadline d) {
  if (operation == "get_agent_card") return fetch_card_operation(s, d);
  OpResult r;
  r.binding = "rest";
  auto op = model::operation_from_acts(operation);
  if (!op) {
    r.problem = "operation " + operation + " has no REST route";
    return r;
  }
  model::RestCall rc = model::rest_call(*op, engine::with_tenant(s, params));
  auto url = engine::interface_url(s).join(rc.target());
  std::optional<std::string> body;
  if (rc.body) body = jsonrpc::dump(*rc.body);
  bool streaming = model::is_streaming(*op);
  auto req = make_request(s, rc.method, url.target(), streaming, body);
  r.request_id = rc.method + " " + url.target();
  if (!streaming) {
    auto resp = exchange(s, url, req, d, r);
    if (resp) take_rest_body(r, resp->body, media_type(r.http_headers));
    if (resp && resp->truncated) note_cut_body(r);
    return r;
  }
  std::string whole;
  bool collected = false;
  if (!stream_exchange(s, url, req, d, r, [&](const std::string& data) { take_event(r, data); }, whole, collected))
    return r;
  if (collected) {
    take_rest_body(r, whole, media_type(r.http_headers));
    if (r.status == OpResult::Status::kResult)
      add_violation(r, "a streaming call was answered with one JSON body, not an SSE stream");
    return r;
  }
  if (r.events.empty() && !r.stream_errors.empty()) {
    r.status = OpResult::Status::kError;
    r.error = r.stream_errors.front();
    r.stream_errors.erase(r.stream_errors.begin());
    if (r.error.is_object() && r.error.contains("code") && r.error["code"].is_number_integer())
      r.error_status = r.error["code"].get<int>();
    return r;
  }
  r.status = OpResult::Status::kResult;
  return r;
}

}  // namespace

engine::OperationBinding rest_operation_binding() {
  engine::OperationBinding b;
  b.key = "rest";
  b.card_name = "HTTP+JSON";
  b.title = "HTTP+JSON/REST";
  b.over_http = true;
  b.check_url = http::url_problem;
  b.call = rest_call;
  b.match_error = [](const engine::OpResult& r, const nlohmann::json& expect_error) {
    return match::match_rest_error(r.error, r.error_status, expect_error);
  };
  return b;
}

}  // namespace a2a::bindings
