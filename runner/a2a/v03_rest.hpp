// A2A 0.3 HTTP+JSON/REST (a2a-protocol.md §9.2, docs/a2a-0.3.md "0.3 REST"):
// the 0.3 proto's HTTP routes under /v1 with ProtoJSON bodies of the 0.3 proto
// (Dialect::kProtoJson), and the reading of 0.3 REST error answers, which the
// 0.3 spec never standardized. Pure functions, no I/O; the runner's rest@0.3
// profile (runner/bindings/a2a03/rest_v03.cpp) is the user.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/a2a/methods.hpp"
#include "runner/a2a/rest_routes.hpp"

namespace a2a::model::v03 {

struct RestCallV03 {
  RestCall call;                   // path relative to the interface URL, starting "/v1/"
  std::vector<std::string> notes;  // where the 1.0 params do not fit 0.3 (params_to_v03 notes, missing ids)
};

// 1.0 params (JSON-RPC params object) -> the 0.3 REST request:
//   SendMessage            POST   /v1/message:send        body SendMessageRequest (ProtoJSON 0.3)
//   SendStreamingMessage   POST   /v1/message:stream      body as above
//   GetTask                GET    /v1/tasks/{id}          ?historyLength=N
//   CancelTask             POST   /v1/tasks/{id}:cancel   body {} (plus metadata when given)
//   SubscribeToTask        POST   /v1/tasks/{id}:subscribe  body {} (0.3 spec text; the proto says GET)
//   CreatePushConfig       POST   /v1/tasks/{taskId}/pushNotificationConfigs  body TaskPushNotificationConfig
//   GetPushConfig          GET    /v1/tasks/{taskId}/pushNotificationConfigs/{id}
//   ListPushConfigs        GET    /v1/tasks/{taskId}/pushNotificationConfigs
//   DeletePushConfig       DELETE /v1/tasks/{taskId}/pushNotificationConfigs/{id}
//   GetExtendedAgentCard   GET    /v1/card
// ListTasks has no 0.3 form: a note and an empty method. A 1.0 `tenant` is
// dropped (0.3 has none).
RestCallV03 rest_call_v03(Operation op, const nlohmann::json& v1_params);

// The A2A code an HTTP status stands for when a 0.3 REST error body names none:
// 404 -32001 TaskNotFound, 409 -32002 TaskNotCancelable, 415 -32005
// ContentTypeNotSupported, 400/422 -32602 InvalidParams, 405 -32601
// MethodNotFound, 501 -32004 UnsupportedOperation, 502 -32006
// InvalidAgentResponse, anything else -32603 InternalError.
int a2a_code_for_http_status(int http_status);

// A 0.3 REST error answer -> a JSON-RPC-style error object {code, message[, data]}:
// the code is the body's integer `code` member when it is an A2A/JSON-RPC code
// (negative; the JS SDK's bare {code, message}), also inside an {"error": ...}
// wrapper; else the ErrorInfo reason of a google.rpc.Status `details` list;
// else a2a_code_for_http_status. `raw` is the body as received, for the message
// of a body that is not JSON. http_status 0 = an SSE error event (code needed).
nlohmann::json rest_error_v03(int http_status, const nlohmann::json& body, std::string_view raw);

}  // namespace a2a::model::v03
