// Internals shared by the v03_*.cpp files (not part of the module's API).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/a2a/v03.hpp"

namespace a2a::model::v03::detail {

using Json = nlohmann::json;

// One translation in progress: the dialect of the 0.3 side and the notes so far.
struct Ctx {
  explicit Ctx(Dialect d = Dialect::kJsonRpc) : dialect(d) {}

  Dialect dialect;
  std::vector<std::string> notes;
  bool final = false;

  bool rpc() const { return dialect == Dialect::kJsonRpc; }
  void note(std::string_view path, std::string_view problem);
  Translation done(Json json) &&;
};

// A converter of one JSON value at a path.
using Convert = Json (*)(const Json&, const std::string&, Ctx&);

std::string member_path(std::string_view path, std::string_view member);
std::string index_path(std::string_view path, std::size_t i);
// "\"text\"" / "an array": how a value is named in a note.
std::string describe(const Json& j);

// Removes `key` and returns its value (null when absent).
Json take(Json& obj, const char* key);
// Moves `from` to `to` when present (overwriting nothing: a note when both exist).
void rename(Json& obj, const char* from, const char* to, std::string_view path, Ctx& c);
// obj[key] = fn(obj[key]) when present.
void convert_member(Json& obj, const char* key, std::string_view path, Ctx& c, Convert fn);
// Each element of an array through fn; a non-array is noted and returned as is.
Json map_array(const Json& arr, const std::string& path, Ctx& c, Convert fn);
// Each element of obj[key] through fn; a non-array is noted and kept.
void convert_each(Json& obj, const char* key, std::string_view path, Ctx& c, Convert fn);
// Removes `kind` and checks it against `want` (kJsonRpc requires it; kProtoJson has none).
void drop_kind(Json& obj, std::string_view want, std::string_view path, Ctx& c);
// Removes `key` when it holds false (ProtoJSON omits defaults).
void drop_false(Json& obj, const char* key);
// True for an object; otherwise a note "must be an object".
bool expect_object(const Json& j, std::string_view path, Ctx& c);
// Takes the member spelled `rpc_name` (kJsonRpc) or `proto_name` (kProtoJson)
// into `value`; the other dialect's spelling is taken too, with a note. False
// when neither is present.
bool take_spelled(Json& obj, const char* rpc_name, const char* proto_name, std::string_view path, Ctx& c, Json& value);

// Data model (v03_model.cpp, v03_parts.cpp). Paths name the value itself.
Json part_to_v1(const Json& p, const std::string& path, Ctx& c);
Json part_to_v03(const Json& p, const std::string& path, Ctx& c);
Json state_to_v1(const Json& s, const std::string& path, Ctx& c);
Json state_to_v03(const Json& s, const std::string& path, Ctx& c);
Json role_to_v1(const Json& r, const std::string& path, Ctx& c);
Json role_to_v03(const Json& r, const std::string& path, Ctx& c);
Json message_to_v1(const Json& m, const std::string& path, Ctx& c);
Json message_to_v03(const Json& m, const std::string& path, Ctx& c);
Json artifact_to_v1(const Json& a, const std::string& path, Ctx& c);
Json artifact_to_v03(const Json& a, const std::string& path, Ctx& c);
Json task_to_v1(const Json& t, const std::string& path, Ctx& c);
Json task_to_v03(const Json& t, const std::string& path, Ctx& c);
Json event_to_v1(const Json& e, const std::string& path, Ctx& c);
Json event_to_v03(const Json& e, const std::string& path, Ctx& c);
// SendMessage result: bare Task/Message (kJsonRpc) or wrapper (kProtoJson) <-> wrapper.
Json send_result_to_v1(const Json& r, const std::string& path, Ctx& c);
Json send_result_to_v03(const Json& r, const std::string& path, Ctx& c);

// Push configs (v03_push.cpp).
// 0.3 PushNotificationConfig {id,url,token,authentication{schemes}} <-> the
// 1.0 TaskPushNotificationConfig members (no taskId).
Json push_config_to_v1(const Json& p, const std::string& path, Ctx& c);
Json push_config_to_v03(const Json& p, const std::string& path, Ctx& c);
// 0.3 TaskPushNotificationConfig ({taskId|name, pushNotificationConfig}) <-> flattened 1.0.
Json task_push_config_to_v1(const Json& p, const std::string& path, Ctx& c);
Json task_push_config_to_v03(const Json& p, const std::string& path, Ctx& c);
Json push_list_to_v1(const Json& r, const std::string& path, Ctx& c);
Json push_list_to_v03(const Json& r, const std::string& path, Ctx& c);
// "tasks/{id}" and "tasks/{id}/pushNotificationConfigs/{cid}" resource names (kProtoJson).
std::string task_name(std::string_view task_id);
std::string push_config_name(std::string_view task_id, std::string_view config_id);
// Splits a resource name into its ids; false when it is not one.
bool parse_task_name(std::string_view name, std::string& task_id);
bool parse_push_config_name(std::string_view name, std::string& task_id, std::string& config_id);

// Agent card (v03_card.cpp) and its security members (v03_security.cpp).
Json card_to_v1(const Json& card, const std::string& path, Ctx& c);
Json card_to_v03(const Json& card, const std::string& path, Ctx& c);
Json security_to_v1(const Json& reqs, const std::string& path, Ctx& c);
Json security_to_v03(const Json& reqs, const std::string& path, Ctx& c);
Json scheme_to_v1(const Json& s, const std::string& path, Ctx& c);
Json scheme_to_v03(const Json& s, const std::string& path, Ctx& c);

}  // namespace a2a::model::v03::detail
