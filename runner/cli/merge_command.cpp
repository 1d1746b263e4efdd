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
#include "runner/cli/targets.hpp"
#include "runner/result/merge.hpp"

namespace a2a::cli {

namespace fs = std::filesystem;

namespace {

// A report larger than this is not one of ours (transcripts are capped).
constexpr std::uintmax_t kMaxReportBytes = 1ull << 30;

core::Expected<nlohmann::json> read_json(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return core::fail(core::ErrorKind::kNotFound, path + ": not found (or not a regular file)");
  if (fs::file_size(path, ec) > kMaxReportBytes)
    return core::fail(core::ErrorKind::kInvalidArgument, path + ": larger than 1 GiB, not a report");
  std::ifstream in(path, std::ios::binary);
  auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) return core::fail(core::ErrorKind::kParse, path + ": not valid JSON");
  return j;
}

// One file: a run result, or a combined index (several targets) whose
// targets' report.json files are read in its place.
core::Expected<void> read_input(const std::string& path, std::vector<result::MergeInput>& out) {
  auto j = read_json(path);
  if (!j) return core::fail(j.error());
  if (j->is_object() && j->value("schema", "") == reports::kMultiResultSchema) {
    if (!j->contains("targets") || !(*j)["targets"].is_array())
      return core::fail(core::ErrorKind::kSchema, path + ": /targets must be an array");
    for (const auto& t : (*j)["targets"]) {
      std::string report;
      if (t.contains("files") && t["files"].is_array())
        for (const auto& f : t["files"])
          if (f.is_string() && fs::path(f.get<std::string>()).filename() == "report.json") report = f;
      if (report.empty())
        return core::fail(core::ErrorKind::kSchema,
                          path + ": target " + t.value("id", "?") + " lists no report.json (was it run with --report-dir?)");
      fs::path p = fs::path(report).is_absolute() ? fs::path(report) : fs::path(path).parent_path() / report;
      if (auto r = read_input(p.string(), out); !r) return r;
    }
    return {};
  }
  auto run = result::parse_run_result(*j);
  if (!run) return core::fail(core::ErrorKind::kSchema, path + ": " + run.error().message);
  out.push_back({path, std::move(*run)});
  return {};
}

}  // namespace

int cmd_merge(const Options& o, const std::vector<std::string>& files, const std::string& command_line) {
  if (o.report_dir.empty() && o.json_path.empty() && o.junit_path.empty() && o.html_path.empty() &&
      o.acts_dir.empty() && o.badge_path.empty())
    std::cerr << "a2a-conform merge: note: no --report-dir (or --json, --junit, --html, --badge): only the verdict is "
                 "printed\n";
  std::vector<result::MergeInput> inputs;
  for (const auto& f : files) {
    if (auto r = read_input(f, inputs); !r) {
      std::cerr << "a2a-conform merge: " << r.error().message << "\n";
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
      std::cerr << "a2a-conform merge: writing reports failed: " << w.error().message << "\n";
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
        std::cerr << "a2a-conform merge: writing reports failed: " << w.error().message << "\n";
        return kExitUsage;
      }
      written.push_back(*w);
      targets.push_back(std::move(t));
    }
    if (auto w = write_combined(o, targets, written, info); !w) {
      std::cerr << "a2a-conform merge: writing reports failed: " << w.error().message << "\n";
      return kExitUsage;
    }
    reports::write_targets_table(std::cout, targets);
    code = reports::combined_exit_code(targets);
  }
  if (!merged.errors.empty()) {
    std::cerr << "a2a-conform merge: the reports are not one whole run (" << merged.errors.size() << " problem"
              << (merged.errors.size() == 1 ? "" : "s") << "):\n";
    for (const auto& e : merged.errors) std::cerr << "  error: " << e << "\n";
    return kExitUsage;
  }
  return code;
}

}  // namespace a2a::cli
