// Push notification config CRUD (a2a-protocol.md §3.11, §4.6.7-10). Configs
// live on their task; each event logged on the task goes to the config's
// webhook through AgentConfig::push_sink (http_push.hpp delivers it).
#include <algorithm>

#include "peers/a2a-ref-agent/core_state.hpp"
#include "peers/a2a-ref-agent/params.hpp"
#include "runner/core/escape.hpp"

namespace a2a::agent {
namespace {

CallError config_not_found(const std::string& task_id, const std::string& id) {
  return a2a_error(jsonrpc::A2AError::kTaskNotFound,
                   "Push notification config '" + id + "' not found for task '" + task_id + "'",
                   Json{{"taskId", task_id}, {"configId", id}});
}

std::optional<CallError> check_authentication(const Json& cfg) {
  const Json* auth = field(cfg, "authentication");
  if (!auth) return std::nullopt;
  if (!auth->is_object()) return invalid_params("authentication", "must be an object");
  std::string scheme;
  if (auto e = get_required_string(*auth, "scheme", scheme, "authentication")) return e;
  std::optional<std::string> credentials;
  return get_string(*auth, "credentials", credentials, "authentication");
}

// {taskId, id} of Get/Delete.
std::optional<CallError> parse_ref(const Json& params, std::string& task_id, std::string& id) {
  if (auto e = require_object(params, false)) return e;
  if (auto e = get_required_string(params, "taskId", task_id)) return e;
  return get_required_string(params, "id", id);
}

}  // namespace

std::optional<CallError> check_push_supported(const CoreState& st) {
  if (st.push_supported) return std::nullopt;
  return a2a_error(jsonrpc::A2AError::kPushNotificationNotSupported,
                   "Push notifications are not supported: the agent card declares capabilities.pushNotifications "
                   "false (spec §3.3.4)");
}

TaskStore::PushHook push_hook(const AgentConfig& config) {
  auto sink = config.push_sink;
  Faults faults = config.faults;
  return [sink, faults](const TaskRecord& r, const Json& cfg, const Json& event) {
    if (faults.has(Fault::kPushNoDelivery)) return;
    Json body = faults.has(Fault::kPushBareTaskBody) ? task_json(r) : event;
    apply_output_faults(faults, body);
    sink(cfg, body);
  };
}

// The stored form of a TaskPushNotificationConfig: only the known members, camelCase.
std::optional<CallError> normalize_push_config(const Json& cfg, const std::string& task_id, Json& out) {
  std::string url;
  if (auto e = get_required_string(cfg, "url", url)) return e;
  if (!url.starts_with("https://") && !url.starts_with("http://")) {
    return invalid_params("url", "'" + url + "' is not an absolute http(s) URL");
  }
  std::optional<std::string> id, token, tenant;
  if (auto e = get_string(cfg, "id", id)) return e;
  if (auto e = get_string(cfg, "token", token)) return e;
  if (auto e = get_string(cfg, "tenant", tenant)) return e;
  if (auto e = check_authentication(cfg)) return e;
  out = Json{{"id", id && !id->empty() ? *id : core::uuid_v7()}, {"taskId", task_id}, {"url", url}};
  if (token && !token->empty()) out["token"] = *token;
  if (tenant && !tenant->empty()) out["tenant"] = *tenant;
  if (const Json* auth = field(cfg, "authentication")) {
    out["authentication"] = Json{{"scheme", (*auth)["scheme"]}};
    if (const Json* c = field(*auth, "credentials")) out["authentication"]["credentials"] = *c;
  }
  return std::nullopt;
}

CallResult create_push_config(CoreState& st, const Json& params) {
  if (auto e = check_push_supported(st)) return *e;
  if (auto e = require_object(params, false)) return *e;
  std::string task_id;
  if (auto e = get_required_string(params, "taskId", task_id)) return *e;
  // The 0.3 / ACTS nesting {taskId, pushNotificationConfig:{url,...}} is read too.
  const Json* nested = field(params, "pushNotificationConfig");
  const Json& cfg = (nested && nested->is_object() && !field(params, "url")) ? *nested : params;
  Json stored;
  if (auto e = normalize_push_config(cfg, task_id, stored)) return *e;
  auto lk = st.store.lock(task_id);
  auto r = st.store.find(task_id);
  if (!r) return task_not_found(task_id);
  auto& configs = r->push_configs;
  auto it = std::find_if(configs.begin(), configs.end(), [&](const Json& c) { return c["id"] == stored["id"]; });
  if (it != configs.end()) {
    *it = stored;  // same id replaces
  } else {
    configs.push_back(stored);
  }
  return stored;
}

CallResult get_push_config(CoreState& st, const Json& params) {
  if (auto e = check_push_supported(st)) return *e;
  std::string task_id, id;
  if (auto e = parse_ref(params, task_id, id)) return *e;
  auto lk = st.store.lock(task_id);
  auto r = st.store.find(task_id);
  if (!r) return task_not_found(task_id);
  // push-get-ignores-config-id: the first config of the task, whatever id was asked.
  if (st.fault(Fault::kPushGetIgnoresConfigId) && !r->push_configs.empty()) return r->push_configs.front();
  for (const auto& c : r->push_configs) {
    if (c["id"] == id) return c;
  }
  return config_not_found(task_id, id);
}

CallResult list_push_configs(CoreState& st, const Json& params) {
  if (auto e = check_push_supported(st)) return *e;
  if (auto e = require_object(params, false)) return *e;
  std::string task_id;
  if (auto e = get_required_string(params, "taskId", task_id)) return *e;
  std::optional<long long> page_size;
  if (auto e = get_int(params, "pageSize", page_size)) return *e;
  if (page_size && *page_size < 0) return invalid_params("pageSize", "must not be negative");
  auto lk = st.store.lock(task_id);
  auto r = st.store.find(task_id);
  if (!r) return task_not_found(task_id);
  // All configs on one page: a task has few, and pagination is optional here.
  return Json{{"configs", r->push_configs}, {"nextPageToken", ""}};
}

CallResult delete_push_config(CoreState& st, const Json& params) {
  if (auto e = check_push_supported(st)) return *e;
  std::string task_id, id;
  if (auto e = parse_ref(params, task_id, id)) return *e;
  auto lk = st.store.lock(task_id);
  auto r = st.store.find(task_id);
  if (!r) return task_not_found(task_id);
  if (!st.fault(Fault::kSemPushDeleteNoop)) {
    std::erase_if(r->push_configs, [&](const Json& c) { return c["id"] == id; });
  }
  return Json(nullptr);  // deleting a missing config succeeds: delete is idempotent
}

}  // namespace a2a::agent
