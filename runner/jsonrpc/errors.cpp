#include "runner/jsonrpc/errors.hpp"

#include <array>
#include <cstddef>

namespace a2a::jsonrpc {
namespace {

// A2A v1.0.1 (a2a-protocol.md §6.1). The v1.0.0 table differed in gRPC/HTTP
// status for five rows; clients classify by code or reason first for that reason.
constexpr std::array<ErrorRow, 9> kRows = {{
    {A2AError::kTaskNotFound, "TaskNotFoundError", -32001, "NOT_FOUND", 404, "TASK_NOT_FOUND",
     "Task not found"},
    {A2AError::kTaskNotCancelable, "TaskNotCancelableError", -32002, "FAILED_PRECONDITION", 400,
     "TASK_NOT_CANCELABLE", "Task cannot be canceled"},
    {A2AError::kPushNotificationNotSupported, "PushNotificationNotSupportedError", -32003,
     "FAILED_PRECONDITION", 400, "PUSH_NOTIFICATION_NOT_SUPPORTED", "Push Notification is not supported"},
    {A2AError::kUnsupportedOperation, "UnsupportedOperationError", -32004, "FAILED_PRECONDITION", 400,
     "UNSUPPORTED_OPERATION", "This operation is not supported"},
    {A2AError::kContentTypeNotSupported, "ContentTypeNotSupportedError", -32005, "INVALID_ARGUMENT", 400,
     "CONTENT_TYPE_NOT_SUPPORTED", "Incompatible content types"},
    {A2AError::kInvalidAgentResponse, "InvalidAgentResponseError", -32006, "INTERNAL", 500,
     "INVALID_AGENT_RESPONSE", "Invalid agent response"},
    {A2AError::kExtendedAgentCardNotConfigured, "ExtendedAgentCardNotConfiguredError", -32007,
     "FAILED_PRECONDITION", 400, "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
     "Authenticated Extended Card is not configured"},
    {A2AError::kExtensionSupportRequired, "ExtensionSupportRequiredError", -32008, "FAILED_PRECONDITION", 400,
     "EXTENSION_SUPPORT_REQUIRED", "Extension support required"},
    {A2AError::kVersionNotSupported, "VersionNotSupportedError", -32009, "FAILED_PRECONDITION", 400,
     "VERSION_NOT_SUPPORTED", "Version not supported"},
}};

// row() indexes by enum value, so the table order must follow the enum.
constexpr bool rows_follow_enum() {
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    if (static_cast<std::size_t>(kRows[i].error) != i) return false;
  }
  return true;
}
static_assert(rows_follow_enum(), "kRows must list A2AError values in declaration order");

// ErrorInfo.metadata is map<string, string>: non-string values are written as
// their compact JSON text so the detail always decodes as ProtoJSON.
Json string_map(const Json& metadata) {
  Json out = Json::object();
  for (const auto& [key, value] : metadata.items()) {
    out[key] = value.is_string() ? value : Json(dump(value));
  }
  return out;
}

}  // namespace

std::span<const ErrorRow> error_table() { return kRows; }

const ErrorRow& row(A2AError e) { return kRows[static_cast<std::size_t>(e)]; }

std::optional<ErrorRow> row_by_code(int jsonrpc_code) {
  for (const auto& r : kRows) {
    if (r.jsonrpc_code == jsonrpc_code) return r;
  }
  return std::nullopt;
}

std::optional<ErrorRow> row_by_reason(std::string_view reason) {
  for (const auto& r : kRows) {
    if (r.reason == reason) return r;
  }
  return std::nullopt;
}

std::string_view code_name(int jsonrpc_code) {
  switch (jsonrpc_code) {
    case kParseError: return "ParseError";
    case kInvalidRequest: return "InvalidRequest";
    case kMethodNotFound: return "MethodNotFound";
    case kInvalidParams: return "InvalidParams";
    case kInternalError: return "InternalError";
    default: break;
  }
  if (auto r = row_by_code(jsonrpc_code)) return r->name;
  // JSON-RPC 2.0 reserves -32099..-32000 for implementation-defined server errors.
  if (jsonrpc_code >= -32099 && jsonrpc_code <= -32000) return "ServerError";
  return "";
}

Json make_a2a_error_object(A2AError e, std::string_view message, const Json& metadata) {
  const ErrorRow& r = row(e);
  Json info = {{"@type", kErrorInfoType}, {"reason", r.reason}, {"domain", kErrorDomain}};
  // ProtoJSON omits an empty map, so {} and null both leave metadata out.
  if (metadata.is_object() && !metadata.empty()) info["metadata"] = string_map(metadata);
  return {{"code", r.jsonrpc_code},
          {"message", message.empty() ? r.default_message : message},
          {"data", Json::array({std::move(info)})}};
}

}  // namespace a2a::jsonrpc
