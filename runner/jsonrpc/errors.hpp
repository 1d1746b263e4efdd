// The A2A 1.0.1 error table (a2a-protocol.md §6.1, spec §5.4): one row per A2A
// error with its JSON-RPC code, gRPC status, HTTP status and ErrorInfo reason.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "runner/jsonrpc/message.hpp"

namespace a2a::jsonrpc {

enum class A2AError {
  kTaskNotFound,
  kTaskNotCancelable,
  kPushNotificationNotSupported,
  kUnsupportedOperation,
  kContentTypeNotSupported,
  kInvalidAgentResponse,
  kExtendedAgentCardNotConfigured,
  kExtensionSupportRequired,
  kVersionNotSupported,
};

struct ErrorRow {
  A2AError error;
  std::string_view name;            // "TaskNotFoundError"
  int jsonrpc_code;                 // -32001
  std::string_view grpc_status;     // "NOT_FOUND"
  int http_status;                  // 404
  std::string_view reason;          // "TASK_NOT_FOUND"
  std::string_view default_message; // "Task not found"
};

inline constexpr std::string_view kErrorDomain = "a2a-protocol.org";
inline constexpr std::string_view kErrorInfoType = "type.googleapis.com/google.rpc.ErrorInfo";

std::span<const ErrorRow> error_table();
const ErrorRow& row(A2AError e);
std::optional<ErrorRow> row_by_code(int jsonrpc_code);
std::optional<ErrorRow> row_by_reason(std::string_view reason);
// Name for any code, including the standard -327xx ones ("InvalidParams", "TaskNotFoundError", ...);
// "ServerError" for the rest of -32099..-32000, "" for codes no table names.
std::string_view code_name(int jsonrpc_code);

// JSON-RPC error object {code, message, data:[ErrorInfo]} for an A2A error.
// `metadata` (object or null) goes into the ErrorInfo's metadata.
Json make_a2a_error_object(A2AError e, std::string_view message = {}, const Json& metadata = nullptr);

}  // namespace a2a::jsonrpc
