// The 11 A2A operations and their names per binding profile
// (a2a-protocol.md §4.1, stdio-binding.md §3.5).
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace a2a::model {

enum class Operation {
  kSendMessage,
  kSendStreamingMessage,
  kGetTask,
  kListTasks,
  kCancelTask,
  kSubscribeToTask,
  kCreatePushConfig,
  kGetPushConfig,
  kListPushConfigs,
  kDeletePushConfig,
  kGetExtendedAgentCard,
};

inline constexpr std::array<Operation, 11> kAllOperations = {
    Operation::kSendMessage,      Operation::kSendStreamingMessage, Operation::kGetTask,
    Operation::kListTasks,        Operation::kCancelTask,           Operation::kSubscribeToTask,
    Operation::kCreatePushConfig, Operation::kGetPushConfig,        Operation::kListPushConfigs,
    Operation::kDeletePushConfig, Operation::kGetExtendedAgentCard};

// Method naming schemes.
enum class MethodNaming {
  kP46,       // slash names of a2a-rs PR #46: message/send, tasks/get, agent/extendedCard, ...
  kV1,        // A2A 1.0 JSON-RPC PascalCase: SendMessage, GetTask, ...
};

std::string_view method_name(Operation op, MethodNaming naming);
std::optional<Operation> operation_from_method(std::string_view method, MethodNaming naming);
bool is_streaming(Operation op);  // SendStreamingMessage, SubscribeToTask
// ACTS abstract operation name ("send_message", "get_task", ...; ACTS §4.1).
std::string_view acts_name(Operation op);
std::optional<Operation> operation_from_acts(std::string_view name);
// Proto-style name used in docs and reports ("SendMessage").
std::string_view canonical_name(Operation op);

// P46 stream notification methods.
inline constexpr std::string_view kP46StreamEvent = "event/streamResponse";
inline constexpr std::string_view kP46StreamError = "event/streamError";

}  // namespace a2a::model
