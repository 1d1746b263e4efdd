#include "peers/a2a-ref-client/ops.hpp"

#include <array>
#include <cctype>
#include <utility>

#include "runner/a2a/model.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::client {
namespace {

using model::Operation;

constexpr std::array<std::pair<std::string_view, Operation>, 11> kCliNames = {{
    {"send", Operation::kSendMessage},
    {"stream", Operation::kSendStreamingMessage},
    {"get", Operation::kGetTask},
    {"list", Operation::kListTasks},
    {"cancel", Operation::kCancelTask},
    {"subscribe", Operation::kSubscribeToTask},
    {"push-create", Operation::kCreatePushConfig},
    {"push-get", Operation::kGetPushConfig},
    {"push-list", Operation::kListPushConfigs},
    {"push-delete", Operation::kDeletePushConfig},
    {"card", Operation::kGetExtendedAgentCard},
}};

}  // namespace

std::optional<Operation> operation_from_cli_name(std::string_view name) {
  for (const auto& [n, op] : kCliNames) {
    if (n == name) return op;
  }
  return std::nullopt;
}

std::string_view cli_name(Operation op) {
  for (const auto& [n, o] : kCliNames) {
    if (o == op) return n;
  }
  return "?";
}

Json send_params(const SendArgs& a) {
  Json message = {{"messageId", a.message_id.empty() ? core::uuid_v7() : a.message_id},
                  {"role", "ROLE_USER"},
                  {"parts", Json::array({{{"text", a.text}}})}};
  if (!a.task_id.empty()) message["taskId"] = a.task_id;
  if (!a.context_id.empty()) message["contextId"] = a.context_id;
  Json params = {{"message", std::move(message)}};
  Json config = Json::object();
  if (a.return_immediately) config["returnImmediately"] = true;
  if (a.history_length) config["historyLength"] = *a.history_length;
  if (!config.empty()) params["configuration"] = std::move(config);
  return params;
}

Json get_params(const std::string& id, std::optional<int> history_length) {
  Json params = {{"id", id}};
  if (history_length) params["historyLength"] = *history_length;
  return params;
}

Json id_params(const std::string& id) { return Json{{"id", id}}; }

std::string task_state_name(std::string_view s) {
  std::string upper;
  for (char c : s) upper += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.rfind("TASK_STATE_", 0) != 0) upper = "TASK_STATE_" + upper;
  return model::task_state_from(upper) ? upper : std::string();
}

core::Expected<Json> list_params(const ListArgs& a) {
  Json params = Json::object();
  if (!a.context_id.empty()) params["contextId"] = a.context_id;
  if (!a.status.empty()) {
    std::string state = task_state_name(a.status);
    if (state.empty()) {
      return core::fail(core::ErrorKind::kInvalidArgument,
                        "--status '" + a.status + "' is not a task state (e.g. working, TASK_STATE_COMPLETED)");
    }
    params["status"] = state;
  }
  if (a.page_size) params["pageSize"] = *a.page_size;
  if (!a.page_token.empty()) params["pageToken"] = a.page_token;
  if (a.include_artifacts) params["includeArtifacts"] = true;
  if (a.history_length) params["historyLength"] = *a.history_length;
  return params;
}

Json push_create_params(const PushArgs& a) {
  Json params = {{"taskId", a.task_id}, {"url", a.url}};
  if (!a.token.empty()) params["token"] = a.token;
  if (!a.config_id.empty()) params["id"] = a.config_id;
  return params;
}

Json push_ref_params(const std::string& task_id, const std::string& config_id) {
  return Json{{"taskId", task_id}, {"id", config_id}};
}

Json push_list_params(const std::string& task_id) { return Json{{"taskId", task_id}}; }

core::Expected<Json> parse_raw_params(std::string_view text) {
  Json j = jsonrpc::parse_json_or_discarded(text);
  if (j.is_discarded()) {
    return core::fail(core::ErrorKind::kParse,
                      "--raw-params is not valid JSON: '" + core::escape_bytes(text, 200) + "'");
  }
  return j;
}

}  // namespace a2a::client
