// Internal to the agent core: the shared state and one function per
// operation, split over send_message.cpp, task_ops.cpp, list_tasks.cpp,
// push_configs.cpp and agent_card.cpp. Not a public header.
#pragma once

#include <string>
#include <variant>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "peers/a2a-ref-agent/behaviour.hpp"
#include "peers/a2a-ref-agent/scheduler.hpp"
#include "peers/a2a-ref-agent/task_store.hpp"

namespace a2a::agent {

// The store's push hook: the config's sink with the push faults applied.
TaskStore::PushHook push_hook(const AgentConfig& config);
// A TaskPushNotificationConfig (Create params or SendMessage's
// configuration.taskPushNotificationConfig) in its stored form for `task_id`.
std::optional<CallError> normalize_push_config(const Json& cfg, const std::string& task_id, Json& out);

struct CoreState {
  explicit CoreState(AgentConfig c) : config(std::move(c)) {
    PlanSettings cli;
    cli.long_running = config.long_running;
    plan_settings = config.choices->plan_settings(cli);
    store.set_choices(config.choices);
    if (config.push_sink) store.set_push_hook(push_hook(config));
    AgentConfig declared = config;
    declared.faults = Faults{};  // the card faults break the card, not the operations
    Json caps = agent_card(declared).value("capabilities", Json::object());
    push_supported = caps.is_object() && caps.value("pushNotifications", false);
    extended_card_supported = caps.is_object() && caps.value("extendedAgentCard", false);
  }
  bool fault(Fault f) const { return config.faults.has(f); }
  std::string new_id(IdKind kind) const { return config.choices->new_id(kind); }
  // A behaviour's plan for a turn, shaped by the choices, its artifacts with ids the choices give.
  TurnPlan plan_turn(Behaviour b, int turn, std::string_view text) const;

  AgentConfig config;
  PlanSettings plan_settings;
  // What the card declares (§3.3.4: an operation of a capability not
  // declared answers the error the spec prescribes).
  bool push_supported = true;
  bool extended_card_supported = true;
  TaskStore store;
  // Declared after the store: destroyed first, so no job outlives the store.
  Scheduler scheduler;
};

// PushNotificationNotSupportedError unless the card declares pushNotifications.
std::optional<CallError> check_push_supported(const CoreState& st);

CallResult send_message(CoreState& st, const Json& params);
// send_message() with its result serialized, the task written straight from
// the store; only where no output fault or choice reshapes results.
std::variant<std::string, CallError> send_message_text(CoreState& st, const Json& params);
// The same for params the caller gives up: the user message is moved into
// the task's history rather than copied.
std::variant<std::string, CallError> send_message_text(CoreState& st, Json&& params);
// False when send_message() certainly answers without waiting for the task.
bool send_may_block(const CoreState& st, const Json& params);
StreamOpen send_streaming_message(CoreState& st, const Json& params);
CallResult get_task(CoreState& st, const Json& params);
CallResult list_tasks(CoreState& st, const Json& params);
CallResult cancel_task(CoreState& st, const Json& params);
StreamOpen subscribe_to_task(CoreState& st, const Json& params);
CallResult create_push_config(CoreState& st, const Json& params);
CallResult get_push_config(CoreState& st, const Json& params);
CallResult list_push_configs(CoreState& st, const Json& params);
CallResult delete_push_config(CoreState& st, const Json& params);
CallResult get_extended_agent_card(CoreState& st, const Json& params);

}  // namespace a2a::agent
