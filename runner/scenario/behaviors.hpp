// The SUT behaviour contract (ACTS §11; docs/behaviors.md): which tck-*
// prefixes a target implements, how long its long-running work takes, and
// which prefixes a test's messages use.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/core/expected.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::scenario {

// ACTS §11.2, the standard prefixes: what the runner assumes of a target that
// gives no behaviours file.
inline constexpr std::string_view kActsPrefixes[] = {
    "tck-complete-task",   "tck-input-required", "tck-reject-task",    "tck-message-response",
    "tck-artifact-text",   "tck-artifact-file",  "tck-artifact-file-url", "tck-artifact-data",
    "tck-long-running",    "tck-multi-turn",     "tck-cancel",         "tck-stream-basic",
    "tck-stream-chunked",  "tck-task-failure"};
bool is_acts_prefix(std::string_view prefix);

// The delay ACTS's own example gives tck-long-running (§11, "delay_ms: 5000"):
// the wait a run allows when the target declares none.
inline constexpr int kDefaultLongRunningMs = 5000;

// One entry of a behaviours file (the ACTS §11.1 / a2a-itk sut-behaviors.yaml shape).
struct Behavior {
  std::string prefix;
  std::string description;
  std::string response_type;   // "task" | "message" | ""
  std::string terminal_state;  // e.g. TASK_STATE_COMPLETED, "" = not said
  std::optional<int> delay_ms;
  std::optional<bool> streaming;
};

struct Behaviors {
  std::string file;  // where it came from ("" = the ACTS default set)
  std::map<std::string, Behavior, std::less<>> by_prefix;
  const Behavior* find(std::string_view prefix) const;
  // The ACTS §11.2 prefixes, no delays: what a run without --behaviors assumes.
  static Behaviors acts_default();
  // The longest wait any declared behaviour asks for (delay_ms), at least
  // kDefaultLongRunningMs when tck-long-running has no delay.
  int delay_ms(std::string_view prefix) const;
};

// Reads a behaviours file: a map with `behaviors:` (list of {prefix,
// description, response_type, terminal_state, delay_ms, streaming,
// artifacts}); `acts_version` and x-* keys are allowed. Errors carry file:line:col.
core::Expected<Behaviors> load_behaviors(const std::filesystem::path& path);

// The tck-* prefixes a test's agent-bound messages use: the first word of a
// text part, or a messageId that starts with a known prefix (`known`,
// longest match), in operation params and stdio request / frame bodies.
std::vector<std::string> behaviors_used(const Test& test, const std::vector<std::string_view>& known);

}  // namespace a2a::scenario
