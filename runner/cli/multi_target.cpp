// Several targets in one invocation (`run --agent A --agent B --url U`,
// `client --cmd A --cmd B`): each run in turn with the same selection, a
// header per target on the console and a table at the end, each target's
// own reports in targets/N-NAME/, and the combined report.json, junit.xml
// and report.html. The exit code is the worst over targets.
#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <sstream>

#include "reports/badge.hpp"
#include "reports/markdown.hpp"
#include "reports/json_report.hpp"
#include "reports/multi_report.hpp"
#include "runner/core/interrupt.hpp"
#include "runner/cli/targets.hpp"
#include "runner/engine/run.hpp"

namespace a2a::cli {

namespace fs = std::filesystem;

namespace {

// Flags that only mean something for a kind of target no one named.
std::string usage_problem(const Options& o) {
  bool any_url = false;
  for (const auto& t : o.targets) any_url = any_url || t.kind == "url";
  if (!any_url && !o.bindings.empty()) return "--binding only applies to --url targets";
  if (!any_url && !o.headers.empty()) return "--header only applies to --url targets";
  if (!any_url && o.insecure) return "--insecure only applies to --url targets";
  return "";
}

core::Expected<void> write_file(const std::string& path, const std::function<void(std::ostream&)>& fn) {
  if (path.empty()) return {};
  std::error_code ec;
  auto parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  std::ostringstream ss;
  fn(ss);
  return reports::write_text_file(path, ss.str());
}

// One target: set up, header, run, recap. A target that cannot be set up
// (its command does not split, its card cannot be had) is recorded, not fatal.
reports::TargetRun run_one(const Options& all, size_t index, const std::string& command_line,
                           const SelectedTests& sel, reports::ConsoleReporter& console) {
  const auto& tests = sel.tests;
  Options o = with_target(all, all.targets[index]);
  engine::RunConfig cfg;
  cfg.command_line = command_line;
  configure(o, cfg);  // checked once before the first target
  reports::TargetRun t;
  t.id = reports::target_id(index + 1, all.targets[index].value);
  std::string log;
  t.error = setup_target(o, tests, cfg, log);
  auto who = describe_target(o, cfg);
  console.on_target(who.role, who.profile, who.target, static_cast<int>(index + 1),
                    static_cast<int>(all.targets.size()));
  std::cout << core::terminal_text(log);
  if (!t.error.empty()) {
    std::cout << "error: " << core::terminal_text(t.error) << "\n";
    stamp_target(t.run, who);
    stamp_shard(t.run, sel);
    t.run.tool_version = cfg.tool_version;
    t.run.command_line = command_line;
    return t;
  }
  t.run = run_target(o, cfg, tests, console);
  stamp_shard(t.run, sel);
  console.finish(t.run);
  return t;
}

}  // namespace

// targets/N-NAME/ under --report-dir: report.json, junit.xml; ACTS reports
// there or under --acts-report-dir. Returns the paths written.
core::Expected<std::vector<std::string>> write_target_reports(const Options& o, const reports::TargetRun& t) {
  std::vector<std::string> written;
  if (!t.error.empty()) return written;
  fs::path sub = fs::path("targets") / t.id;
  if (!o.report_dir.empty()) {
    fs::path dir = fs::path(o.report_dir) / sub;
    std::string json = (dir / "report.json").string(), junit = (dir / "junit.xml").string();
    if (auto r = write_file(json, [&](std::ostream& os) { reports::write_json_report(os, t.run); }); !r)
      return core::fail(r.error());
    if (auto r = write_file(junit, [&](std::ostream& os) { reports::write_junit(os, t.run); }); !r)
      return core::fail(r.error());
    written.push_back(json);
    written.push_back(junit);
  }
  std::string acts_base = !o.acts_dir.empty() ? o.acts_dir : o.report_dir;
  if (!acts_base.empty()) {
    fs::path dir = fs::path(acts_base) / sub;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return core::fail(core::ErrorKind::kIo, "cannot create " + dir.string() + ": " + ec.message());
    reports::ActsOptions ao;
    ao.sdk_name = t.run.role;
    auto acts = reports::write_acts_reports(dir.string(), t.run, ao);
    if (!acts) return core::fail(acts.error());
    written.insert(written.end(), acts->begin(), acts->end());
  }
  return written;
}

// Paths in a combined report are relative to the folder of that report, so
// the links of report.html work wherever the folder is copied.
static void files_relative_to(std::vector<reports::TargetRun>& targets,
                       const std::vector<std::vector<std::string>>& written, const std::string& report_path) {
  fs::path base = fs::absolute(fs::path(report_path)).parent_path();
  for (size_t i = 0; i < targets.size(); ++i) {
    targets[i].files.clear();
    for (const auto& f : written[i]) {
      std::error_code ec;
      auto rel = fs::relative(fs::absolute(f), base, ec);
      targets[i].files.push_back(ec || rel.empty() ? f : rel.generic_string());
    }
  }
}

core::Expected<void> write_combined(const Options& o, std::vector<reports::TargetRun>& targets,
                                    const std::vector<std::vector<std::string>>& written,
                                    const reports::CombinedInfo& info) {
  auto path_or = [&](const std::string& explicit_path, const char* name) {
    if (!explicit_path.empty()) return explicit_path;
    return o.report_dir.empty() ? std::string() : (fs::path(o.report_dir) / name).string();
  };
  std::string json = path_or(o.json_path, "report.json"), junit = path_or(o.junit_path, "junit.xml"),
              html = path_or(o.html_path, "report.html");
  if (!json.empty()) {
    files_relative_to(targets, written, json);
    if (auto r = write_file(json, [&](std::ostream& os) { reports::write_combined_json(os, targets, info); }); !r)
      return r;
  }
  if (auto r = write_file(junit, [&](std::ostream& os) { reports::write_combined_junit(os, targets, info); }); !r)
    return r;
  if (!html.empty()) {
    files_relative_to(targets, written, html);
    if (auto r = write_file(html, [&](std::ostream& os) { reports::write_combined_html(os, targets, info); }); !r)
      return r;
  }
  if (auto r = write_file(o.markdown_path, [&](std::ostream& os) {
        reports::write_combined_markdown(os, targets, markdown_options(html, json));
      });
      !r)
    return r;
  if (!o.badge_path.empty()) {
    // A target that could not be run at all is not conformant, whatever its (empty) results say.
    std::vector<result::RunResult> unrun;
    unrun.reserve(targets.size());
    std::vector<const result::RunResult*> runs;
    for (const auto& t : targets) {
      if (t.error.empty()) {
        runs.push_back(&t.run);
        continue;
      }
      unrun.push_back(t.run);
      unrun.back().diagnosis = t.error;
      runs.push_back(&unrun.back());
    }
    auto badge = reports::badge_text(runs);
    if (auto r = write_file(o.badge_path, [&](std::ostream& os) { reports::write_badge(os, badge); }); !r) return r;
  }
  return {};
}

int cmd_run_targets(const Options& o, const std::string& command_line) {
  const char* cmd = o.client_run ? "client" : "run";
  if (auto why = usage_problem(o); !why.empty()) {
    std::cerr << "a2a-conform " << cmd << ": " << core::terminal_text(why) << "\n";
    return kExitUsage;
  }
  engine::RunConfig shared;
  if (!configure(o, shared)) return kExitUsage;
  auto sel = load_selection(o, o.client_run);
  if (!sel) return kExitUsage;
  reports::ConsoleReporter console(std::cout, console_options(o));
  reports::CombinedInfo info;
  info.tool_version = shared.tool_version;
  info.started_at = reports::utc_now_rfc3339();
  info.command_line = command_line;
  auto t0 = std::chrono::steady_clock::now();
  std::vector<reports::TargetRun> targets;
  std::vector<std::vector<std::string>> written;
  bool write_failed = false;
  // A signal stops the current target's run; the targets after it are not run.
  core::InterruptScope graceful;
  for (size_t i = 0; i < o.targets.size(); ++i) {
    if (int sig = core::interrupt_signal(); sig != 0) {
      reports::TargetRun t;
      t.id = reports::target_id(i + 1, o.targets[i].value);
      t.error = "not run: the run was stopped by " + core::signal_name(sig) + " before this target";
      t.run.interrupted = result::RunResult::Interruption{core::signal_name(sig), sig, 0};
      targets.push_back(std::move(t));
      written.emplace_back();
      continue;
    }
    targets.push_back(run_one(o, i, command_line, *sel, console));
    auto w = write_target_reports(o, targets.back());
    if (!w) {
      std::cerr << "a2a-conform: writing reports failed: " << core::terminal_text(w.error().message) << "\n";
      write_failed = true;
    }
    written.push_back(w ? *w : std::vector<std::string>{});
  }
  info.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  if (auto w = write_combined(o, targets, written, info); !w) {
    std::cerr << "a2a-conform: writing reports failed: " << core::terminal_text(w.error().message) << "\n";
    write_failed = true;
  }
  reports::write_targets_table(std::cout, targets);
  return write_failed ? kExitUsage : reports::combined_exit_code(targets);
}

}  // namespace a2a::cli
