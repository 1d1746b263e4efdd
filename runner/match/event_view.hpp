// One streaming event seen through its layers, so assertions can name fields
// wherever they live. Accepted shapes:
//   A2A 1.0 StreamResponse          {"statusUpdate": {...}}  (one of task,
//                                   message, statusUpdate, artifactUpdate)
//   A2A 0.3 kind-tagged object      {"kind": "status-update", ...}
//   either inside a JSON-RPC response {"jsonrpc": "2.0", "id": 1, "result": ...}
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace a2a::match {

using Json = nlohmann::json;

enum class EventKind { kUnknown, kTask, kMessage, kStatusUpdate, kArtifactUpdate };

struct EventView {
  const Json* envelope = nullptr;  // the JSON-RPC response, when the event came wrapped
  const Json* response = nullptr;  // the StreamResponse (or the 0.3 object)
  const Json* payload = nullptr;   // the Task / Message / TaskStatusUpdateEvent / TaskArtifactUpdateEvent
  EventKind kind = EventKind::kUnknown;
  std::string response_path;  // relative to the event: "result" or ""
  std::string payload_path;   // "result.statusUpdate", "statusUpdate", "" (0.3)
};

EventView view_event(const Json& event);

// ACTS payload keys: "task", "message", "status_update", "artifact_update".
std::string_view acts_key(EventKind kind);  // "unknown" for kUnknown
std::optional<EventKind> kind_from_acts_key(std::string_view key);

// The task state an event reports (task.status.state or
// statusUpdate.status.state), normalised: 0.3 "input-required" and 1.0
// "TASK_STATE_INPUT_REQUIRED" both give "TASK_STATE_INPUT_REQUIRED".
std::optional<std::string> event_task_state(const EventView& view);
std::string normalize_task_state(std::string_view state);

}  // namespace a2a::match
