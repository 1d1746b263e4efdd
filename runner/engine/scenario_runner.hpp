// Runs one scenario on one binding: stdio (a fresh agent process: spawn,
// handshake, steps, teardown) or an HTTP interface (its own keep-alive
// connections), and the ScenarioResult with transcript (and, on stdio,
// stderr and exit status). A watchdog enforces the scenario deadline: when it
// expires every wait wakes (the agent's process group is killed, HTTP calls
// are interrupted) and the result is TIMEOUT — the run goes on.
#pragma once

#include <optional>

#include "runner/engine/agent_connection.hpp"
#include "runner/engine/config.hpp"
#include "runner/result/result.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

class WebhookReceiver;

// applicability.cpp. `target` nullptr = stdio.
// Why a test does not apply to a binding at all (x-binding, ACTS transport,
// raw steps and card fetches on stdio); "" when it does. A run expands each
// test only on the bindings it applies to.
std::string binding_mismatch(const scenario::Test& test, const std::string& binding);
// Why a test cannot run on this binding here (the above, profile,
// preconditions, behaviours, runner requirements, client steps); "" when it can.
// A header name that carries credentials (Authorization, *token*, *key*, ...):
// redacted from replay commands; its presence means the run gives credentials.
bool is_secret_header(const std::string& name);

std::string skip_reason(const scenario::Test& test, const RunConfig& config,
                        const BindingTarget* target = nullptr);
// The part of skip_reason that does not depend on the target: another
// binding, profile or role, an operation the binding's version lacks. Such a
// test is "not applicable" to the run, not a SKIP (docs/reports.md "Not
// applicable"); "" when it applies.
std::string not_applicable_reason(const scenario::Test& test, const RunConfig& config,
                                  const BindingTarget* target = nullptr);
// Optional capabilities (AgentCapabilities members: pushNotifications,
// streaming, extendedAgentCard) a test's steps use, less those its
// preconditions name explicitly.
std::vector<std::string> implied_capabilities(const scenario::Test& test);
// The capability an abstract operation needs ("" for the ones every agent has).
std::string_view capability_of(std::string_view operation);
// The tck-* behaviours a test relies on (its requires_behaviors and the
// prefixes its messages use), and why the target cannot serve them ("" = it can).
std::vector<std::string> behaviors_needed(const scenario::Test& test, const RunConfig& config);
std::string missing_behavior(const scenario::Test& test, const RunConfig& config);
// Extra wait a test's slow behaviours ask for (docs/behaviors.md "Waits"):
// the declared delay_ms plus kBehaviorMarginMs, never scaled down.
inline constexpr int kBehaviorMarginMs = 5000;
int behavior_wait_ms(const scenario::Test& test, const RunConfig& config);
// Fills the descriptive fields (id, requirement, source, binding, ...) of a result.
result::ScenarioResult describe(const scenario::Test& test, const RunConfig& config,
                                const BindingTarget* target = nullptr);
// What a failed requirement means at a level: FAIL at must, NON_STRICT at
// should, INFORMATIONAL at may; other outcomes unchanged.
result::Outcome apply_level(result::Outcome outcome, scenario::Level level);
// The command line that runs only this scenario again (on this binding).
std::string replay_command(const scenario::Test& test, const RunConfig& config,
                           const BindingTarget* target = nullptr);

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

// `target` nullptr or stdio: the --agent process; else that HTTP interface.
// `hooks`: the run's webhook receiver (nullptr: none was needed).
result::ScenarioResult run_scenario(const scenario::Test& test, const RunConfig& config,
                                    AgentSlot* slot = nullptr, const BindingTarget* target = nullptr,
                                    WebhookReceiver* hooks = nullptr);

// A client scenario (client_scenario.cpp): the client under test is started
// with {target} pointing at the runner's scripted agent on `binding`.
result::ScenarioResult run_client_scenario(const scenario::Test& test, const RunConfig& config,
                                           const std::string& binding);

// Asks the agent for its card once (handshake + GetExtendedAgentCard on a
// throw-away process) so ACTS preconditions can be evaluated on stdio, where
// there is no public card. nullopt when the agent does not give one.
// `failure` (optional): why the probe could not even talk to the agent (it
// did not start, or did not handshake); the run counts it toward its
// diagnosis of a broken target (run.cpp).
std::optional<nlohmann::json> probe_agent_card(const RunConfig& config, std::string* failure = nullptr);

}  // namespace a2a::engine
