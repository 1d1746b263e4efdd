// The Markdown summary (`--markdown FILE`): short enough for a README, made
// for $GITHUB_STEP_SUMMARY and pull-request comments. A verdict heading with
// the target, the diagnosis of a broken target, counts by level, then the
// support matrix (reports/matrix.hpp) with the failing rows first and their
// reason in a last column. Every cell goes through markdown_cell (text.hpp), so agent bytes
// cannot end a cell, start markup or break the table. docs/reports.md.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "reports/multi_report.hpp"
#include "runner/result/result.hpp"

namespace a2a::reports {

struct MarkdownOptions {
  // A matrix of more rows shows only its failing rows, then "N more rows
  // (none failing) in <full_report>".
  size_t max_rows = 200;
  std::string full_report = "report.html";
  size_t max_reason_bytes = 120;  // input bytes of a reason cell before " ... (N more bytes)"
};

void write_markdown(std::ostream& out, const result::RunResult& r, const MarkdownOptions& options = {});

// Several targets: the overall verdict, a table of the targets, then one
// section per target (its counts and matrix).
void write_combined_markdown(std::ostream& out, const std::vector<TargetRun>& targets,
                             const MarkdownOptions& options = {});

}  // namespace a2a::reports
