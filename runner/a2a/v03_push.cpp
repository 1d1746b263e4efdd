// Push notification configs (a2a-protocol.md §3.11; §9.1 rows "Push config
// object", "Push get/delete params", "Push list result"; §9.2 resource names).
#include "runner/a2a/v03_detail.hpp"

namespace a2a::model::v03 {
namespace detail {
namespace {

constexpr std::string_view kTasks = "tasks/";
constexpr std::string_view kConfigs = "/pushNotificationConfigs/";

// 0.3 {schemes: [..], credentials} -> 1.0 {scheme, credentials}: 1.0 holds one scheme.
Json auth_to_v1(const Json& a, const std::string& path, Ctx& c) {
  if (!expect_object(a, path, c)) return a;
  Json out = a;
  const std::string where = member_path(path, "schemes");
  const Json schemes = take(out, "schemes");
  if (!schemes.is_array() || schemes.empty() || !schemes[0].is_string()) {
    c.note(where, "must be a non-empty array of strings, got " + describe(schemes));
    if (!schemes.is_null()) out["schemes"] = schemes;
    return out;
  }
  out["scheme"] = schemes[0];
  if (schemes.size() > 1) {
    c.note(where, "1.0 holds one scheme; kept " + describe(schemes[0]) + ", dropped " +
                      std::to_string(schemes.size() - 1) + " more");
  }
  return out;
}

Json auth_to_v03(const Json& a, const std::string& path, Ctx& c) {
  if (!expect_object(a, path, c)) return a;
  Json out = a;
  const Json scheme = take(out, "scheme");
  if (!scheme.is_string()) {
    c.note(member_path(path, "scheme"), "must be a string, got " + describe(scheme));
    if (!scheme.is_null()) out["scheme"] = scheme;
    return out;
  }
  out["schemes"] = Json::array({scheme});
  return out;
}

// Fills taskId / id from a kProtoJson `name` without overriding members already set.
void ids_from_name(Json& out, const Json& name, const std::string& path, Ctx& c) {
  std::string task_id;
  std::string config_id;
  if (!name.is_string() || !parse_push_config_name(name.get_ref<const std::string&>(), task_id, config_id)) {
    c.note(path, "must be \"tasks/{id}/pushNotificationConfigs/{configId}\", got " + describe(name));
    out["name"] = name;
    return;
  }
  if (!out.contains("taskId")) out["taskId"] = task_id;
  if (!config_id.empty() && !out.contains("id")) out["id"] = config_id;
}

}  // namespace

std::string task_name(std::string_view task_id) { return std::string(kTasks) + std::string(task_id); }

std::string push_config_name(std::string_view task_id, std::string_view config_id) {
  return task_name(task_id) + std::string(kConfigs) + std::string(config_id);
}

bool parse_task_name(std::string_view name, std::string& task_id) {
  if (name.substr(0, kTasks.size()) != kTasks) return false;
  const std::string_view id = name.substr(kTasks.size());
  if (id.empty() || id.find('/') != std::string_view::npos) return false;
  task_id = id;
  return true;
}

bool parse_push_config_name(std::string_view name, std::string& task_id, std::string& config_id) {
  const auto at = name.find(kConfigs);
  if (at == std::string_view::npos || !parse_task_name(name.substr(0, at), task_id)) return false;
  const std::string_view id = name.substr(at + kConfigs.size());
  if (id.find('/') != std::string_view::npos) return false;
  config_id = id;
  return true;
}

Json push_config_to_v1(const Json& p, const std::string& path, Ctx& c) {
  if (!expect_object(p, path, c)) return p;
  Json out = p;
  convert_member(out, "authentication", path, c, auth_to_v1);
  return out;
}

Json push_config_to_v03(const Json& p, const std::string& path, Ctx& c) {
  if (!expect_object(p, path, c)) return p;
  Json out = p;
  convert_member(out, "authentication", path, c, auth_to_v03);
  return out;
}

Json task_push_config_to_v1(const Json& p, const std::string& path, Ctx& c) {
  if (!expect_object(p, path, c)) return p;
  Json out = p;
  const std::string where = member_path(path, "pushNotificationConfig");
  Json inner = take(out, "pushNotificationConfig");
  const Json name = c.rpc() ? Json() : take(out, "name");
  if (!expect_object(inner, where, c)) {
    if (!inner.is_null()) out["pushNotificationConfig"] = std::move(inner);
    if (!name.is_null()) out["name"] = name;
    return out;
  }
  const Json flat = push_config_to_v1(inner, where, c);
  for (auto it = flat.begin(); it != flat.end(); ++it) {
    if (out.contains(it.key()))
      c.note(member_path(where, it.key()), "dropped: also present beside it");
    else
      out[it.key()] = it.value();
  }
  if (!name.is_null()) ids_from_name(out, name, member_path(path, "name"), c);
  return out;
}

Json task_push_config_to_v03(const Json& p, const std::string& path, Ctx& c) {
  if (!expect_object(p, path, c)) return p;
  Json out = p;
  Json inner = Json::object();
  for (const char* key : {"id", "url", "token", "authentication"}) {
    if (out.contains(key)) inner[key] = take(out, key);
  }
  inner = push_config_to_v03(inner, member_path(path, "pushNotificationConfig"), c);
  if (!c.rpc()) {
    const Json task_id = take(out, "taskId");
    const Json id = inner.value("id", Json(""));
    if (task_id.is_string()) {
      out["name"] = push_config_name(task_id.get<std::string>(), id.is_string() ? id.get<std::string>() : "");
    } else if (!task_id.is_null()) {
      c.note(member_path(path, "taskId"), "must be a string, got " + describe(task_id));
    }
  }
  out["pushNotificationConfig"] = std::move(inner);
  return out;
}

// 0.3 JSON-RPC: a bare array; kProtoJson: {configs, nextPageToken} like 1.0.
Json push_list_to_v1(const Json& r, const std::string& path, Ctx& c) {
  if (c.rpc()) {
    if (!r.is_array()) {
      c.note(path, "must be an array of TaskPushNotificationConfig, got " + describe(r));
      return r;
    }
    return Json{{"configs", map_array(r, path, c, task_push_config_to_v1)}};
  }
  if (!expect_object(r, path, c)) return r;
  Json out = r;
  convert_each(out, "configs", path, c, task_push_config_to_v1);
  return out;
}

Json push_list_to_v03(const Json& r, const std::string& path, Ctx& c) {
  if (!expect_object(r, path, c)) return r;
  Json out = r;
  if (!out.contains("configs")) out["configs"] = Json::array();
  convert_each(out, "configs", path, c, task_push_config_to_v03);
  if (!c.rpc()) return out;
  const Json token = take(out, "nextPageToken");
  if (!token.is_null() && token != "") {
    c.note(member_path(path, "nextPageToken"), "0.3 has no paging; further pages are not announced");
  }
  Json configs = take(out, "configs");
  for (auto it = out.begin(); it != out.end(); ++it) {
    c.note(member_path(path, it.key()), "dropped: a 0.3 list result is a bare array");
  }
  return configs;
}

}  // namespace detail
}  // namespace a2a::model::v03
