// One run of a2a-conform may test several targets (`run --agent A --url B`,
// `client --cmd A --cmd B`): the pieces a run of one target is made of
// (run_command.cpp), which the multi-target driver (multi_target.cpp) calls
// once per target, and what each report says was tested (target_info.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "reports/console.hpp"
#include "reports/multi_report.hpp"
#include "runner/cli/options.hpp"
#include "runner/engine/config.hpp"

namespace a2a::cli {

// What a run certified, as every report states it.
struct TargetDescription {
  std::string role;     // "agent" or "client"
  std::string profile;  // the stdio profile name, or the A2A version(s) tested over HTTP ("1.0")
  std::vector<std::string> protocol_versions;  // HTTP only, in order of first appearance
  std::string target;   // the agent command, the URL, or the client command
};

// From the options of one target and its configuration (after discovery:
// the versions are those of the interfaces tested; a binding key written
// "jsonrpc@0.3" without a version counts as 0.3, any other as 1.0).
TargetDescription describe_target(const Options& o, const engine::RunConfig& cfg);
void stamp_target(result::RunResult& run, const TargetDescription& d);

// `o` narrowed to one target: agent, url and client_cmd set from it alone.
Options with_target(const Options& o, const TargetSpec& t);

// The loaded documents and the tests the selection picked (pointers into docs).
struct SelectedTests {
  std::vector<scenario::Document> docs;
  std::vector<const scenario::Test*> tests;  // this shard's part of the selection
  scenario::Shard shard;                     // 1/1 when not sharded
  std::vector<std::string> selection;        // every selected id, all shards
};

// Records the shard (and the whole selection, which `merge` checks the
// shards against) in a result; nothing when the run is not sharded.
void stamp_shard(result::RunResult& run, const SelectedTests& sel);

reports::ConsoleOptions console_options(const Options& o);
// --var NAME=VALUE over every test's variables (run, and verify --regrade with the recorded ones).
void apply_vars(const std::vector<std::string>& vars, std::vector<scenario::Document>& docs);
// The shared parts of every target's configuration (profile, known
// failures, jobs, ...): false after printing why (a usage error).
bool configure(const Options& o, engine::RunConfig& cfg);
// nullptr after printing why (no scenario, a file that does not load).
std::unique_ptr<SelectedTests> load_selection(const Options& o, bool client);
// The target's part of cfg (command, discovery, card probe): "" or why it
// cannot be run. Discovery's notes go to `log`.
std::string setup_target(const Options& o, const std::vector<const scenario::Test*>& tests,
                         engine::RunConfig& cfg, std::string& log);
// Runs the engine with live progress on `console` (on_start, one line per
// scenario; not finish) and stamps role, profile and target on the result.
result::RunResult run_target(const Options& o, const engine::RunConfig& cfg,
                             const std::vector<const scenario::Test*>& tests, reports::ConsoleReporter& console);

// targets/N-NAME/ under --report-dir (report.json, junit.xml) and the ACTS
// reports there or under --acts-report-dir; the paths written.
core::Expected<std::vector<std::string>> write_target_reports(const Options& o, const reports::TargetRun& t);
// The combined report.json, junit.xml and report.html of several targets
// (--report-dir or the explicit paths); `written` is write_target_reports'
// answer per target, linked from the combined reports.
core::Expected<void> write_combined(const Options& o, std::vector<reports::TargetRun>& targets,
                                    const std::vector<std::vector<std::string>>& written,
                                    const reports::CombinedInfo& info);

// Several targets: each run in turn with the same selection; combined
// reports; exit code the worst over targets (multi_target.cpp).
int cmd_run_targets(const Options& o, const std::string& command_line);

}  // namespace a2a::cli
