// `a2a-conform merge A.json B.json ...`: the report.json files of the shards
// of one run (--shard K/N on a CI matrix), or of runs of several targets,
// joined into the reports one unsharded run would have written, with the
// same verdict and exit code. A scenario twice, a scenario or a shard
// missing, or shards of different selections are errors (exit 2), each named.
// docs/sharding.md.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "reports/console.hpp"
#include "reports/multi_report.hpp"
#include "runner/cli/report_input.hpp"
#include "runner/cli/targets.hpp"
#include "runner/result/merge.hpp"

namespace a2a::cli {

namespace fs = std::filesystem;

int cmd_merge(const Options& o, const std::vector<std::string>& files, const std::string& command_line) {
  if (o.report_dir.empty() && o.json_path.empty() && o.junit_path.empty() && o.html_path.empty() &&
      o.acts_dir.empty() && o.badge_path.empty() && o.markdown_path.empty())
    std::cerr << "a2a-conform merge: note: no --report-dir (or --json, --junit, --html, --badge, --markdown): only the "
                 "verdict is "
                 "printed\n";
  std::vector<result::MergeInput> inputs;
  for (const auto& f : files) {
    if (auto r = read_report(f, inputs); !r) {
      std::cerr << "a2a-conform merge: " << core::terminal_text(r.error().message) << "\n";
      return kExitUsage;
    }
  }
  auto merged = result::merge_runs(std::move(inputs));
  reports::ConsoleReporter console(std::cout, console_options(o));
  int code = 0;
  if (merged.targets.size() == 1) {
    const auto& m = merged.targets.front();
    console.on_target(m.run.role, m.run.profile, m.run.target);
    std::cout << "merged " << m.sources.size() << " report(s): " << m.run.scenarios.size() << " results\n";
    if (auto w = write_reports(o, m.run); !w) {
      std::cerr << "a2a-conform merge: writing reports failed: " << core::terminal_text(w.error().message) << "\n";
      return kExitUsage;
    }
    console.finish(m.run);
    code = m.run.exit_code();
  } else {
    std::vector<reports::TargetRun> targets;
    std::vector<std::vector<std::string>> written;
    reports::CombinedInfo info;
    info.command_line = command_line;
    for (size_t i = 0; i < merged.targets.size(); ++i) {
      reports::TargetRun t;
      t.run = merged.targets[i].run;
      t.id = reports::target_id(i + 1, t.run.target);
      info.tool_version = t.run.tool_version;
      if (info.started_at.empty() || t.run.started_at < info.started_at) info.started_at = t.run.started_at;
      info.duration_ms = std::max(info.duration_ms, t.run.duration_ms);
      auto w = write_target_reports(o, t);
      if (!w) {
        std::cerr << "a2a-conform merge: writing reports failed: " << core::terminal_text(w.error().message) << "\n";
        return kExitUsage;
      }
      written.push_back(*w);
      targets.push_back(std::move(t));
    }
    if (auto w = write_combined(o, targets, written, info); !w) {
      std::cerr << "a2a-conform merge: writing reports failed: " << core::terminal_text(w.error().message) << "\n";
      return kExitUsage;
    }
    reports::write_targets_table(std::cout, targets);
    code = reports::combined_exit_code(targets);
  }
  if (!merged.errors.empty()) {
    std::cerr << "a2a-conform merge: the reports are not one whole run (" << merged.errors.size() << " problem"
              << (merged.errors.size() == 1 ? "" : "s") << "):\n";
    for (const auto& e : merged.errors) std::cerr << "  error: " << core::terminal_line(e) << "\n";
    return kExitUsage;
  }
  return code;
}

}  // namespace a2a::cli
