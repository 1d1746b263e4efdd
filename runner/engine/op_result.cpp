#include "runner/engine/op_result.hpp"

#include <algorithm>
#include <string_view>

#include "runner/a2a/model.hpp"
#include "runner/jsonrpc/errors.hpp"
#include "runner/transport/ws_codec.hpp"

namespace a2a::engine {

std::optional<long long> a2a_error_code(const OpResult& r) {
  if (!r.error.is_object()) return std::nullopt;
  if (r.binding == "rest" || r.binding == "grpc") {
    auto it = r.error.find("details");
    if (it == r.error.end() || !it->is_array()) return std::nullopt;
    for (const auto& d : *it) {
      if (!d.is_object() || !d.contains("reason") || !d["reason"].is_string()) continue;
      if (auto row = jsonrpc::row_by_reason(d["reason"].get<std::string>())) return row->jsonrpc_code;
    }
    return std::nullopt;
  }
  if (r.error.contains("code") && r.error["code"].is_number_integer()) return r.error["code"].get<long long>();
  return std::nullopt;
}

namespace {

// An ErrorInfo of A2A's own domain among google.rpc details: an A2A error
// (spec §10.6, §11.6), whatever status carries it.
bool names_a2a_error(const nlohmann::json& details) {
  if (!details.is_array()) return false;
  for (const auto& d : details)
    if (d.is_object() && d.contains("domain") && d["domain"].is_string() &&
        d["domain"].get<std::string>() == jsonrpc::kErrorDomain)
      return true;
  return false;
}

bool is_jsonrpc_family(const std::string& binding) {
  return binding.rfind("jsonrpc", 0) == 0 || binding == "websocket" || binding == "stdio";
}

// JSON-RPC 2.0 §5.1: code an integer, message a string.
bool jsonrpc_error_object(const nlohmann::json& e) {
  return e.is_object() && e.contains("code") && e["code"].is_number_integer() && e.contains("message") &&
         e["message"].is_string();
}

// Codes that say something else than "busy": the request errors of JSON-RPC
// 2.0 §5.1 and the range A2A takes for its own errors (spec §9.5).
bool jsonrpc_code_means_other(long long code) {
  return code == -32700 || code == -32600 || code == -32601 || code == -32602 || (code >= -32099 && code <= -32001);
}

std::string jsonrpc_shed(const OpResult& r) {
  if (!jsonrpc_error_object(r.error)) return "";
  long long code = r.error["code"].get<long long>();
  bool over_http = r.binding.rfind("jsonrpc", 0) == 0;
  if (over_http && (r.http_status == 503 || r.http_status == 429) && !jsonrpc_code_means_other(code))
    return "HTTP " + std::to_string(r.http_status);
  return code == -32000 ? "JSON-RPC -32000" : "";
}

std::string status_shed(const OpResult& r) {
  if (!r.error.is_object() || (r.error.contains("details") && names_a2a_error(r.error["details"]))) return "";
  if (r.binding == "grpc") {
    if (r.error_status == 8) return "gRPC RESOURCE_EXHAUSTED";
    if (r.error_status == 14) return "gRPC UNAVAILABLE";
    return "";
  }
  // REST: the HTTP status and a google.rpc.Status body that agrees with it.
  if ((r.http_status == 503 || r.http_status == 429) && r.error_status == r.http_status)
    return "HTTP " + std::to_string(r.http_status);
  return "";
}

bool terminal_event(const nlohmann::json& e) {
  if (!e.is_object()) return false;
  for (const char* member : {"task", "statusUpdate"}) {
    auto it = e.find(member);
    if (it == e.end() || !it->is_object()) continue;
    auto status = it->find("status");
    if (status == it->end() || !status->is_object() || !status->contains("state")) return false;
    auto st = model::task_state_from_json((*status)["state"]);
    return st && model::is_terminal(*st);
  }
  return false;
}

}  // namespace

std::string shed_signal(const OpResult& r) {
  if (!r.violations.empty()) return "";
  if (r.status == OpResult::Status::kNoResponse) {
    if (r.binding == "websocket" && r.close_code == 1013) return "WebSocket close 1013";
    // gRPC UNAVAILABLE is read as no answer unless the agent sent it on a
    // connection that stays up (grpc_binding.cpp fills error then).
    if (r.binding == "grpc" && r.error_status == 14) return status_shed(r);
    return "";
  }
  if (r.status != OpResult::Status::kError) return "";
  if (is_jsonrpc_family(r.binding)) return jsonrpc_shed(r);
  return status_shed(r);
}

std::string run_shed_signal(const OpResult& r) {
  std::string sig = shed_signal(r);
  if (sig == "HTTP 503" || sig == "HTTP 429" || sig == "gRPC UNAVAILABLE" || sig == "WebSocket close 1013") return sig;
  return "";
}

long long shed_retry_wait_ms(int retry, const OpResult& r) {
  constexpr long long kCapMs = 2000;
  if (auto v = transport::find_header(r.http_headers, "retry-after")) {
    std::string_view t = transport::ws::trim(*v);  // OWS, RFC 9110 §5.6.3
    if (!t.empty() && t.size() <= 10 && t.find_first_not_of("0123456789") == std::string_view::npos) {
      long long secs = std::stoll(std::string(t));
      return std::min(secs * 1000, kCapMs);
    }
  }
  return retry <= 1 ? 100 : 400;
}

void check_stream_closes_at_terminal(OpResult& r) {
  for (size_t i = 0; i + 1 < r.events.size(); ++i)
    if (terminal_event(r.events[i])) {
      r.violations.push_back("stream event " + std::to_string(i + 1) + " follows the terminal event " +
                             std::to_string(i) +
                             " (spec §3.1.2: the stream MUST close when the task reaches a terminal state)");
      return;
    }
}

}  // namespace a2a::engine
