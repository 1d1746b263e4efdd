#include "runner/match/event_view.hpp"

#include <array>
#include <cctype>
#include <utility>

namespace a2a::match {
namespace {

struct KindNames {
  EventKind kind;
  std::string_view acts;    // ACTS event-assertion key
  std::string_view member;  // A2A 1.0 StreamResponse member
  std::string_view tag;     // A2A 0.3 `kind`
};

constexpr std::array kKinds{
    KindNames{EventKind::kTask, "task", "task", "task"},
    KindNames{EventKind::kMessage, "message", "message", "message"},
    KindNames{EventKind::kStatusUpdate, "status_update", "statusUpdate", "status-update"},
    KindNames{EventKind::kArtifactUpdate, "artifact_update", "artifactUpdate", "artifact-update"},
};

void classify_response(const Json& response, EventView& v) {
  if (!response.is_object()) return;
  for (const auto& k : kKinds) {
    auto it = response.find(k.member);
    if (it != response.end() && it->is_object()) {
      v.kind = k.kind;
      v.payload = &*it;
      v.payload_path = v.response_path.empty() ? std::string(k.member)
                                               : v.response_path + "." + std::string(k.member);
      return;
    }
  }
  auto tag = response.find("kind");
  if (tag == response.end() || !tag->is_string()) return;
  for (const auto& k : kKinds) {
    if (*tag == k.tag) {
      v.kind = k.kind;
      v.payload = &response;
      v.payload_path = v.response_path;
      return;
    }
  }
}

}  // namespace

EventView view_event(const Json& event) {
  EventView v;
  v.response = &event;
  if (event.is_object() && event.contains("jsonrpc")) {
    v.envelope = &event;
    auto result = event.find("result");
    if (result == event.end()) return v;  // an error response: no A2A payload
    v.response = &*result;
    v.response_path = "result";
  }
  classify_response(*v.response, v);
  return v;
}

std::string_view acts_key(EventKind kind) {
  for (const auto& k : kKinds) {
    if (k.kind == kind) return k.acts;
  }
  return "unknown";
}

std::optional<EventKind> kind_from_acts_key(std::string_view key) {
  for (const auto& k : kKinds) {
    if (k.acts == key) return k.kind;
  }
  return std::nullopt;
}

std::optional<std::string> event_task_state(const EventView& v) {
  if (v.kind != EventKind::kTask && v.kind != EventKind::kStatusUpdate) return std::nullopt;
  auto status = v.payload->find("status");
  if (status == v.payload->end() || !status->is_object()) return std::nullopt;
  auto state = status->find("state");
  if (state == status->end() || !state->is_string()) return std::nullopt;
  return normalize_task_state(state->get<std::string>());
}

std::string normalize_task_state(std::string_view state) {
  std::string out;
  for (char c : state) out += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (!out.starts_with("TASK_STATE_")) out = "TASK_STATE_" + out;
  return out;
}

}  // namespace a2a::match
