// Comparing two runs (a2a-conform diff OLD.json NEW.json; docs/reports.md,
// "Diff"): per (target, scenario, binding), what got worse, what got better,
// what is new or gone, and whose reason changed; the counts by level of
// both. Pure: the CLI reads the files and writes the reports.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/core/expected.hpp"
#include "runner/result/result.hpp"

namespace a2a::result {

// How an outcome stands against its requirement, worst last. SKIP and
// INFORMATIONAL judge nothing, so they are neither better nor worse than
// anything: a move to or from them is a plain change.
enum class Standing {
  kUnjudged,   // SKIP, INFORMATIONAL
  kMet,        // PASS, XPASS (the requirement held; XPASS only says the known-failures list is stale)
  kNonStrict,  // NON_STRICT: the MUST part held, a SHOULD did not
  kNotMet,     // FAIL, TIMEOUT, ERROR, XFAIL (a known failure is still a requirement not met)
};
Standing standing_of(Outcome o);

// In the order every report lists them.
enum class ChangeKind {
  kRegression,  // not "not met" before, "not met" now: the diff exits 1
  kDegraded,    // met before, NON_STRICT now: listed, does not fail the diff
  kFix,         // better: "not met" -> met or NON_STRICT, NON_STRICT -> met
  kChanged,     // another outcome change (to or from SKIP/INFORMATIONAL, FAIL <-> ERROR, PASS <-> XPASS)
  kNew,         // only in NEW
  kRemoved,     // only in OLD
  kReason,      // same outcome, another reason
};
inline constexpr ChangeKind kAllChangeKinds[] = {ChangeKind::kRegression, ChangeKind::kDegraded, ChangeKind::kFix,
                                                 ChangeKind::kChanged,    ChangeKind::kNew,      ChangeKind::kRemoved,
                                                 ChangeKind::kReason};
std::string_view to_string(ChangeKind k);  // "regression", "degraded", "fix", ...

// What the other side lacks is empty (no outcome).
struct ScenarioChange {
  ChangeKind kind = ChangeKind::kChanged;
  size_t target = 0;  // 0-based position of the target in both reports
  std::string id, name, binding;
  Level level = Level::kMust;  // NEW's level (OLD's for a removed scenario)
  std::optional<Outcome> old_outcome, new_outcome;
  std::string old_reason, new_reason;  // why_of() of each side (agent bytes: writers escape)
};

// One side's run(s) as the diff names them in its reports.
struct DiffSide {
  std::string file;
  std::vector<std::string> targets;  // RunResult::target of each target
};

struct LevelCounts {
  std::optional<Level> level;  // nullopt: every level
  Counts old_counts, new_counts;
};

struct RunDiff {
  DiffSide old_side, new_side;
  std::vector<ScenarioChange> changes;  // by kind (kAllChangeKinds order), then report order
  std::vector<LevelCounts> counts;      // must, should, may, all
  int unchanged = 0;                    // in both, same outcome and reason
  // Why NEW cannot show that nothing regressed, one line per target: it was
  // interrupted (scenarios not run would only be "removed") or it carries a
  // broken-target diagnosis (scenarios not run are SKIPs, a plain "change").
  std::vector<std::string> new_incomplete;

  size_t count(ChangeKind k) const;
  bool regressed() const { return count(ChangeKind::kRegression) > 0; }
  // 0 nothing regressed and NEW is complete, 1 otherwise (usage errors are the CLI's 2).
  int exit_code() const { return regressed() || !new_incomplete.empty() ? 1 : 0; }
};

// The text a change of reason is judged on: the reason, then the failure's
// message, joined by " / " when both are there and differ.
std::string why_of(const ScenarioResult& s);

// The two sides' targets are paired by position (one target each: whatever
// they are named). Errors, each naming the file: no target, a different
// number of targets, a shard of a run (merge the shards first), the same
// (scenario, binding) twice in one target.
core::Expected<RunDiff> diff_runs(const std::string& old_file, const std::vector<RunResult>& old_runs,
                                  const std::string& new_file, const std::vector<RunResult>& new_runs);

}  // namespace a2a::result
