// Runs one scenario against a fresh agent process: spawn, handshake, steps,
// teardown, and the ScenarioResult with transcript, stderr and exit status.
// A watchdog enforces the scenario deadline: when it expires every wait wakes,
// the agent's process group is killed, and the result is TIMEOUT — the run
// goes on.
#pragma once

#include "runner/engine/config.hpp"
#include "runner/result/result.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

// Why a test cannot run here (binding, profile, preconditions, behaviours,
// runner requirements, raw/client steps); "" when it can.
std::string skip_reason(const scenario::Test& test, const RunConfig& config);

result::ScenarioResult run_scenario(const scenario::Test& test, const RunConfig& config);

// Fills the descriptive fields (id, requirement, source, ...) of a result.
result::ScenarioResult describe(const scenario::Test& test, const RunConfig& config);

// The command line that runs only this scenario again.
std::string replay_command(const scenario::Test& test, const RunConfig& config);

}  // namespace a2a::engine
