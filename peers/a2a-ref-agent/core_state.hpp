// Internal to the agent core: the shared state and one function per
// operation, split over send_message.cpp, task_ops.cpp, list_tasks.cpp,
// push_configs.cpp and agent_card.cpp. Not a public header.
#pragma once

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
    plan.long_running = config.long_running;
    if (config.push_sink) store.set_push_hook(push_hook(config));
  }
  bool fault(Fault f) const { return config.faults.has(f); }

  AgentConfig config;
  PlanSettings plan;
  TaskStore store;
  // Declared after the store: destroyed first, so no job outlives the store.
  Scheduler scheduler;
};

CallResult send_message(CoreState& st, const Json& params);
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
