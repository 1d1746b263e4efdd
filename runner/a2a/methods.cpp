#include "runner/a2a/methods.hpp"

#include <cstddef>

namespace a2a::model {
namespace {

struct OperationNames {
  Operation op;
  std::string_view p46;   // stdio-binding.md §3.5
  std::string_view v1;    // a2a-protocol.md §4.1; also the a2a.proto rpc name
  std::string_view acts;  // acts-specification.md §4.1
  bool streaming;
};

// ACTS names the push-config RPCs "CreatePushNotificationConfig" etc. in its
// mapping table; the spec and a2a.proto win (DESIGN.md), so v1 uses the
// proto names and only the abstract ACTS operation names are taken from ACTS.
constexpr std::array<OperationNames, 11> kNames = {{
    {Operation::kSendMessage, "message/send", "SendMessage", "send_message", false},
    {Operation::kSendStreamingMessage, "message/stream", "SendStreamingMessage", "send_streaming_message", true},
    {Operation::kGetTask, "tasks/get", "GetTask", "get_task", false},
    {Operation::kListTasks, "tasks/list", "ListTasks", "list_tasks", false},
    {Operation::kCancelTask, "tasks/cancel", "CancelTask", "cancel_task", false},
    {Operation::kSubscribeToTask, "tasks/subscribe", "SubscribeToTask", "subscribe_to_task", true},
    {Operation::kCreatePushConfig, "tasks/pushNotificationConfig/create", "CreateTaskPushNotificationConfig",
     "create_push_config", false},
    {Operation::kGetPushConfig, "tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig",
     "get_push_config", false},
    {Operation::kListPushConfigs, "tasks/pushNotificationConfig/list", "ListTaskPushNotificationConfigs",
     "list_push_configs", false},
    {Operation::kDeletePushConfig, "tasks/pushNotificationConfig/delete", "DeleteTaskPushNotificationConfig",
     "delete_push_config", false},
    {Operation::kGetExtendedAgentCard, "agent/extendedCard", "GetExtendedAgentCard", "get_extended_agent_card",
     false},
}};

constexpr bool names_follow_enum() {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (static_cast<std::size_t>(kNames[i].op) != i || kAllOperations[i] != kNames[i].op) return false;
  }
  return true;
}
static_assert(names_follow_enum(), "kNames must list Operation values in declaration order");

const OperationNames& names(Operation op) { return kNames[static_cast<std::size_t>(op)]; }

}  // namespace

std::string_view method_name(Operation op, MethodNaming naming) {
  return naming == MethodNaming::kP46 ? names(op).p46 : names(op).v1;
}

std::optional<Operation> operation_from_method(std::string_view method, MethodNaming naming) {
  for (const auto& n : kNames) {
    if ((naming == MethodNaming::kP46 ? n.p46 : n.v1) == method) return n.op;
  }
  return std::nullopt;
}

bool is_streaming(Operation op) { return names(op).streaming; }

std::string_view acts_name(Operation op) { return names(op).acts; }

std::optional<Operation> operation_from_acts(std::string_view name) {
  // ACTS's "get_agent_card" is an HTTP GET of the well-known card, not an
  // operation of any binding, so it has no Operation and maps to nullopt.
  for (const auto& n : kNames) {
    if (n.acts == name) return n.op;
  }
  return std::nullopt;
}

std::string_view canonical_name(Operation op) { return names(op).v1; }

}  // namespace a2a::model
