// A whole run: selected scenarios, per binding, on a pool of `jobs` workers
// (each stdio scenario on its own agent process); known-failure bookkeeping (XFAIL / XPASS); one RunResult.
#pragma once

#include <vector>

#include "runner/core/expected.hpp"
#include "runner/engine/config.hpp"
#include "runner/result/result.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

// Each test runs once per binding of the run it applies to (stdio when the
// run has no bindings); what applies to none, or not to this profile or role,
// is listed in RunResult::not_applicable, not as a result.
// A webhook receiver is started when a test to run needs one.
result::RunResult run_all(const std::vector<const scenario::Test*>& tests, const RunConfig& config,
                          const ProgressFn& progress = {});
// How many results run_all will give (for the console's "running N").
size_t planned_results(const std::vector<const scenario::Test*>& tests, const RunConfig& config);

// Known-failures file (YAML): {expected_failures: [{id: STDIO-X-001 or glob,
// reason: text, binding: rest (optional: only results on that binding)}]}.
core::Expected<std::vector<KnownFailure>> load_known_failures(const std::string& path);

// XFAIL / XPASS for one result.
void apply_known_failures(result::ScenarioResult& r, const std::vector<KnownFailure>& known);

}  // namespace a2a::engine
