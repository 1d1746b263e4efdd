// The outcome of matching agent data against an assertion: every mismatch
// (not just the first), each with where, what was expected and what came, or
// an `error` when the assertion itself is malformed (the scenario is broken:
// the engine grades ERROR, not FAIL).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace a2a::match {

using Json = nlohmann::json;

struct Mismatch {
  std::string path;      // "task.status.state"; "" = the value matched itself
  std::string expected;  // the assertion, short: "TASK_STATE_COMPLETED", "type string"
  std::string actual;    // compact JSON of what came, truncated; "<missing>" when absent
  std::string message;   // "task.status.state: expected TASK_STATE_COMPLETED, got TASK_STATE_WORKING"
};

struct MatchResult {
  bool ok = true;
  std::vector<Mismatch> mismatches;
  std::string error;  // malformed assertion ("; "-joined when several)

  bool malformed() const { return !error.empty(); }
  void add(Mismatch m);
  // `what` is the message without the path prefix; the prefix is added here.
  void add(std::string path, std::string expected, std::string actual, std::string what);
  void add_error(std::string_view path, std::string_view what);
  void merge(MatchResult other);
  // Only the error of `other` (its mismatches are someone else's business).
  void take_error(const MatchResult& other);
  // One line per mismatch (and the error first), at most `max_lines` lines.
  std::string summary(std::size_t max_lines = 20) const;
};

// Diagnostics rendering shared by the matchers.
inline constexpr std::size_t kMaxShown = 160;
// Compact JSON, invalid UTF-8 replaced, cut to `max_len` bytes with "...".
std::string compact(const Json& value, std::size_t max_len = kMaxShown);
// Like compact, but a string is shown bare: TASK_STATE_WORKING, not "TASK_STATE_WORKING".
std::string show(const Json& value, std::size_t max_len = kMaxShown);
// compact(*value), or "<missing>" for nullptr.
std::string show_actual(const Json* value);
// "string", "number", "boolean", "array", "object", "null".
std::string_view json_type(const Json& value);
// "path: what", or just "what" at the root.
std::string at_path(std::string_view path, std::string_view what);

}  // namespace a2a::match
