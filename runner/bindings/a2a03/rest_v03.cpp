// ACTS abstract operations on an A2A 0.3 HTTP+JSON/REST interface (binding key
// rest@0.3; docs/a2a-0.3.md "Runner", a2a-protocol.md §9.2): the 1.0 params go
// out as ProtoJSON of the 0.3 proto on the /v1 routes (runner/a2a/v03_rest.hpp),
// without A2A-Version; answers come back translated to 1.0 so the 1.0
// assertions apply, every translation note a violation. 0.3 REST errors were
// never standardized: the A2A code is the body's `code` when it has one, else
// the HTTP status's (v03_rest.hpp rest_error_v03). The result's binding is
// "rest@0.3", so expected errors are matched by A2A code, as on JSON-RPC.
#include "runner/a2a/v03.hpp"
#include "runner/a2a/v03_rest.hpp"
#include "runner/core/escape.hpp"
#include "runner/bindings/a2a03/a2a03_bindings.hpp"
#include "runner/bindings/http/http_exchange.hpp"
#include "runner/transport/transcript.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/error_expect.hpp"

namespace a2a::bindings {

namespace {

using namespace http;

bool is_2xx(int status) { return status >= 200 && status < 300; }

const std::string kRule = " (A2A 0.3 REST, a2a-protocol.md §9.2)";

// The keys of a 0.3 ProtoJSON StreamResponse.
bool is_stream_item(const Json& j) {
  return j.is_object() &&
         (j.contains("task") || j.contains("message") || j.contains("statusUpdate") || j.contains("artifactUpdate"));
}

void take_error(OpResult& r, int http_status, const std::string& body) {
  r.status = OpResult::Status::kError;
  r.error_status = http_status;
  Json j = jsonrpc::parse_json_or_discarded(body);
  r.error = model::v03::rest_error_v03(http_status, j.is_discarded() ? Json() : j, core::escape_bytes(body, 200));
  auto t = model::v03::error_to_v1(r.error);
  v03_notes(r, t.notes, "error");
  r.error = std::move(t.json);
}

void take_body(OpResult& r, model::Operation op, const std::string& body, const std::string& content_type) {
  if (!is_2xx(r.http_status)) {
    take_error(r, r.http_status, body);
    return;
  }
  r.status = OpResult::Status::kResult;
  if (body.empty()) {  // DeleteTaskPushNotificationConfig: 204
    r.result = nullptr;
    return;
  }
  Json j = jsonrpc::parse_json_or_discarded(body);
  if (j.is_discarded()) {
    add_violation(r, "the HTTP " + std::to_string(r.http_status) + " body is not JSON" + kRule + ": " +
                         core::escape_bytes(body, 120));
    r.result = body;
    return;
  }
  if (!is_json_type(content_type))
    add_violation(r, "a JSON body must be Content-Type application/json, got '" + content_type + "'" + kRule);
  auto t = model::v03::result_to_v1(op, j, model::v03::Dialect::kProtoJson);
  v03_notes(r, t.notes, "REST result");
  r.result = std::move(t.json);
}

OpResult rest_v03_call(Session& s, const std::string& operation, const Json& params, core::Deadline d) {
  if (operation == "get_agent_card") return fetch_card_operation(s, d);
  OpResult r;
  r.binding = "rest@0.3";
  auto op = model::operation_from_acts(operation);
  if (!op) {
    r.problem = "operation " + operation + " has no A2A 0.3 REST route";
    return r;
  }
  if (*op == model::Operation::kListTasks) {
    r.problem = "ListTasks has no A2A 0.3 REST route (a2a-protocol.md §9.1 \"Task list\")";
    return r;
  }
  auto rc = model::v03::rest_call_v03(*op, params);
  if (!rc.notes.empty() && s.transcript) {
    std::string all;
    for (const auto& n : rc.notes) all += (all.empty() ? "" : "; ") + n;
    s.transcript->note("the request's 1.0 params do not fit A2A 0.3 REST exactly: " + all);
  }
  // The interface URL is the base the /v1 routes hang off (the JS SDK's card
  // lists the bare origin); a trailing '/' is not doubled.
  auto base = engine::interface_url(s);
  std::string prefix = base.path;
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  auto url = base;
  url.path = prefix + rc.call.path;
  url.query.clear();
  if (auto full = rc.call.target(); full.find('?') != std::string::npos) url.query = full.substr(full.find('?') + 1);
  std::string target = prefix + rc.call.target();
  std::optional<std::string> body;
  if (rc.call.body) body = jsonrpc::dump(*rc.call.body);
  bool streaming = model::is_streaming(*op);
  auto req = make_request(s, rc.call.method, target, streaming, body);
  r.request_id = rc.call.method + " " + target;
  if (!streaming) {
    auto resp = exchange(s, url, req, d, r);
    if (!resp) return r;
    take_body(r, *op, resp->body, media_type(r.http_headers));
    if (resp->truncated) note_cut_body(r);
    return r;
  }
  std::string whole;
  bool collected = false;
  std::vector<bool> is_status, finals;
  auto on_data = [&](const std::string& data) {
    Json j = jsonrpc::parse_json_or_discarded(data);
    if (j.is_discarded() || !j.is_object()) {
      add_violation(r, "SSE data is not a JSON object" + kRule + ": " + core::escape_bytes(data, 120));
      return;
    }
    if (!is_stream_item(j) && (j.contains("code") || j.contains("error"))) {
      auto e = model::v03::rest_error_v03(0, j, core::escape_bytes(data, 200));
      auto t = model::v03::error_to_v1(e);
      v03_notes(r, t.notes, "stream error");
      r.stream_errors.push_back(std::move(t.json));
      return;
    }
    is_status.push_back(j.contains("statusUpdate"));
    auto t = model::v03::event_to_v1(j, model::v03::Dialect::kProtoJson);
    v03_notes(r, t.notes, "stream event");
    finals.push_back(t.final);
    r.events.push_back(std::move(t.json));
  };
  if (!stream_exchange(s, url, req, d, r, on_data, whole, collected)) return r;
  if (collected) {
    take_body(r, *op, whole, media_type(r.http_headers));
    if (r.status == OpResult::Status::kResult)
      add_violation(r, "a streaming call was answered with one JSON body, not an SSE stream" + kRule);
    return r;
  }
  a2a03::check_final(r, is_status, finals);
  if (r.events.empty() && !r.stream_errors.empty()) {
    r.status = OpResult::Status::kError;
    r.error = r.stream_errors.front();
    r.stream_errors.erase(r.stream_errors.begin());
    return r;
  }
  r.status = OpResult::Status::kResult;
  return r;
}

}  // namespace

engine::OperationBinding rest_v03_operation_binding() {
  engine::OperationBinding b;
  b.key = "rest@0.3";
  b.card_name = "HTTP+JSON";
  b.protocol_version = "0.3";
  b.title = "HTTP+JSON/REST (A2A 0.3)";
  b.over_http = true;
  b.check_url = http::url_problem;
  b.call = rest_v03_call;
  // 0.3 REST errors were never standardized: the answer is translated to an
  // A2A code, matched as on JSON-RPC (the default match_error).
  return b;
}

}  // namespace a2a::bindings
