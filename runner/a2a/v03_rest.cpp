// A2A 0.3 REST routes, bodies and error reading (v03_rest.hpp).
#include "runner/a2a/v03_rest.hpp"

#include <array>
#include <utility>

#include "runner/a2a/v03.hpp"

namespace a2a::model::v03 {
namespace {

using Json = nlohmann::json;

bool unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// One path segment, RFC 3986 percent-encoded.
std::string segment(const Json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : (v.is_null() ? "" : v.dump());
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (unreserved(static_cast<char>(c))) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The id a route needs, from the 1.0 params; a note when it is not a string.
std::string id_segment(const Json& p, const char* name, std::vector<std::string>& notes) {
  const Json v = p.is_object() ? p.value(name, Json()) : Json();
  if (!v.is_string()) notes.push_back(std::string("params.") + name + ": the 0.3 REST path needs a string id, got " +
                                      (v.is_null() ? "nothing" : v.dump()));
  return segment(v);
}

void add_query(RestCall& call, const Json& body, std::initializer_list<const char*> names) {
  if (!body.is_object()) return;
  for (const char* n : names) {
    if (!body.contains(n)) continue;
    const Json& v = body[n];
    if (v.is_string()) call.query.emplace_back(n, v.get<std::string>());
    else if (v.is_number() || v.is_boolean()) call.query.emplace_back(n, v.dump());
  }
}

Json without(Json body, std::initializer_list<const char*> names) {
  if (!body.is_object()) return Json::object();
  for (const char* n : names) body.erase(n);
  return body;
}

constexpr std::array<std::pair<std::string_view, int>, 10> kReasons = {{
    {"TASK_NOT_FOUND", -32001},
    {"TASK_NOT_CANCELABLE", -32002},
    {"PUSH_NOTIFICATION_NOT_SUPPORTED", -32003},
    {"UNSUPPORTED_OPERATION", -32004},
    {"CONTENT_TYPE_NOT_SUPPORTED", -32005},
    {"INVALID_AGENT_RESPONSE", -32006},
    {"EXTENDED_AGENT_CARD_NOT_CONFIGURED", -32007},
    {"AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED", -32007},
    {"EXTENSION_SUPPORT_REQUIRED", -32008},
    {"VERSION_NOT_SUPPORTED", -32009},
}};

int code_of_reason(const Json& details) {
  if (!details.is_array()) return 0;
  for (const auto& d : details) {
    if (!d.is_object() || !d.contains("reason") || !d["reason"].is_string()) continue;
    const auto reason = d["reason"].get<std::string>();
    for (const auto& [name, code] : kReasons)
      if (name == reason) return code;
  }
  return 0;
}

}  // namespace

RestCallV03 rest_call_v03(Operation op, const Json& v1_params) {
  RestCallV03 out;
  Json params = v1_params.is_object() ? v1_params : Json::object();
  params.erase("tenant");  // 0.3 has no tenant
  auto t = params_to_v03(op, params, Dialect::kProtoJson);
  out.notes = t.notes;
  Json body = std::move(t.json);
  RestCall& c = out.call;
  switch (op) {
    case Operation::kSendMessage:
    case Operation::kSendStreamingMessage:
      c.method = "POST";
      c.path = op == Operation::kSendMessage ? "/v1/message:send" : "/v1/message:stream";
      c.body = std::move(body);
      break;
    case Operation::kGetTask:
      c.method = "GET";
      c.path = "/v1/tasks/" + id_segment(params, "id", out.notes);
      add_query(c, body, {"historyLength"});
      break;
    case Operation::kCancelTask:
    case Operation::kSubscribeToTask:
      c.method = "POST";
      c.path = "/v1/tasks/" + id_segment(params, "id", out.notes) +
               (op == Operation::kCancelTask ? ":cancel" : ":subscribe");
      c.body = without(std::move(body), {"name", "id"});
      break;
    case Operation::kCreatePushConfig:
      c.method = "POST";
      c.path = "/v1/tasks/" + id_segment(params, "taskId", out.notes) + "/pushNotificationConfigs";
      c.body = body.is_object() && body.contains("config") ? body["config"] : body;
      break;
    case Operation::kGetPushConfig:
    case Operation::kDeletePushConfig:
      c.method = op == Operation::kGetPushConfig ? "GET" : "DELETE";
      c.path = "/v1/tasks/" + id_segment(params, "taskId", out.notes) + "/pushNotificationConfigs/" +
               id_segment(params, "id", out.notes);
      break;
    case Operation::kListPushConfigs:
      c.method = "GET";
      c.path = "/v1/tasks/" + id_segment(params, "taskId", out.notes) + "/pushNotificationConfigs";
      add_query(c, body, {"pageSize", "pageToken"});
      break;
    case Operation::kGetExtendedAgentCard:
      c.method = "GET";
      c.path = "/v1/card";
      break;
    case Operation::kListTasks:
      break;  // params_to_v03 noted it: no 0.3 form
  }
  return out;
}

int a2a_code_for_http_status(int s) {
  switch (s) {
    case 404: return -32001;
    case 409: return -32002;
    case 415: return -32005;
    case 400:
    case 422: return -32602;
    case 405: return -32601;
    case 501: return -32004;
    case 502: return -32006;
    default: return -32603;
  }
}

Json rest_error_v03(int http_status, const Json& body, std::string_view raw) {
  Json obj = body;
  if (obj.is_object() && obj.contains("error") && obj["error"].is_object()) obj = obj["error"];
  Json err = Json::object();
  int code = 0;
  if (obj.is_object() && obj.contains("code") && obj["code"].is_number_integer() && obj["code"].get<int>() < 0)
    code = obj["code"].get<int>();
  if (code == 0 && obj.is_object()) code = code_of_reason(obj.value("details", Json()));
  if (code == 0 && obj.is_object() && obj.contains("code") && obj["code"].is_number_integer() && http_status == 0)
    http_status = obj["code"].get<int>();  // an SSE error event carrying an HTTP-style code
  if (code == 0) code = a2a_code_for_http_status(http_status);
  err["code"] = code;
  if (obj.is_object() && obj.contains("message") && obj["message"].is_string())
    err["message"] = obj["message"];
  else
    err["message"] = std::string(raw.substr(0, 200));
  if (obj.is_object() && obj.contains("data")) err["data"] = obj["data"];
  return err;
}

}  // namespace a2a::model::v03
