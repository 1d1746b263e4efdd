// Shared helpers and the enums TaskState and Role (a2a-protocol.md §3.1, §3.2,
// §9.1 rows "TaskState values", "Role values"; §9.2 for kProtoJson).
#include <array>
#include <cstddef>

#include "runner/a2a/v03_detail.hpp"

namespace a2a::model::v03 {
namespace detail {

void Ctx::note(std::string_view path, std::string_view problem) {
  std::string n(path);
  n += ": ";
  n += problem;
  notes.push_back(std::move(n));
}

Translation Ctx::done(Json json) && { return Translation{std::move(json), std::move(notes), final}; }

std::string member_path(std::string_view path, std::string_view member) {
  std::string out(path);
  out += '.';
  out += member;
  return out;
}

std::string index_path(std::string_view path, std::size_t i) {
  return std::string(path) + "[" + std::to_string(i) + "]";
}

std::string describe(const Json& j) {
  constexpr std::size_t kMax = 60;  // notes quote agent data; keep them one line
  switch (j.type()) {
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::null:
      return "null";
    default:
      break;
  }
  std::string text = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

Json take(Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end()) return nullptr;
  Json value = std::move(*it);
  obj.erase(it);
  return value;
}

void rename(Json& obj, const char* from, const char* to, std::string_view path, Ctx& c) {
  if (!obj.is_object() || !obj.contains(from)) return;
  if (obj.contains(to)) {
    c.note(member_path(path, from), std::string("kept beside ") + to + ", which takes its place");
    return;
  }
  obj[to] = take(obj, from);
}

void convert_member(Json& obj, const char* key, std::string_view path, Ctx& c, Convert fn) {
  auto it = obj.find(key);
  if (it == obj.end()) return;
  Json converted = fn(*it, member_path(path, key), c);
  *it = std::move(converted);
}

Json map_array(const Json& arr, const std::string& path, Ctx& c, Convert fn) {
  if (!arr.is_array()) {
    c.note(path, "must be an array, got " + describe(arr));
    return arr;
  }
  Json out = Json::array();
  for (std::size_t i = 0; i < arr.size(); ++i) out.push_back(fn(arr[i], index_path(path, i), c));
  return out;
}

void convert_each(Json& obj, const char* key, std::string_view path, Ctx& c, Convert fn) {
  auto it = obj.find(key);
  if (it == obj.end()) return;
  Json converted = map_array(*it, member_path(path, key), c, fn);
  *it = std::move(converted);
}

void drop_kind(Json& obj, std::string_view want, std::string_view path, Ctx& c) {
  const std::string where = member_path(path, "kind");
  const Json kind = take(obj, "kind");
  if (kind.is_null()) {
    if (c.rpc()) c.note(where, "missing; 0.3 JSON-RPC requires \"" + std::string(want) + "\"");
  } else if (!c.rpc()) {
    c.note(where, "not a member in 0.3 ProtoJSON");
  } else if (kind != want) {
    c.note(where, describe(kind) + " where \"" + std::string(want) + "\" was expected");
  }
}

void drop_false(Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it != obj.end() && *it == false) obj.erase(it);
}

bool expect_object(const Json& j, std::string_view path, Ctx& c) {
  if (j.is_object()) return true;
  c.note(path, "must be an object, got " + describe(j));
  return false;
}

bool take_spelled(Json& obj, const char* rpc_name, const char* proto_name, std::string_view path, Ctx& c, Json& value) {
  const char* own = c.rpc() ? rpc_name : proto_name;
  const char* foreign = c.rpc() ? proto_name : rpc_name;
  if (obj.contains(own)) {
    value = take(obj, own);
    return true;
  }
  if (std::string_view(own) == foreign || !obj.contains(foreign)) return false;
  c.note(member_path(path, foreign), std::string("is the ") + (c.rpc() ? "0.3 ProtoJSON" : "0.3 JSON-RPC") +
                                         " name; 0.3 " + (c.rpc() ? "JSON-RPC" : "ProtoJSON") + " uses " + own);
  value = take(obj, foreign);
  return true;
}

}  // namespace detail

namespace {

using detail::Ctx;
using detail::describe;
using detail::Json;
using detail::member_path;

struct Spellings {
  std::string_view rpc;
  std::string_view proto;
};
// Indexed by TaskState (= a2a.proto number). 0.3 proto spelled CANCELLED (§3.1, §9.2).
constexpr std::array<Spellings, 9> kStates = {{
    {"unknown", "TASK_STATE_UNSPECIFIED"},
    {"submitted", "TASK_STATE_SUBMITTED"},
    {"working", "TASK_STATE_WORKING"},
    {"completed", "TASK_STATE_COMPLETED"},
    {"failed", "TASK_STATE_FAILED"},
    {"canceled", "TASK_STATE_CANCELLED"},
    {"input-required", "TASK_STATE_INPUT_REQUIRED"},
    {"rejected", "TASK_STATE_REJECTED"},
    {"auth-required", "TASK_STATE_AUTH_REQUIRED"},
}};
constexpr std::array<Spellings, 3> kRoles = {
    {{"", "ROLE_UNSPECIFIED"}, {"user", "ROLE_USER"}, {"agent", "ROLE_AGENT"}}};

template <class Enum, std::size_t N>
std::optional<Enum> lookup(const std::array<Spellings, N>& table, std::string_view s, Dialect d) {
  for (std::size_t i = 0; i < N; ++i) {
    const std::string_view name = d == Dialect::kJsonRpc ? table[i].rpc : table[i].proto;
    if (!name.empty() && name == s) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

Dialect other(Dialect d) { return d == Dialect::kJsonRpc ? Dialect::kProtoJson : Dialect::kJsonRpc; }

std::string_view dialect_name(Dialect d) { return d == Dialect::kJsonRpc ? "0.3 JSON-RPC" : "0.3 ProtoJSON"; }

// A 0.3 enum value read in either dialect (and, as a last resort, as a 1.0
// name or a ProtoJSON integer); anything but the dialect's own spelling is noted.
template <class Enum, std::size_t N>
std::optional<Enum> read_enum(const std::array<Spellings, N>& table, const Json& j, const std::string& path, Ctx& c,
                              std::optional<Enum> (*v1_from)(std::string_view), std::string_view what) {
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (auto v = lookup<Enum>(table, s, c.dialect)) return v;
    if (auto v = lookup<Enum>(table, s, other(c.dialect))) {
      c.note(path, describe(j) + " is the " + std::string(dialect_name(other(c.dialect))) + " spelling");
      return v;
    }
    if (auto v = v1_from(s)) {
      c.note(path, describe(j) + " is a 1.0 name, not a 0.3 " + std::string(what));
      return v;
    }
  } else if (j.is_number_integer() && !c.rpc()) {
    const auto n = j.get<long long>();
    if (n >= 0 && n < static_cast<long long>(N)) return static_cast<Enum>(n);
  }
  c.note(path, "unknown 0.3 " + std::string(what) + " " + describe(j));
  return std::nullopt;
}

}  // namespace

std::string_view task_state_name(TaskState s, Dialect d) {
  const auto& n = kStates[static_cast<std::size_t>(s)];
  return d == Dialect::kJsonRpc ? n.rpc : n.proto;
}

std::optional<TaskState> task_state_from_v03(std::string_view s, Dialect d) { return lookup<TaskState>(kStates, s, d); }

std::string_view role_name(Role r, Dialect d) {
  const auto& n = kRoles[static_cast<std::size_t>(r)];
  return d == Dialect::kJsonRpc ? n.rpc : n.proto;
}

std::optional<Role> role_from_v03(std::string_view s, Dialect d) { return lookup<Role>(kRoles, s, d); }

namespace detail {

Json state_to_v1(const Json& s, const std::string& path, Ctx& c) {
  const auto state = read_enum<TaskState>(kStates, s, path, c, &model::task_state_from, "task state");
  return state ? Json(model::to_string(*state)) : s;
}

Json state_to_v03(const Json& s, const std::string& path, Ctx& c) {
  const auto state = model::task_state_from_json(s);
  if (!state) {
    c.note(path, "unknown 1.0 task state " + describe(s));
    return s;
  }
  return Json(task_state_name(*state, c.dialect));
}

Json role_to_v1(const Json& r, const std::string& path, Ctx& c) {
  const auto role = read_enum<Role>(kRoles, r, path, c, &model::role_from, "role");
  return role ? Json(model::to_string(*role)) : r;
}

Json role_to_v03(const Json& r, const std::string& path, Ctx& c) {
  const auto role = r.is_string() ? model::role_from(r.get_ref<const std::string&>()) : std::nullopt;
  const std::string_view name = role ? role_name(*role, c.dialect) : std::string_view{};
  if (name.empty()) {
    c.note(path, "no 0.3 role for " + describe(r));
    return r;
  }
  return Json(name);
}

}  // namespace detail

}  // namespace a2a::model::v03
