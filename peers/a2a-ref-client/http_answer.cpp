#include "peers/a2a-ref-client/http_answer.hpp"

#include "peers/a2a-ref-client/fault.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/errors.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::client {
namespace {

Json parse_json(std::string_view text) { return jsonrpc::parse_json_or_discarded(text); }

// Members of peer-sent JSON, read without throwing on a wrong type.
std::string str_of(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}
int int_of(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_number_integer() ? it->get<int>() : 0;
}

bool is_2xx(int status) { return status >= 200 && status <= 299; }

std::string excerpt(std::string_view body) { return std::string(body.substr(0, kBodyExcerpt)); }

// The reason of the first A2A ErrorInfo among google.rpc.Status details.
std::optional<std::string> error_info_reason(const Json& details) {
  if (!details.is_array()) return std::nullopt;
  for (const Json& d : details) {
    if (!d.is_object() || str_of(d, "@type") != jsonrpc::kErrorInfoType) continue;
    std::string domain = str_of(d, "domain");
    if (!domain.empty() && domain != jsonrpc::kErrorDomain) continue;
    if (std::string reason = str_of(d, "reason"); !reason.empty()) return reason;
  }
  return std::nullopt;
}

std::optional<int> code_for(const Json& details, std::string_view grpc_status) {
  if (auto reason = error_info_reason(details)) {
    if (auto row = jsonrpc::row_by_reason(*reason)) return row->jsonrpc_code;
  }
  // Generic categories (§6.3); NOT_FOUND and UNIMPLEMENTED name several codes.
  if (grpc_status == "INVALID_ARGUMENT") return jsonrpc::kInvalidParams;
  if (grpc_status == "INTERNAL") return jsonrpc::kInternalError;
  return std::nullopt;
}

Json status_object(int http_status, const Json& status) {
  Json out = Json::object();
  std::string grpc_status = str_of(status, "status");
  Json details = status.contains("details") ? status["details"] : Json(nullptr);
  if (auto code = code_for(details, grpc_status)) out["code"] = *code;
  out["message"] = status.contains("message") ? status["message"] : Json("");
  out["httpStatus"] = http_status;
  if (!grpc_status.empty()) out["status"] = grpc_status;
  if (!details.is_null()) out["details"] = details;
  return out;
}

Json http_status_object(int http_status, std::string_view reason_phrase, std::string_view body) {
  std::string message = "HTTP " + std::to_string(http_status);
  if (!reason_phrase.empty()) message += " " + std::string(reason_phrase);
  return Json{{"httpStatus", http_status}, {"message", message}, {"body", excerpt(body)}};
}

ClientError agent_error(Json object) {
  return ClientError{ClientErrorKind::kAgent, "", std::move(object)};
}

ClientError protocol_error(std::string message) {
  return ClientError{ClientErrorKind::kTransport, std::move(message), nullptr};
}

}  // namespace

Json rest_error_object(int http_status, std::string_view reason_phrase, std::string_view body) {
  Json doc = parse_json(body);
  if (!doc.is_discarded() && doc.is_object() && doc.contains("error") && doc["error"].is_object()) {
    return status_object(http_status, doc["error"]);
  }
  return http_status_object(http_status, reason_phrase, body);
}

CallResult rest_answer(int http_status, std::string_view reason_phrase, std::string_view body) {
  if (!is_2xx(http_status) && fault_on("client-http-status-only"))
    return CallResult::failure(agent_error(http_status_object(http_status, reason_phrase, body)));
  if (!is_2xx(http_status)) {
    return CallResult::failure(agent_error(rest_error_object(http_status, reason_phrase, body)));
  }
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) return CallResult::success(nullptr);
  Json doc = parse_json(body);
  if (doc.is_discarded()) {
    return CallResult::failure(protocol_error("HTTP " + std::to_string(http_status) +
                                              " body is not JSON: " + core::escape_bytes(body, kBodyExcerpt)));
  }
  return CallResult::success(std::move(doc));
}

CallResult jsonrpc_answer(int http_status, std::string_view reason_phrase, std::string_view body,
                          const Json& id) {
  std::string why;
  auto msg = jsonrpc::parse_message(body, &why);
  bool response = msg && (msg->kind == jsonrpc::Kind::kResponse || msg->kind == jsonrpc::Kind::kError);
  if (!response || (!is_2xx(http_status) && fault_on("client-http-status-only"))) {
    if (!is_2xx(http_status)) {
      return CallResult::failure(agent_error(http_status_object(http_status, reason_phrase, body)));
    }
    return CallResult::failure(protocol_error("HTTP " + std::to_string(http_status) +
                                              " body is not a JSON-RPC response (" +
                                              (why.empty() ? "a request" : why) +
                                              "): " + core::escape_bytes(body, kBodyExcerpt)));
  }
  bool id_ok = msg->id == id || (msg->kind == jsonrpc::Kind::kError && msg->id.is_null()) ||
               fault_on("client-match-wrong-id");
  if (!id_ok) {
    return CallResult::failure(protocol_error("response id " + jsonrpc::dump(msg->id) +
                                              " does not match request id " + jsonrpc::dump(id)));
  }
  if (msg->kind == jsonrpc::Kind::kError) return CallResult::failure(agent_error(msg->error));
  return CallResult::success(msg->result);
}

std::optional<StreamItem> jsonrpc_stream_item(std::string_view data, const Json& id, std::string* why) {
  std::string reason;
  auto msg = jsonrpc::parse_message(data, &reason);
  if (!msg || (msg->kind != jsonrpc::Kind::kResponse && msg->kind != jsonrpc::Kind::kError)) {
    *why = "SSE data is not a JSON-RPC response" + (reason.empty() ? "" : " (" + reason + ")") + ": " +
           core::escape_bytes(data, kBodyExcerpt);
    return std::nullopt;
  }
  if (msg->id != id && !(msg->kind == jsonrpc::Kind::kError && msg->id.is_null())) {
    *why = "SSE event id " + jsonrpc::dump(msg->id) + " does not match request id " + jsonrpc::dump(id);
    return std::nullopt;
  }
  if (msg->kind == jsonrpc::Kind::kError) return StreamItem{StreamItem::Type::kStreamError, msg->error};
  return StreamItem{StreamItem::Type::kEvent, msg->result};
}

std::optional<StreamItem> rest_stream_item(std::string_view data, std::string* why) {
  Json doc = parse_json(data);
  if (doc.is_discarded() || !doc.is_object()) {
    *why = "SSE data is not a JSON object: " + core::escape_bytes(data, kBodyExcerpt);
    return std::nullopt;
  }
  if (doc.size() == 1 && doc.contains("error") && doc["error"].is_object()) {
    int http_status = int_of(doc["error"], "code");
    return StreamItem{StreamItem::Type::kStreamError, status_object(http_status, doc["error"])};
  }
  return StreamItem{StreamItem::Type::kEvent, std::move(doc)};
}

}  // namespace a2a::client
