// Runs one scenario against a fresh agent process: spawn, handshake, steps,
// teardown, and the ScenarioResult with transcript, stderr and exit status.
// A watchdog enforces the scenario deadline: when it expires every wait wakes,
// the agent's process group is killed, and the result is TIMEOUT — the run
// goes on.
#pragma once

#include <optional>

#include "runner/engine/agent_connection.hpp"
#include "runner/engine/config.hpp"
#include "runner/result/result.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

// Why a test cannot run here (binding, profile, preconditions, behaviours,
// runner requirements, raw/client steps); "" when it can.
std::string skip_reason(const scenario::Test& test, const RunConfig& config);

// With --reuse, one worker's agent process carried from scenario to scenario
// (only for tests whose x-reuse is true, and only while each leaves it clean).
struct AgentSlot {
  std::unique_ptr<AgentConnection> conn;
  std::string session_id;
  std::shared_ptr<std::atomic<long long>> ids;
  ~AgentSlot() {
    if (conn) conn->shutdown(core::Millis(300), core::Millis(300));
  }
};

result::ScenarioResult run_scenario(const scenario::Test& test, const RunConfig& config,
                                    AgentSlot* slot = nullptr);

// Fills the descriptive fields (id, requirement, source, ...) of a result.
result::ScenarioResult describe(const scenario::Test& test, const RunConfig& config);

// Asks the agent for its card once (handshake + GetExtendedAgentCard on a
// throw-away process) so ACTS preconditions can be evaluated on stdio, where
// there is no public card. nullopt when the agent does not give one.
std::optional<nlohmann::json> probe_agent_card(const RunConfig& config);

// The command line that runs only this scenario again.
std::string replay_command(const scenario::Test& test, const RunConfig& config);

}  // namespace a2a::engine
