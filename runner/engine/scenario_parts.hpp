// The pieces every kind of scenario run shares (scenario_runner.cpp): agent
// runs on stdio and HTTP, and client runs (client_scenario.cpp) build their
// results from the same steps, watchdog, grading and transcript events.
#pragma once

#include <chrono>
#include <vector>

#include "runner/engine/config.hpp"
#include "runner/engine/session.hpp"
#include "runner/engine/step_exec.hpp"
#include "runner/result/result.hpp"
#include "runner/scenario/model.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::engine {

// Transcript entries from index `from` on, as report events.
std::vector<result::WireEvent> to_events(const transport::Transcript& tr, size_t from);
// Config, test, fresh session id, scenario deadline, variables, profile root.
void init_session(Session& s, const scenario::Test& t, const RunConfig& c);
// The steps and test assertions under the scenario watchdog; `fired` says
// whether the deadline expired.
StepOutcome run_body(Session& s, const scenario::Test& t, bool handshake, StepRecorder& rec, bool& fired);
// Outcome (graded by level) and reason of the result.
void fill_outcome(result::ScenarioResult& r, StepOutcome worst, bool fired, const scenario::Test& t,
                  const Session& s);
long long ms_since(std::chrono::steady_clock::time_point t0);

}  // namespace a2a::engine
