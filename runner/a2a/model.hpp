// The A2A 1.0 data model as the wire needs it (ProtoJSON names and enum
// spellings, a2a-protocol.md §2-3). Objects stay nlohmann::json: the product
// forwards, stores and compares wire JSON, and a typed mirror of a2a.proto
// would add a second place for every field name to drift.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace a2a::model {

using Json = nlohmann::json;

enum class TaskState {
  kUnspecified,
  kSubmitted,
  kWorking,
  kCompleted,
  kFailed,
  kCanceled,
  kInputRequired,
  kRejected,
  kAuthRequired,
};

std::string_view to_string(TaskState s);                    // "TASK_STATE_COMPLETED"
std::optional<TaskState> task_state_from(std::string_view s); // also accepts the proto integer as text? no: names only
std::optional<TaskState> task_state_from_json(const Json& j); // name or ProtoJSON integer
bool is_terminal(TaskState s);     // completed, failed, canceled, rejected
bool is_interrupted(TaskState s);  // input-required, auth-required

enum class Role { kUnspecified, kUser, kAgent };
std::string_view to_string(Role r);  // "ROLE_USER"
std::optional<Role> role_from(std::string_view s);

// RFC 3339 UTC timestamp with milliseconds and 'Z' ("2026-01-02T03:04:05.678Z").
std::string now_timestamp();
// Parses RFC 3339 with 'Z' or an offset and 0-9 fraction digits; epoch milliseconds.
std::optional<long long> parse_timestamp_ms(std::string_view s);

// Builders (only non-default fields are written, as ProtoJSON does).
Json text_part(std::string_view text);
Json make_message(std::string_view role_name, std::string_view message_id, const Json& parts,
                  std::string_view context_id = {}, std::string_view task_id = {});
Json make_status(TaskState s, const Json& message = nullptr);  // adds timestamp
Json make_task(std::string_view id, std::string_view context_id, const Json& status);
Json status_update(std::string_view task_id, std::string_view context_id, const Json& status);
Json artifact_update(std::string_view task_id, std::string_view context_id, const Json& artifact,
                     bool append, bool last_chunk);

// Wrappers: {"task":...}, {"message":...}, {"statusUpdate":...}, {"artifactUpdate":...}.
Json wrap_task(const Json& task);
Json wrap_message(const Json& message);
Json wrap_status_update(const Json& ev);
Json wrap_artifact_update(const Json& ev);
// The single member name of a StreamResponse / SendMessageResponse, or "" if
// the object is not exactly one of the allowed members.
std::string stream_response_kind(const Json& j);
std::string send_message_response_kind(const Json& j);  // "task" | "message" | ""

// Validation of client input, returning "" when valid, else what is wrong
// with a JSON path ("message.parts[0]: exactly one of text, raw, url, data").
std::string validate_message(const Json& m, std::string_view path = "message");
std::string validate_part(const Json& p, std::string_view path);

}  // namespace a2a::model
