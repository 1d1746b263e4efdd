// The three forms of a diff say the same things in the same order:
// verdict, counts by level, then regressions, degraded, fixes, other
// changes, new, removed, changed reasons (result::kAllChangeKinds).
#include "reports/diff_report.hpp"

#include <cctype>
#include <iomanip>
#include <sstream>

#include "reports/text.hpp"
#include "runner/result/utf8.hpp"

namespace a2a::reports {

using nlohmann::json;
using result::ChangeKind;
using result::RunDiff;
using result::ScenarioChange;

namespace {

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

const char* section_title(ChangeKind k) {
  switch (k) {
    case ChangeKind::kRegression: return "Regressions (fail the diff)";
    case ChangeKind::kDegraded: return "Degraded to NON_STRICT (a SHOULD no longer met; does not fail the diff)";
    case ChangeKind::kFix: return "Fixes";
    case ChangeKind::kChanged: return "Other outcome changes (to or from SKIP or INFORMATIONAL, between failures)";
    case ChangeKind::kNew: return "New scenarios (only in NEW)";
    case ChangeKind::kRemoved: return "Removed scenarios (only in OLD)";
    case ChangeKind::kReason: return "Changed reasons (same outcome)";
  }
  return "";
}

const char* json_member(ChangeKind k) {
  switch (k) {
    case ChangeKind::kRegression: return "regressions";
    case ChangeKind::kDegraded: return "degraded";
    case ChangeKind::kFix: return "fixes";
    case ChangeKind::kChanged: return "changed";
    case ChangeKind::kNew: return "new_scenarios";
    case ChangeKind::kRemoved: return "removed_scenarios";
    case ChangeKind::kReason: return "changed_reasons";
  }
  return "changed";
}

std::string outcome_text(const std::optional<result::Outcome>& o) {
  return o ? std::string(result::to_string(*o)) : std::string("-");
}

std::string level_name(const std::optional<result::Level>& l) {
  if (!l) return "all";
  std::string s(result::to_string(*l));
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

bool several_targets(const RunDiff& d) { return d.new_side.targets.size() > 1; }

std::string side_line(const result::DiffSide& s) {
  std::string out = one_line(s.file, 300);
  for (size_t i = 0; i < s.targets.size(); ++i)
    out += (i ? ", " : " (") + one_line(s.targets[i], 200) + (i + 1 == s.targets.size() ? ")" : "");
  return out;
}

std::string markdown_side(const result::DiffSide& s) {
  std::string out = markdown_cell(s.file);
  for (size_t i = 0; i < s.targets.size(); ++i)
    out += (i ? ", " : " (") + markdown_cell(s.targets[i], 200) + (i + 1 == s.targets.size() ? ")" : "");
  return out;
}

std::string arrow(int before, int after) { return std::to_string(before) + " -> " + std::to_string(after); }

void console_counts(std::ostream& os, const RunDiff& d) {
  os << "counts by level (OLD -> NEW):\n";
  os << "  " << std::left << std::setw(8) << "level" << std::setw(14) << "passed" << std::setw(14) << "failed"
     << std::setw(14) << "non-strict" << std::setw(14) << "skipped" << "total\n";
  for (const auto& lc : d.counts) {
    const auto &a = lc.old_counts, &b = lc.new_counts;
    os << "  " << std::setw(8) << level_name(lc.level) << std::setw(14) << arrow(a.passed(), b.passed())
       << std::setw(14) << arrow(a.failed(), b.failed()) << std::setw(14) << arrow(a.non_strict, b.non_strict)
       << std::setw(14) << arrow(a.skipped(), b.skipped()) << arrow(a.total, b.total) << "\n";
  }
  os << std::right;
}

void console_change(std::ostream& os, const RunDiff& d, const ScenarioChange& c) {
  os << "  ";
  if (several_targets(d)) os << "target " << c.target + 1 << ": ";
  os << one_line(c.id, 120) << "  [" << result::to_string(c.level);
  if (!c.binding.empty()) os << ", " << one_line(c.binding, 40);
  os << "]  " << outcome_text(c.old_outcome) << " -> " << outcome_text(c.new_outcome) << "  " << one_line(c.name, 200)
     << "\n";
  bool reason = c.kind == ChangeKind::kReason;
  if ((reason || c.kind == ChangeKind::kFix || c.kind == ChangeKind::kRemoved) && !c.old_reason.empty())
    os << "      was: " << one_line(c.old_reason) << "\n";
  if (c.kind != ChangeKind::kRemoved && !c.new_reason.empty()) os << "      now: " << one_line(c.new_reason) << "\n";
}


void markdown_counts(std::ostream& os, const RunDiff& d) {
  os << "| Level | Passed | Failed | Non-strict | Skipped | Total |\n|---|---|---|---|---|---|\n";
  for (const auto& lc : d.counts) {
    const auto &a = lc.old_counts, &b = lc.new_counts;
    os << "| " << level_name(lc.level) << " | " << arrow(a.passed(), b.passed()) << " | "
       << arrow(a.failed(), b.failed()) << " | " << arrow(a.non_strict, b.non_strict) << " | "
       << arrow(a.skipped(), b.skipped()) << " | " << arrow(a.total, b.total) << " |\n";
  }
}

void markdown_section(std::ostream& os, const RunDiff& d, ChangeKind k) {
  bool reason = k == ChangeKind::kReason;
  os << "\n### " << section_title(k) << ": " << d.count(k) << "\n\n";
  os << (several_targets(d) ? "| Target " : "") << "| Scenario | Name | Binding | Level | Old | New | "
     << (reason ? "Old reason | New reason |" : "Reason |") << "\n";
  os << (several_targets(d) ? "|---" : "") << "|---|---|---|---|---|---|---|" << (reason ? "---|" : "") << "\n";
  for (const auto& c : d.changes) {
    if (c.kind != k) continue;
    if (several_targets(d)) os << "| " << c.target + 1 << " ";
    os << "| " << markdown_cell(c.id, 120) << " | " << markdown_cell(c.name, 200) << " | "
       << markdown_cell(c.binding, 40) << " | " << result::to_string(c.level) << " | " << outcome_text(c.old_outcome)
       << " | " << outcome_text(c.new_outcome) << " | ";
    if (reason)
      os << markdown_cell(c.old_reason) << " | " << markdown_cell(c.new_reason) << " |\n";
    else
      os << markdown_cell(k == ChangeKind::kRemoved ? c.old_reason : c.new_reason) << " |\n";
  }
}

json side_json(const result::DiffSide& s) {
  json j = json::object();
  result::put_text(j, "file", s.file);
  j["targets"] = json::array();
  for (const auto& t : s.targets) {
    json tj = json::object();
    result::put_text(tj, "target", t);
    j["targets"].push_back(tj);
  }
  return j;
}

json change_json(const ScenarioChange& c) {
  json j = json::object();
  j["target"] = c.target + 1;
  result::put_text(j, "id", c.id);
  result::put_text(j, "name", c.name);
  result::put_text(j, "binding", c.binding);
  j["level"] = std::string(result::to_string(c.level));
  j["old_outcome"] = c.old_outcome ? json(std::string(result::to_string(*c.old_outcome))) : json(nullptr);
  j["new_outcome"] = c.new_outcome ? json(std::string(result::to_string(*c.new_outcome))) : json(nullptr);
  result::put_text(j, "old_reason", c.old_reason);
  result::put_text(j, "new_reason", c.new_reason);
  return j;
}

}  // namespace

std::string diff_verdict(const RunDiff& d) {
  std::string s = d.regressed()                 ? "REGRESSED: "
                  : !d.new_incomplete.empty()   ? "NEW IS INCOMPLETE: "
                                                : "NO REGRESSIONS: ";
  s += plural(d.count(ChangeKind::kRegression), "regression", "regressions") + ", " +
       plural(d.count(ChangeKind::kFix), "fix", "fixes") + ", " +
       plural(d.count(ChangeKind::kDegraded), "degraded", "degraded") + ", " +
       plural(d.count(ChangeKind::kChanged), "other change", "other changes") + ", " +
       plural(d.count(ChangeKind::kNew), "new", "new") + ", " + plural(d.count(ChangeKind::kRemoved), "removed", "removed") +
       ", " + plural(d.count(ChangeKind::kReason), "changed reason", "changed reasons") + ", " +
       plural(static_cast<size_t>(d.unchanged), "unchanged", "unchanged");
  return s;
}

void write_diff_console(std::ostream& os, const RunDiff& d) {
  os << "OLD: " << side_line(d.old_side) << "\nNEW: " << side_line(d.new_side) << "\n\n";
  console_counts(os, d);
  for (ChangeKind k : result::kAllChangeKinds) {
    size_t n = d.count(k);
    if (n == 0) continue;
    os << "\n" << section_title(k) << ": " << n << "\n";
    for (const auto& c : d.changes)
      if (c.kind == k) console_change(os, d, c);
  }
  for (const auto& why : d.new_incomplete) os << "\nNEW is incomplete: " << one_line(why, 600) << "\n";
  os << "\n" << diff_verdict(d) << "\nexit code " << d.exit_code()
     << (d.regressed()                 ? ": something regressed\n"
         : !d.new_incomplete.empty()   ? ": NEW did not test everything, so it cannot show that nothing regressed\n"
                                       : ": nothing regressed\n");
}

void write_diff_markdown(std::ostream& os, const RunDiff& d) {
  os << "## A2A conformance diff: " << (d.regressed() ? "REGRESSED" : "no regressions") << "\n\n**"
     << diff_verdict(d) << "** (exit code " << d.exit_code() << ")\n\n";
  os << "- OLD: " << markdown_side(d.old_side) << "\n- NEW: " << markdown_side(d.new_side) << "\n\n";
  for (const auto& why : d.new_incomplete) os << "> **NEW is incomplete:** " << markdown_cell(why) << "\n\n";
  markdown_counts(os, d);
  for (ChangeKind k : result::kAllChangeKinds)
    if (d.count(k) > 0) markdown_section(os, d, k);
}

json diff_to_json(const RunDiff& d) {
  json j = json::object();
  j["schema"] = std::string(kDiffSchema);
  j["schema_version"] = kDiffSchemaVersion;
  j["old"] = side_json(d.old_side);
  j["new"] = side_json(d.new_side);
  j["regressed"] = d.regressed();
  j["new_incomplete"] = json::array();
  for (const auto& why : d.new_incomplete) j["new_incomplete"].push_back(result::to_valid_utf8(why));
  j["exit_code"] = d.exit_code();
  j["verdict"] = diff_verdict(d);
  j["unchanged"] = d.unchanged;
  j["summary"] = json::object();
  for (ChangeKind k : result::kAllChangeKinds) j["summary"][json_member(k)] = d.count(k);
  j["by_level"] = json::object();
  for (const auto& lc : d.counts) {
    std::string key = lc.level ? std::string(result::to_string(*lc.level)) : "all";
    j["by_level"][key] = {{"old", result::counts_json(lc.old_counts)}, {"new", result::counts_json(lc.new_counts)}};
  }
  for (ChangeKind k : result::kAllChangeKinds) {
    json list = json::array();
    for (const auto& c : d.changes)
      if (c.kind == k) list.push_back(change_json(c));
    j[json_member(k)] = std::move(list);
  }
  return j;
}

}  // namespace a2a::reports
