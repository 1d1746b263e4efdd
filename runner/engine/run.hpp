// A whole run: selected scenarios on a pool of `jobs` workers, each on its
// own agent process; known-failure bookkeeping (XFAIL / XPASS); one RunResult.
#pragma once

#include <vector>

#include "runner/core/expected.hpp"
#include "runner/engine/config.hpp"
#include "runner/result/result.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

result::RunResult run_all(const std::vector<const scenario::Test*>& tests, const RunConfig& config,
                          const ProgressFn& progress = {});

// Known-failures file (YAML): {expected_failures: [{id: STDIO-X-001 or glob, reason: text}]}.
core::Expected<std::vector<KnownFailure>> load_known_failures(const std::string& path);

// XFAIL / XPASS for one result.
void apply_known_failures(result::ScenarioResult& r, const std::vector<KnownFailure>& known);

}  // namespace a2a::engine
