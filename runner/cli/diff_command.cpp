// `a2a-conform diff OLD.json NEW.json`: what changed between two runs, and
// exit 1 when something regressed (docs/reports.md, "Diff"). The rules are
// result/diff.hpp's; this file reads the two reports and writes the three
// forms of the answer.
#include <iostream>
#include <sstream>

#include "reports/diff_report.hpp"
#include "reports/json_report.hpp"
#include "runner/cli/options.hpp"
#include "runner/cli/report_input.hpp"

namespace a2a::cli {

namespace {

core::Expected<std::vector<result::RunResult>> read_side(const std::string& file) {
  std::vector<result::MergeInput> inputs;
  if (auto r = read_report(file, inputs); !r) return core::fail(r.error());
  std::vector<result::RunResult> runs;
  for (auto& in : inputs) runs.push_back(std::move(in.run));
  return runs;
}

core::Expected<void> write_text(const std::string& path, const std::string& text) {
  if (path.empty()) return {};
  return reports::write_text_file(path, text);
}

}  // namespace

int cmd_diff(const Options& o, const std::string& old_file, const std::string& new_file) {
  auto before = read_side(old_file);
  if (!before) {
    std::cerr << "a2a-conform diff: OLD " << core::terminal_text(before.error().message) << "\n";
    return kExitUsage;
  }
  auto after = read_side(new_file);
  if (!after) {
    std::cerr << "a2a-conform diff: NEW " << core::terminal_text(after.error().message) << "\n";
    return kExitUsage;
  }
  auto d = result::diff_runs(old_file, *before, new_file, *after);
  if (!d) {
    std::cerr << "a2a-conform diff: " << core::terminal_text(d.error().message) << "\n";
    return kExitUsage;
  }
  std::ostringstream md;
  if (!o.markdown_path.empty()) reports::write_diff_markdown(md, *d);
  if (auto w = write_text(o.markdown_path, md.str()); !w) {
    std::cerr << "a2a-conform diff: writing " << core::terminal_line(o.markdown_path) << " failed: " << core::terminal_text(w.error().message) << "\n";
    return kExitUsage;
  }
  if (auto w = write_text(o.json_path, o.json_path.empty() ? "" : reports::diff_to_json(*d).dump(2) + "\n"); !w) {
    std::cerr << "a2a-conform diff: writing " << core::terminal_line(o.json_path) << " failed: " << core::terminal_text(w.error().message) << "\n";
    return kExitUsage;
  }
  reports::write_diff_console(std::cout, *d);
  return d->exit_code();
}

}  // namespace a2a::cli
