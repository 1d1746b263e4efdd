#include "reports/markdown.hpp"

#include <cctype>
#include <string_view>

#include "reports/matrix.hpp"
#include "reports/text.hpp"

namespace a2a::reports {

using result::Counts;
using result::Level;
using result::RunResult;

namespace {

constexpr std::string_view kMdDash = "\xe2\x80\x94";  // a scenario not run on that column

std::string md_level(Level l) {
  std::string name(to_string(l));
  for (auto& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return name;
}

void md_verdict(std::ostream& out, const RunResult& r, std::string_view heading, std::string_view verdict) {
  out << heading << " A2A conformance: " << verdict << " \xe2\x80\x94 "
      << markdown_cell(r.target, 200) << "\n\n";
  int code = r.exit_code();
  out << markdown_cell(r.role, 40) << (r.profile.empty() ? "" : ", profile " + markdown_cell(r.profile, 60)) << " \xc2\xb7 "
      << r.scenarios.size() << " results \xc2\xb7 exit code " << code << ": "
      << markdown_cell(result::describe_exit_code(code)) << "\n\n";
  if (!r.diagnosis.empty()) out << "> **Diagnosis: the target is broken.** " << markdown_cell(r.diagnosis, 600) << "\n\n";
  if (r.interrupted) out << "> **Interrupted.** " << markdown_cell(result::interruption_text(r), 600) << "\n\n";
}

void md_level_counts(std::ostream& out, const RunResult& r) {
  out << "| Level | Passed | Failed | Skipped | Total |\n|---|--:|--:|--:|--:|\n";
  auto row = [&](std::string_view name, const Counts& c) {
    out << "| " << name << " | " << c.passed() << " | " << c.failed() << " | " << c.skipped() << " | " << c.total
        << " |\n";
  };
  for (Level l : result::kAllLevels) row(md_level(l), r.counts_for(l));
  row("All", r.counts());
  out << "\n";
  if (size_t na = r.not_applicable_count(); na > 0)
    out << "Not applicable to this run (another binding, profile or role; not skipped): " << na << " scenarios.\n\n";
}

void md_matrix_row(std::ostream& out, const MatrixRow& row, bool reason_column, const MarkdownOptions& o) {
  out << "| " << markdown_cell(row.id, 120) << " | " << md_level(row.level) << " | " << markdown_cell(row.title, 120) << " |";
  for (const auto& c : row.cells) out << " " << (c ? markdown_cell(to_string(c->outcome)) : std::string(kMdDash)) << " |";
  if (reason_column) out << " " << (row.failing ? markdown_cell(row.reason(), o.max_reason_bytes) : "") << " |";
  out << "\n";
}

void md_matrix(std::ostream& out, const RunResult& r, const MarkdownOptions& o) {
  SupportMatrix m = support_matrix(r);
  if (m.rows.empty()) {
    out << "No scenario ran.\n\n";
    return;
  }
  size_t failing = m.failing_rows();
  bool reason_column = failing > 0;
  out << "| Requirement | Level | Title |";
  for (const auto& c : m.columns) out << " " << markdown_cell(c.label(), 80) << " |";
  if (reason_column) out << " Reason |";
  out << "\n|---|---|---|";
  for (size_t i = 0; i < m.columns.size(); ++i) out << ":-:|";
  if (reason_column) out << "---|";
  out << "\n";
  // Failing rows come first, so a long table keeps all of them.
  size_t shown = m.rows.size() > o.max_rows ? failing : m.rows.size();
  for (size_t i = 0; i < shown; ++i) md_matrix_row(out, m.rows[i], reason_column, o);
  out << "\n";
  if (shown < m.rows.size())
    out << m.rows.size() - shown << " more rows (none failing) in " << markdown_cell(o.full_report, 200) << ".\n\n";
}

void md_target_body(std::ostream& out, const RunResult& r, const MarkdownOptions& o) {
  md_level_counts(out, r);
  md_matrix(out, r, o);
}

}  // namespace

void write_markdown(std::ostream& out, const RunResult& r, const MarkdownOptions& o) {
  md_verdict(out, r, "##", r.conformant() ? "CONFORMANT" : "NOT CONFORMANT");
  md_target_body(out, r, o);
}

void write_combined_markdown(std::ostream& out, const std::vector<TargetRun>& targets, const MarkdownOptions& o) {
  bool ok = combined_conformant(targets);
  int code = combined_exit_code(targets);
  out << "## A2A conformance: " << (ok ? "CONFORMANT" : "NOT CONFORMANT") << " \xe2\x80\x94 " << targets.size()
      << " targets\n\nexit code " << code << ": " << markdown_cell(result::describe_exit_code(code)) << "\n\n"
      << "| # | Role | Profile | Target | Passed | Failed | Skipped | Verdict |\n"
      << "|--:|---|---|---|--:|--:|--:|---|\n";
  for (size_t i = 0; i < targets.size(); ++i) {
    const auto& t = targets[i];
    Counts c = t.run.counts();
    out << "| " << i + 1 << " | " << markdown_cell(t.run.role, 40) << " | " << markdown_cell(t.run.profile, 60) << " | "
        << markdown_cell(t.run.target, 200) << " | " << c.passed() << " | " << c.failed() << " | " << c.skipped() << " | "
        << t.verdict() << " |\n";
  }
  out << "\n";
  for (size_t i = 0; i < targets.size(); ++i) {
    const auto& t = targets[i];
    md_verdict(out, t.run, "### " + std::to_string(i + 1) + ".", t.verdict());
    if (!t.error.empty()) {
      out << "> **This target could not be run.** " << markdown_cell(t.error, 600) << "\n\n";
      continue;
    }
    md_target_body(out, t.run, o);
  }
}

}  // namespace a2a::reports
