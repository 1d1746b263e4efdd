// Reports of one invocation that tested several targets (`run --agent A
// --agent B`, `client --cmd A --cmd B`): the combined JSON index, the
// combined JUnit file (one testsuite per target), the combined HTML page (an
// overview table, then one section per target with the usual content) and
// the console's closing table. Each target's own reports are the usual
// writers on its RunResult; these only assemble.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/html.hpp"
#include "reports/junit.hpp"
#include "runner/result/result.hpp"

namespace a2a::reports {

struct TargetRun {
  // "1-a2a-ref-agent-fault-x": the 1-based position and target_slug. Names
  // the target's report folder, its JUnit testsuite and its HTML section.
  std::string id;
  // role, profile and target are set even when the target could not be run.
  result::RunResult run;
  // Why the target could not be run at all (discovery failed, bad command):
  // it counts as a harness error, exit code 2.
  std::string error;
  // The target's own reports, relative to the combined report's folder
  // ("targets/1-slug/report.json"); empty when none were written.
  std::vector<std::string> files;

  // 128 + the signal for a target a signal stopped or kept from running.
  int exit_code() const { return error.empty() || run.interrupted ? run.exit_code() : 2; }
  bool conformant() const { return error.empty() && run.conformant(); }
  // "CONFORMANT", "NOT CONFORMANT", or "ERROR" when it could not be run.
  std::string_view verdict() const;
};

struct CombinedInfo {
  std::string tool_version;
  std::string started_at;  // RFC 3339 UTC
  long long duration_ms = 0;
  std::string command_line;
};

// A file-name-safe slug of a target: the command's program name (without
// its folder) and its arguments, or a URL without its scheme; [a-z0-9.]
// runs joined by '-', at most `max_bytes`; "target" when nothing is left.
// "build/bin/a2a-ref-agent --fault X" -> "a2a-ref-agent-fault-x".
std::string target_slug(std::string_view target, size_t max_bytes = 40);
// "<index>-<slug>", index 1-based.
std::string target_id(size_t index, std::string_view target);

// The worst over targets: 2 if any is 2, else 1 if any is 1, else 0.
int combined_exit_code(const std::vector<TargetRun>& targets);
bool combined_conformant(const std::vector<TargetRun>& targets);

inline constexpr std::string_view kMultiResultSchema = "a2a-conform-multi-result";
inline constexpr int kMultiResultSchemaVersion = 1;

// The combined report.json: schema, schema_version, tool_version,
// started_at, duration_ms, command_line, exit_code, conformant, counts (over
// every target) and targets [{index, id, role, profile, protocol_versions,
// target, bindings, verdict, conformant, exit_code, error?, counts,
// by_level, duration_ms, files}]. docs/reports.md.
nlohmann::json combined_json(const std::vector<TargetRun>& targets, const CombinedInfo& info);
void write_combined_json(std::ostream& out, const std::vector<TargetRun>& targets, const CombinedInfo& info);

// testsuites > one testsuite per target (name = its id; role, profile,
// target, verdict properties) > its testcases, classname "ID.suite_id".
void write_combined_junit(std::ostream& out, const std::vector<TargetRun>& targets,
                          const CombinedInfo& info, const JunitOptions& options = {});

// One self-contained page: the overall verdict, a table of the targets
// (role, profile, target, counts, verdict) linking to one section per
// target (id "t1", its ids prefixed "t1-") with the usual report content.
void write_combined_html(std::ostream& out, const std::vector<TargetRun>& targets,
                         const CombinedInfo& info, const HtmlOptions& options = {});

// The console's closing table: one line per target (index, role, profile,
// passed / failed / skipped, verdict, target), then the overall verdict and
// exit code, then "N passed, N failed, N skipped" over every target.
void write_targets_table(std::ostream& out, const std::vector<TargetRun>& targets);

}  // namespace a2a::reports
