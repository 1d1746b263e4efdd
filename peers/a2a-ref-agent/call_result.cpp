#include "peers/a2a-ref-agent/call_result.hpp"

namespace a2a::agent {

Json CallError::to_json() const {
  Json j = {{"code", code}, {"message", message}};
  if (!data.is_null()) j["data"] = data;
  return j;
}

CallError a2a_error(jsonrpc::A2AError e, std::string_view message, const Json& metadata) {
  Json obj = jsonrpc::make_a2a_error_object(e, message, metadata);
  CallError err;
  err.code = obj.value("code", jsonrpc::row(e).jsonrpc_code);
  err.message = obj.value("message", std::string(message));
  if (obj.contains("data")) err.data = obj["data"];
  return err;
}

CallError invalid_params(std::string_view field, std::string_view description) {
  CallError err;
  err.code = jsonrpc::kInvalidParams;
  err.message = "Invalid parameters: " + std::string(field) + ": " + std::string(description);
  Json violation = {{"field", std::string(field)}, {"description", std::string(description)}};
  err.data = Json::array({{{"@type", "type.googleapis.com/google.rpc.BadRequest"},
                           {"fieldViolations", Json::array({violation})}}});
  return err;
}

CallError internal_error(std::string_view message) {
  return CallError{jsonrpc::kInternalError, std::string(message), nullptr};
}

CallError task_not_found(std::string_view task_id) {
  return a2a_error(jsonrpc::A2AError::kTaskNotFound,
                   "Task not found: no task with id '" + std::string(task_id) + "'",
                   Json{{"taskId", std::string(task_id)}});
}

}  // namespace a2a::agent
