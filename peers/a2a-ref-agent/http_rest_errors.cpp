// REST error bodies (spec §11.6, a2a-protocol.md §6.1/§6.4): the A2A error
// table of v1.0.1 maps each JSON-RPC code to an HTTP status and a gRPC status
// name; every A2A error carries a google.rpc.ErrorInfo detail (its reason is
// what tells the 400s apart), validation errors keep their BadRequest detail.
#include "peers/a2a-ref-agent/http_binding.hpp"
#include "runner/jsonrpc/errors.hpp"

namespace a2a::agent {
namespace {

struct HttpStatus {
  int http;
  std::string_view status;
};

HttpStatus status_of(int code) {
  if (auto row = jsonrpc::row_by_code(code)) return {row->http_status, row->grpc_status};
  switch (code) {
    case jsonrpc::kInvalidParams:
    case jsonrpc::kInvalidRequest:
    case jsonrpc::kParseError: return {400, "INVALID_ARGUMENT"};
    case jsonrpc::kMethodNotFound: return {404, "NOT_FOUND"};
    default: return {500, "INTERNAL"};
  }
}

bool is_error_info(const Json& detail) {
  return detail.is_object() && detail.value("@type", "") == jsonrpc::kErrorInfoType;
}

// The details array: the core's data, with an ErrorInfo guaranteed for A2A
// errors (or removed by http-rest-no-errorinfo).
Json details_of(const CallError& e, const Faults& faults) {
  Json details = e.data.is_array() ? e.data : Json::array();
  auto row = jsonrpc::row_by_code(e.code);
  if (row && std::none_of(details.begin(), details.end(), is_error_info)) {
    details.push_back(Json{{"@type", jsonrpc::kErrorInfoType},
                           {"reason", std::string(row->reason)},
                           {"domain", std::string(jsonrpc::kErrorDomain)}});
  }
  if (faults.has(Fault::kHttpRestNoErrorInfo)) {
    Json kept = Json::array();
    for (const auto& d : details) {
      if (!is_error_info(d)) kept.push_back(d);
    }
    details = std::move(kept);
  }
  return details;
}

ServerReply status_reply(int http, std::string_view status, const std::string& message, Json details,
                         const Faults& faults, bool a2a_json) {
  if (faults.has(Fault::kHttpRestProblemJson)) {
    // RFC 9457 shape, as the spec's leftover examples show (the fault).
    Json problem = {{"type", "about:blank"}, {"title", std::string(status)}, {"status", http}, {"detail", message}};
    return json_reply(http, problem, "application/problem+json");
  }
  Json body = {{"error", {{"code", http}, {"status", std::string(status)}, {"message", message}, {"details", details}}}};
  return json_reply(http, body, a2a_json ? "application/a2a+json" : "application/json");
}

}  // namespace

ServerReply rest_error_reply(const CallError& e, const Faults& faults, bool a2a_json) {
  HttpStatus s = status_of(e.code);
  ServerReply r = status_reply(s.http, s.status, e.message, details_of(e, faults), faults, a2a_json);
  if (faults.has(Fault::kHttpRestErrorStatus200) && jsonrpc::row_by_code(e.code)) r.status = 200;
  return r;
}

ServerReply rest_status_reply(int http, std::string_view status, const std::string& message, const Faults& faults,
                              bool a2a_json) {
  return status_reply(http, status, message, Json::array(), faults, a2a_json);
}

}  // namespace a2a::agent
