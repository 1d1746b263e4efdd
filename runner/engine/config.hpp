// What one `a2a-conform run` was asked to do. Filled by the CLI, read by the
// engine; nothing here is changed during a run.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/result/result.hpp"
#include "runner/scenario/profile.hpp"
#include "runner/scenario/selection.hpp"

namespace a2a::engine {

struct KnownFailure {
  std::string id;      // test id or glob
  std::string reason;
};

struct RunConfig {
  std::string agent_command;               // as given to --agent
  std::vector<std::string> agent_argv;     // split
  scenario::Profile profile;
  std::vector<std::string> suite_paths;    // as given (for replay commands)
  int jobs = 1;
  double timeout_scale = 1.0;              // multiplies every deadline
  int run_timeout_ms = 0;                  // 0 = none; else the whole run's bound
  bool reuse = false;
  bool assume_behaviors = true;            // the agent implements the ACTS tck-* prefixes
  std::vector<KnownFailure> known_failures;
  std::optional<nlohmann::json> agent_card;  // for ACTS preconditions (probed or given)
  std::string tool_version = "0.1.0";
  std::string command_line;
};

// Called as scenarios finish (from worker threads; implementations lock).
using ProgressFn = std::function<void(const result::ScenarioResult&, size_t done, size_t total)>;

}  // namespace a2a::engine
