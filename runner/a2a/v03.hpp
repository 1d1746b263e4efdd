// A2A 0.3 <-> 1.0 wire translation (a2a-protocol.md §9, docs/a2a-0.3.md).
// Pure JSON functions, no I/O. Two users: the reference agent serving 0.3
// clients beside 1.0 (0.3 request -> 1.0 -> core -> 1.0 result -> 0.3 result)
// and the runner certifying 0.3 agents (1.0 request -> 0.3 wire -> agent ->
// 0.3 answer -> 1.0 for the assertions).
//
// Nothing here throws on input of the wrong shape: agent misbehaviour is data
// (DESIGN.md). Every function returns the best-effort translation plus notes
// "path: problem"; members a function does not know are carried over
// unchanged, so a 1.0 -> 0.3 -> 1.0 round trip gives back canonical input.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/a2a/methods.hpp"
#include "runner/a2a/model.hpp"
#include "runner/core/expected.hpp"

namespace a2a::model::v03 {

// Which 0.3 object shapes a body uses (a2a-protocol.md §9.1, §9.2).
enum class Dialect {
  // 0.3 JSON-RPC shapes (types.ts): `kind` discriminators, "input-required",
  // "user", file {bytes|uri, mimeType, name}, bare Task/Message results.
  // The JS SDK also uses these shapes for its 0.3 REST bodies.
  kJsonRpc,
  // ProtoJSON of the 0.3 proto (package a2a.v1), used by 0.3 REST in the
  // Python SDK: TASK_STATE_CANCELLED, ROLE_USER, Message.content, file
  // {fileWithUri|fileWithBytes}, data {data:{...}}, {task}/{message} wrappers,
  // resource names ("tasks/{id}") in request messages.
  kProtoJson,
};

struct Translation {
  nlohmann::json json;             // the translated document (best effort when notes exist)
  std::vector<std::string> notes;  // "result.status.state: unknown 0.3 state \"done\""; empty = clean
  // Stream events only: the 0.3 event is a status-update with final:true (read
  // from the 0.3 input, or written because the 1.0 state is terminal or interrupted).
  bool final = false;
  bool ok() const { return notes.empty(); }
};

// --- method names (§9.1 "Method names") -----------------------------------------
// 0.3 JSON-RPC method of an operation; ListTasks has none (error, kind kNotFound).
core::Expected<std::string_view> v03_method(Operation op);
std::optional<Operation> operation_from_v03_method(std::string_view method);
// Name to name: "SendMessage" -> "message/send" and back; unknown names and
// ListTasks are errors.
core::Expected<std::string_view> method_to_v03(std::string_view v1_method);
core::Expected<std::string_view> method_to_v1(std::string_view v03_method);

// --- enums ---------------------------------------------------------------------
// "input-required" (kJsonRpc) / "TASK_STATE_CANCELLED" (kProtoJson); unspecified
// is "unknown" / "TASK_STATE_UNSPECIFIED".
std::string_view task_state_name(TaskState s, Dialect d = Dialect::kJsonRpc);
std::optional<TaskState> task_state_from_v03(std::string_view s, Dialect d = Dialect::kJsonRpc);
std::string_view role_name(Role r, Dialect d = Dialect::kJsonRpc);  // "" for kUnspecified in kJsonRpc
std::optional<Role> role_from_v03(std::string_view s, Dialect d = Dialect::kJsonRpc);

// --- data model (§3 for 1.0; §9.1 rows Polymorphism..Data part) --------------------
Translation part_to_v1(const nlohmann::json& part, Dialect d = Dialect::kJsonRpc);
Translation part_to_v03(const nlohmann::json& part, Dialect d = Dialect::kJsonRpc);
Translation message_to_v1(const nlohmann::json& message, Dialect d = Dialect::kJsonRpc);
Translation message_to_v03(const nlohmann::json& message, Dialect d = Dialect::kJsonRpc);
Translation task_to_v1(const nlohmann::json& task, Dialect d = Dialect::kJsonRpc);
Translation task_to_v03(const nlohmann::json& task, Dialect d = Dialect::kJsonRpc);

// --- stream events (§9.1 "Stream item", "End of stream") ---------------------------
// 0.3 item (bare Task/Message/status-update/artifact-update with kind, or a
// kProtoJson StreamResponse) -> 1.0 StreamResponse wrapper; `final` reports
// the 0.3 final flag. Also reads 0.3 webhook bodies (a bare event).
Translation event_to_v1(const nlohmann::json& event, Dialect d = Dialect::kJsonRpc);
// 1.0 StreamResponse -> 0.3 item; a status-update in a terminal or interrupted
// state gets final:true (and `final`), every other status-update final:false.
Translation event_to_v03(const nlohmann::json& stream_response, Dialect d = Dialect::kJsonRpc);

// --- requests and results per operation (§9.1 rows SendMessage params..Push list result)
// JSON-RPC `params` (kJsonRpc) or the 0.3 proto request message (kProtoJson).
// ListTasks has no 0.3 form: the input comes back unchanged with a note.
Translation params_to_v1(Operation op, const nlohmann::json& params, Dialect d = Dialect::kJsonRpc);
Translation params_to_v03(Operation op, const nlohmann::json& params, Dialect d = Dialect::kJsonRpc);
// JSON-RPC `result` / REST response body. Streaming operations take one event.
Translation result_to_v1(Operation op, const nlohmann::json& result, Dialect d = Dialect::kJsonRpc);
Translation result_to_v03(Operation op, const nlohmann::json& result, Dialect d = Dialect::kJsonRpc);

// --- errors (§6.1, §6.4, §9.1 "JSON-RPC error data", "A2A error codes") ------------
// JSON-RPC error objects {code, message, data?}. Codes are kept (-32001..-32007
// mean the same in both versions; -32008/-32009 have no 0.3 name and are kept
// with a note). 0.3 free-form `data` becomes one google.protobuf.Value detail;
// error_to_v03 unwraps it again and keeps any other 1.0 detail list as is.
Translation error_to_v1(const nlohmann::json& error);
Translation error_to_v03(const nlohmann::json& error);

// --- agent card (§3.12, §9.1 rows Card endpoints..OAuth flows, §9.3) ---------------
Translation card_to_v1(const nlohmann::json& card);
// 0.3 endpoints come from the interfaces whose protocolVersion is 0.x; kProtoJson
// keeps the 1.0-style security shapes the 0.3 proto shares with 1.0.
Translation card_to_v03(const nlohmann::json& card, Dialect d = Dialect::kJsonRpc);

}  // namespace a2a::model::v03
