// Message, Artifact, TaskStatus, Task, the two update events and the stream /
// SendMessage result shapes (a2a-protocol.md §3.4-3.8; §9.1 rows
// "Polymorphism", "SendMessage result", "Stream item", "End of stream").
#include "runner/a2a/v03_detail.hpp"

namespace a2a::model::v03 {
namespace detail {
namespace {

Json status_to_v1(const Json& s, const std::string& path, Ctx& c) {
  if (!expect_object(s, path, c)) return s;
  Json out = s;
  // The 0.3 proto field is `update` with json_name "message"; ProtoJSON readers take both.
  if (!c.rpc() && !out.contains("message") && out.contains("update")) out["message"] = take(out, "update");
  convert_member(out, "state", path, c, state_to_v1);
  convert_member(out, "message", path, c, message_to_v1);
  return out;
}

Json status_to_v03(const Json& s, const std::string& path, Ctx& c) {
  if (!expect_object(s, path, c)) return s;
  Json out = s;
  // 0.3 requires a state; 1.0 ProtoJSON omits TASK_STATE_UNSPECIFIED.
  if (!out.contains("state")) out["state"] = model::to_string(TaskState::kUnspecified);
  convert_member(out, "state", path, c, state_to_v03);
  convert_member(out, "message", path, c, message_to_v03);
  return out;
}

Json status_update_to_v1(const Json& e, const std::string& path, Ctx& c) {
  if (!expect_object(e, path, c)) return e;
  Json out = e;
  drop_kind(out, "status-update", path, c);
  convert_member(out, "status", path, c, status_to_v1);
  const Json fin = take(out, "final");
  if (fin.is_boolean()) {
    c.final = fin.get<bool>();
  } else if (!fin.is_null()) {
    c.note(member_path(path, "final"), "must be a boolean, got " + describe(fin));
  } else if (c.rpc()) {  // ProtoJSON omits false; JSON-RPC requires the member
    c.note(member_path(path, "final"), "missing; 0.3 requires a boolean");
  }
  return out;
}

// final:true when the 1.0 state ends the stream: terminal or interrupted (§4.5, §10 C2).
Json status_update_to_v03(const Json& e, const std::string& path, Ctx& c) {
  if (!expect_object(e, path, c)) return e;
  Json out = e;
  const Json* state = out.contains("status") && out["status"].is_object() ? &out["status"] : nullptr;
  const auto s = state && state->contains("state") ? model::task_state_from_json((*state)["state"]) : std::nullopt;
  c.final = s && (model::is_terminal(*s) || model::is_interrupted(*s));
  convert_member(out, "status", path, c, status_to_v03);
  if (c.rpc()) out["kind"] = "status-update";
  if (c.rpc() || c.final)
    out["final"] = c.final;
  else
    out.erase("final");
  return out;
}

Json artifact_update_to_v1(const Json& e, const std::string& path, Ctx& c) {
  if (!expect_object(e, path, c)) return e;
  Json out = e;
  drop_kind(out, "artifact-update", path, c);
  convert_member(out, "artifact", path, c, artifact_to_v1);
  drop_false(out, "append");
  drop_false(out, "lastChunk");
  return out;
}

Json artifact_update_to_v03(const Json& e, const std::string& path, Ctx& c) {
  if (!expect_object(e, path, c)) return e;
  Json out = e;
  convert_member(out, "artifact", path, c, artifact_to_v03);
  if (c.rpc()) out["kind"] = "artifact-update";
  return out;
}

// StreamResponse member name for a 0.3 `kind`.
std::string wrapper_for_kind(std::string_view kind) {
  if (kind == "task" || kind == "message") return std::string(kind);
  if (kind == "status-update") return "statusUpdate";
  if (kind == "artifact-update") return "artifactUpdate";
  return {};
}

// Without a kind, the members say what an event is.
std::string infer_wrapper(const Json& e) {
  if (e.contains("messageId") && e.contains("role")) return "message";
  if (e.contains("artifact")) return "artifactUpdate";
  if (e.contains("taskId") && e.contains("status")) return "statusUpdate";
  if (e.contains("id") && e.contains("status")) return "task";
  return {};
}

Convert inner_to_v1(std::string_view key) {
  if (key == "task") return task_to_v1;
  if (key == "message") return message_to_v1;
  if (key == "statusUpdate") return status_update_to_v1;
  return artifact_update_to_v1;
}

Convert inner_to_v03(std::string_view key) {
  if (key == "task") return task_to_v03;
  if (key == "message") return message_to_v03;
  if (key == "statusUpdate") return status_update_to_v03;
  return artifact_update_to_v03;
}

// A bare 0.3 item (kind, or members when kind is missing) -> its wrapper key.
std::string bare_item_key(const Json& e, const std::string& path, Ctx& c) {
  const auto kind = e.find("kind");
  std::string key;
  if (kind != e.end()) {
    key = kind->is_string() ? wrapper_for_kind(kind->get_ref<const std::string&>()) : "";
    if (key.empty()) c.note(member_path(path, "kind"), "unknown 0.3 event kind " + describe(*kind));
  } else {
    key = infer_wrapper(e);
    if (c.rpc()) c.note(member_path(path, "kind"), key.empty() ? "missing" : "missing; read as " + key);
  }
  if (!c.rpc()) c.note(path, key.empty() ? "not a StreamResponse" : "not a StreamResponse wrapper; read as " + key);
  return key;
}

}  // namespace

Json message_to_v1(const Json& m, const std::string& path, Ctx& c) {
  if (!expect_object(m, path, c)) return m;
  Json out = m;
  drop_kind(out, "message", path, c);
  convert_member(out, "role", path, c, role_to_v1);
  Json parts;
  if (take_spelled(out, "parts", "content", path, c, parts)) out["parts"] = std::move(parts);
  convert_each(out, "parts", path, c, part_to_v1);
  return out;
}

Json message_to_v03(const Json& m, const std::string& path, Ctx& c) {
  if (!expect_object(m, path, c)) return m;
  Json out = m;
  if (c.rpc()) out["kind"] = "message";
  convert_member(out, "role", path, c, role_to_v03);
  convert_each(out, "parts", path, c, part_to_v03);
  if (!c.rpc() && out.contains("parts")) out["content"] = take(out, "parts");
  return out;
}

Json artifact_to_v1(const Json& a, const std::string& path, Ctx& c) {
  if (!expect_object(a, path, c)) return a;
  Json out = a;
  convert_each(out, "parts", path, c, part_to_v1);
  return out;
}

Json artifact_to_v03(const Json& a, const std::string& path, Ctx& c) {
  if (!expect_object(a, path, c)) return a;
  Json out = a;
  convert_each(out, "parts", path, c, part_to_v03);
  return out;
}

Json task_to_v1(const Json& t, const std::string& path, Ctx& c) {
  if (!expect_object(t, path, c)) return t;
  Json out = t;
  drop_kind(out, "task", path, c);
  convert_member(out, "status", path, c, status_to_v1);
  convert_each(out, "artifacts", path, c, artifact_to_v1);
  convert_each(out, "history", path, c, message_to_v1);
  return out;
}

Json task_to_v03(const Json& t, const std::string& path, Ctx& c) {
  if (!expect_object(t, path, c)) return t;
  Json out = t;
  if (c.rpc()) out["kind"] = "task";
  convert_member(out, "status", path, c, status_to_v03);
  convert_each(out, "artifacts", path, c, artifact_to_v03);
  convert_each(out, "history", path, c, message_to_v03);
  return out;
}

Json event_to_v1(const Json& e, const std::string& path, Ctx& c) {
  if (!expect_object(e, path, c)) return e;
  const std::string wrapped = model::stream_response_kind(e);
  if (!wrapped.empty() && !e.contains("kind")) {
    if (c.rpc()) c.note(path, "a StreamResponse wrapper; 0.3 JSON-RPC sends the bare object with its kind");
    return Json{{wrapped, inner_to_v1(wrapped)(e[wrapped], member_path(path, wrapped), c)}};
  }
  const std::string key = bare_item_key(e, path, c);
  if (key.empty()) return e;
  return Json{{key, inner_to_v1(key)(e, path, c)}};
}

Json event_to_v03(const Json& e, const std::string& path, Ctx& c) {
  const std::string key = model::stream_response_kind(e);
  if (key.empty()) {
    c.note(path, "must be a StreamResponse: exactly one of task, message, statusUpdate, artifactUpdate");
    return e;
  }
  Json inner = inner_to_v03(key)(e[key], member_path(path, key), c);
  return c.rpc() ? inner : Json{{key, std::move(inner)}};
}

Json send_result_to_v1(const Json& r, const std::string& path, Ctx& c) {
  Json out = event_to_v1(r, path, c);
  const std::string key = model::stream_response_kind(out);
  if (!key.empty() && key != "task" && key != "message") c.note(path, "must be a Task or a Message, got " + key);
  return out;
}

Json send_result_to_v03(const Json& r, const std::string& path, Ctx& c) {
  if (model::send_message_response_kind(r).empty()) {
    c.note(path, "must be a SendMessageResponse: exactly one of task, message");
    return r;
  }
  return event_to_v03(r, path, c);
}

}  // namespace detail

Translation message_to_v1(const nlohmann::json& message, Dialect d) {
  detail::Ctx c{d};
  detail::Json out = detail::message_to_v1(message, "message", c);
  return std::move(c).done(std::move(out));
}

Translation message_to_v03(const nlohmann::json& message, Dialect d) {
  detail::Ctx c{d};
  detail::Json out = detail::message_to_v03(message, "message", c);
  return std::move(c).done(std::move(out));
}

Translation task_to_v1(const nlohmann::json& task, Dialect d) {
  detail::Ctx c{d};
  detail::Json out = detail::task_to_v1(task, "task", c);
  return std::move(c).done(std::move(out));
}

Translation task_to_v03(const nlohmann::json& task, Dialect d) {
  detail::Ctx c{d};
  detail::Json out = detail::task_to_v03(task, "task", c);
  return std::move(c).done(std::move(out));
}

Translation event_to_v1(const nlohmann::json& event, Dialect d) {
  detail::Ctx c{d};
  detail::Json out = detail::event_to_v1(event, "event", c);
  return std::move(c).done(std::move(out));
}

Translation event_to_v03(const nlohmann::json& stream_response, Dialect d) {
  detail::Ctx c{d};
  detail::Json out = detail::event_to_v03(stream_response, "event", c);
  return std::move(c).done(std::move(out));
}

}  // namespace a2a::model::v03
