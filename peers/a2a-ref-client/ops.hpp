// The CLI's operation names and the A2A params each one builds
// (a2a-protocol.md §3.9-3.11, §4.6). Builders write only what was given,
// as ProtoJSON does; the agent judges validity, not the client.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "runner/a2a/methods.hpp"
#include "runner/core/expected.hpp"

namespace a2a::client {

using Json = nlohmann::json;

// "send", "stream", "get", "list", "cancel", "subscribe", "push-create",
// "push-get", "push-list", "push-delete", "card".
std::optional<model::Operation> operation_from_cli_name(std::string_view name);
std::string_view cli_name(model::Operation op);

struct SendArgs {
  std::string text;
  std::string message_id;  // empty = a fresh UUIDv7
  std::string task_id;
  std::string context_id;
  bool return_immediately = false;
  std::optional<int> history_length;
};
// {"message":{"messageId","role":"ROLE_USER","parts":[{"text"}],taskId?,contextId?},
//  "configuration":{returnImmediately?,historyLength?}?}
Json send_params(const SendArgs& a);

Json get_params(const std::string& id, std::optional<int> history_length);
Json id_params(const std::string& id);  // cancel, subscribe

struct ListArgs {
  std::string context_id;
  std::string status;  // "TASK_STATE_WORKING" or a short form ("working", "input-required")
  std::optional<int> page_size;
  std::string page_token;
  bool include_artifacts = false;
  std::optional<int> history_length;
};
// kInvalidArgument for an unknown status name.
core::Expected<Json> list_params(const ListArgs& a);
// "working" -> "TASK_STATE_WORKING"; full names pass through; "" if unknown.
std::string task_state_name(std::string_view s);

struct PushArgs {
  std::string task_id;
  std::string url;
  std::string token;
  std::string config_id;
};
Json push_create_params(const PushArgs& a);              // {taskId, url, token?, id?}
Json push_ref_params(const std::string& task_id, const std::string& config_id);  // {taskId, id}
Json push_list_params(const std::string& task_id);       // {taskId}

// --raw-params: the text must be one JSON value (usually an object).
core::Expected<Json> parse_raw_params(std::string_view text);

}  // namespace a2a::client
