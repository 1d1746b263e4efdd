// Method names, request params and results per operation (a2a-protocol.md §4.1,
// §3.9-3.11; §9.1 rows "Method names".."Extended card call"; §9.2 for kProtoJson).
#include <array>

#include "runner/a2a/v03_detail.hpp"

namespace a2a::model::v03 {
namespace {

using detail::Ctx;
using detail::describe;
using detail::Json;
using detail::member_path;
using detail::take;

struct V03Method {
  Operation op;
  std::string_view name;
};
// ListTasks is absent: 0.3 JSON-RPC has no task list (§9.1 "Task list").
constexpr std::array<V03Method, 10> kMethods = {{
    {Operation::kSendMessage, "message/send"},
    {Operation::kSendStreamingMessage, "message/stream"},
    {Operation::kGetTask, "tasks/get"},
    {Operation::kCancelTask, "tasks/cancel"},
    {Operation::kSubscribeToTask, "tasks/resubscribe"},
    {Operation::kCreatePushConfig, "tasks/pushNotificationConfig/set"},
    {Operation::kGetPushConfig, "tasks/pushNotificationConfig/get"},
    {Operation::kListPushConfigs, "tasks/pushNotificationConfig/list"},
    {Operation::kDeletePushConfig, "tasks/pushNotificationConfig/delete"},
    {Operation::kGetExtendedAgentCard, "agent/getAuthenticatedExtendedCard"},
}};

constexpr std::string_view kNoListTasks =
    "ListTasks has no A2A 0.3 JSON-RPC method (a2a-protocol.md §9.1 \"Task list\")";

// --- SendMessage -----------------------------------------------------------------

// 0.3 `blocking` (JSON-RPC: absent = blocking, as the SDKs do; ProtoJSON: proto3
// default false = return at once) <-> 1.0 `returnImmediately` (default false).
Json send_config_to_v1(const Json& cfg, const std::string& path, Ctx& c) {
  if (!detail::expect_object(cfg, path, c)) return cfg;
  Json out = cfg;
  Json push;
  if (detail::take_spelled(out, "pushNotificationConfig", "pushNotification", path, c, push)) {
    out["taskPushNotificationConfig"] = detail::push_config_to_v1(push, member_path(path, "pushNotificationConfig"), c);
  }
  const Json blocking = take(out, "blocking");
  if (blocking.is_boolean()) {
    if (!blocking.get<bool>()) out["returnImmediately"] = true;
  } else if (!blocking.is_null()) {
    c.note(member_path(path, "blocking"), "must be a boolean, got " + describe(blocking));
    out["blocking"] = blocking;
  } else if (!c.rpc()) {
    out["returnImmediately"] = true;
  }
  return out;
}

Json send_config_to_v03(const Json& cfg, const std::string& path, Ctx& c) {
  if (!detail::expect_object(cfg, path, c)) return cfg;
  Json out = cfg;
  const Json push = take(out, "taskPushNotificationConfig");
  if (!push.is_null()) {
    out[c.rpc() ? "pushNotificationConfig" : "pushNotification"] =
        detail::push_config_to_v03(push, member_path(path, "taskPushNotificationConfig"), c);
  }
  const Json now = take(out, "returnImmediately");
  if (now.is_null() || now.is_boolean()) {
    out["blocking"] = !(now.is_boolean() && now.get<bool>());
  } else {
    c.note(member_path(path, "returnImmediately"), "must be a boolean, got " + describe(now));
    out["returnImmediately"] = now;
  }
  return out;
}

Json send_params_to_v1(const Json& p, const std::string& path, Ctx& c) {
  if (!detail::expect_object(p, path, c)) return p;
  Json out = p;
  // The proto field is `request` with json_name "message"; ProtoJSON readers take both.
  if (!c.rpc() && !out.contains("message") && out.contains("request")) out["message"] = take(out, "request");
  detail::convert_member(out, "message", path, c, detail::message_to_v1);
  if (!c.rpc() && !out.contains("configuration")) out["configuration"] = Json::object();
  detail::convert_member(out, "configuration", path, c, send_config_to_v1);
  if (!c.rpc() && out["configuration"] == Json::object()) out.erase("configuration");
  return out;
}

Json send_params_to_v03(const Json& p, const std::string& path, Ctx& c) {
  if (!detail::expect_object(p, path, c)) return p;
  Json out = p;
  detail::convert_member(out, "message", path, c, detail::message_to_v03);
  // ProtoJSON reads a missing configuration as blocking=false: say "block" explicitly.
  if (!c.rpc() && !out.contains("configuration")) out["configuration"] = Json::object();
  detail::convert_member(out, "configuration", path, c, send_config_to_v03);
  return out;
}

// --- ids: JSON-RPC {id} / {id, pushNotificationConfigId}; ProtoJSON resource names --

// Resource name `from` -> {id} (a task name) or {taskId, id} (a push config name).
void name_to_ids(Json& out, const char* from, const std::string& path, Ctx& c, bool config_name) {
  const Json name = take(out, from);
  const std::string text = name.is_string() ? name.get<std::string>() : "";
  std::string task_id;
  std::string config_id;
  const bool ok =
      config_name ? detail::parse_push_config_name(text, task_id, config_id) : detail::parse_task_name(text, task_id);
  if (!ok || !name.is_string()) {
    const std::string want = config_name ? "tasks/{id}/pushNotificationConfigs/{configId}" : "tasks/{id}";
    c.note(member_path(path, from), "must be a \"" + want + "\" resource name, got " + describe(name));
    if (!name.is_null()) out[from] = name;
    return;
  }
  out[config_name ? "taskId" : "id"] = task_id;
  if (config_name) out["id"] = config_id;
}

Json task_id_params_to_v1(const Json& p, const std::string& path, Ctx& c) {
  if (!detail::expect_object(p, path, c)) return p;
  Json out = p;
  if (!c.rpc()) name_to_ids(out, "name", path, c, false);
  return out;
}

Json task_id_params_to_v03(const Json& p, const std::string& path, Ctx& c) {
  if (!detail::expect_object(p, path, c)) return p;
  Json out = p;
  const Json id = c.rpc() ? Json() : take(out, "id");
  if (id.is_string())
    out["name"] = detail::task_name(id.get<std::string>());
  else if (!id.is_null())
    out["id"] = id;
  return out;
}

// Get/Delete: 0.3 {id: taskId, pushNotificationConfigId} <-> 1.0 {taskId, id}.
Json push_id_params_to_v1(const Json& p, const std::string& path, Ctx& c) {
  if (!detail::expect_object(p, path, c)) return p;
  Json out = p;
  if (!c.rpc()) {
    name_to_ids(out, "name", path, c, true);
    return out;
  }
  const Json task_id = take(out, "id");
  const Json config_id = take(out, "pushNotificationConfigId");
  if (!task_id.is_null()) out["taskId"] = task_id;
  if (!config_id.is_null()) out["id"] = config_id;
  return out;
}

Json push_id_params_to_v03(const Json& p, const std::string& path, Ctx& c) {
  if (!detail::expect_object(p, path, c)) return p;
  Json out = p;
  const Json task_id = take(out, "taskId");
  const Json config_id = take(out, "id");
  if (c.rpc()) {
    if (!task_id.is_null()) out["id"] = task_id;
    if (!config_id.is_null()) out["pushNotificationConfigId"] = config_id;
  } else if (task_id.is_string() && config_id.is_string()) {
    out["name"] = detail::push_config_name(task_id.get<std::string>(), config_id.get<std::string>());
  } else {
    c.note(path, "taskId and id must be strings to name the config");
  }
  return out;
}

// List: 0.3 {id} / {parent: "tasks/{id}"} <-> 1.0 {taskId, pageSize?, pageToken?}.
Json push_list_params_to_v1(const Json& p, const std::string& path, Ctx& c) {
  if (!detail::expect_object(p, path, c)) return p;
  Json out = p;
  if (!c.rpc()) name_to_ids(out, "parent", path, c, false);
  detail::rename(out, "id", "taskId", path, c);
  return out;
}

Json push_list_params_to_v03(const Json& p, const std::string& path, Ctx& c) {
  if (!detail::expect_object(p, path, c)) return p;
  Json out = p;
  const Json task_id = take(out, "taskId");
  if (c.rpc() && !task_id.is_null())
    out["id"] = task_id;
  else if (task_id.is_string())
    out["parent"] = detail::task_name(task_id.get<std::string>());
  return out;
}

// Create, kProtoJson: {parent: "tasks/{id}", configId, config: {name, pushNotificationConfig}}.
Json create_params_to_v1(const Json& p, const std::string& path, Ctx& c) {
  if (c.rpc()) return detail::task_push_config_to_v1(p, path, c);
  if (!detail::expect_object(p, path, c)) return p;
  Json out = p;
  const Json config = take(out, "config");
  Json flat =
      config.is_null() ? Json::object() : detail::task_push_config_to_v1(config, member_path(path, "config"), c);
  if (!flat.is_object()) {  // noted by task_push_config_to_v1
    out["config"] = config;
    return out;
  }
  if (out.contains("parent")) name_to_ids(out, "parent", path, c, false);  // -> out["id"] = task id
  const Json task_id = take(out, "id");
  const Json config_id = take(out, "configId");
  if (!task_id.is_null() && !flat.contains("taskId")) flat["taskId"] = task_id;
  if (!config_id.is_null() && !flat.contains("id")) flat["id"] = config_id;
  for (auto it = out.begin(); it != out.end(); ++it) {
    if (!flat.contains(it.key())) flat[it.key()] = it.value();
  }
  return flat;
}

Json create_params_to_v03(const Json& p, const std::string& path, Ctx& c) {
  Json config = detail::task_push_config_to_v03(p, path, c);
  if (c.rpc() || !config.is_object()) return config;
  Json out = Json::object();
  if (p.contains("taskId") && p["taskId"].is_string())
    out["parent"] = detail::task_name(p["taskId"].get<std::string>());
  if (p.contains("id")) out["configId"] = p["id"];
  out["config"] = std::move(config);
  return out;
}

Json delete_result(const Json& r, const std::string& path, Ctx& c) {
  if (r.is_null() || r == Json::object()) return nullptr;
  c.note(path, "must be null, got " + describe(r));
  return r;
}

Json identity(const Json& j, const std::string&, Ctx&) { return j; }

struct OpConverters {
  detail::Convert params_to_v1;
  detail::Convert params_to_v03;
  detail::Convert result_to_v1;
  detail::Convert result_to_v03;
};

OpConverters converters(Operation op) {
  namespace d = detail;
  switch (op) {
    case Operation::kSendMessage:
      return {send_params_to_v1, send_params_to_v03, d::send_result_to_v1, d::send_result_to_v03};
    case Operation::kSendStreamingMessage:
      return {send_params_to_v1, send_params_to_v03, d::event_to_v1, d::event_to_v03};
    case Operation::kSubscribeToTask:
      return {task_id_params_to_v1, task_id_params_to_v03, d::event_to_v1, d::event_to_v03};
    case Operation::kGetTask:
    case Operation::kCancelTask:
      return {task_id_params_to_v1, task_id_params_to_v03, d::task_to_v1, d::task_to_v03};
    case Operation::kCreatePushConfig:
      return {create_params_to_v1, create_params_to_v03, d::task_push_config_to_v1, d::task_push_config_to_v03};
    case Operation::kGetPushConfig:
      return {push_id_params_to_v1, push_id_params_to_v03, d::task_push_config_to_v1, d::task_push_config_to_v03};
    case Operation::kDeletePushConfig:
      return {push_id_params_to_v1, push_id_params_to_v03, delete_result, delete_result};
    case Operation::kListPushConfigs:
      return {push_list_params_to_v1, push_list_params_to_v03, d::push_list_to_v1, d::push_list_to_v03};
    case Operation::kGetExtendedAgentCard:
      return {identity, identity, d::card_to_v1, d::card_to_v03};
    case Operation::kListTasks:
      break;
  }
  return {nullptr, nullptr, nullptr, nullptr};
}

Translation run(Operation op, detail::Convert OpConverters::*which, const Json& in, Dialect d, const char* root) {
  Ctx c{d};
  const detail::Convert fn = converters(op).*which;
  if (fn == nullptr) {
    c.note(root, kNoListTasks);
    return std::move(c).done(in);
  }
  Json out = fn(in, root, c);
  return std::move(c).done(std::move(out));
}

}  // namespace

core::Expected<std::string_view> v03_method(Operation op) {
  for (const auto& m : kMethods) {
    if (m.op == op) return m.name;
  }
  return core::fail(core::ErrorKind::kNotFound, std::string(kNoListTasks));
}

std::optional<Operation> operation_from_v03_method(std::string_view method) {
  for (const auto& m : kMethods) {
    if (m.name == method) return m.op;
  }
  return std::nullopt;
}

core::Expected<std::string_view> method_to_v03(std::string_view v1_method) {
  const auto op = model::operation_from_method(v1_method, MethodNaming::kV1);
  if (!op) return core::fail(core::ErrorKind::kNotFound, "unknown A2A 1.0 method \"" + std::string(v1_method) + "\"");
  return v03_method(*op);
}

core::Expected<std::string_view> method_to_v1(std::string_view v03_method_name) {
  const auto op = operation_from_v03_method(v03_method_name);
  if (!op)
    return core::fail(core::ErrorKind::kNotFound, "unknown A2A 0.3 method \"" + std::string(v03_method_name) + "\"");
  return model::method_name(*op, MethodNaming::kV1);
}

Translation params_to_v1(Operation op, const nlohmann::json& params, Dialect d) {
  return run(op, &OpConverters::params_to_v1, params, d, "params");
}

Translation params_to_v03(Operation op, const nlohmann::json& params, Dialect d) {
  return run(op, &OpConverters::params_to_v03, params, d, "params");
}

Translation result_to_v1(Operation op, const nlohmann::json& result, Dialect d) {
  return run(op, &OpConverters::result_to_v1, result, d, "result");
}

Translation result_to_v03(Operation op, const nlohmann::json& result, Dialect d) {
  return run(op, &OpConverters::result_to_v03, result, d, "result");
}

}  // namespace a2a::model::v03
