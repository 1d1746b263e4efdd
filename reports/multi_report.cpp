// The combined JSON index, JUnit file and console table of several targets
// (the combined HTML page: multi_html.cpp).
#include "reports/multi_report.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "reports/console.hpp"
#include "reports/text.hpp"
#include "runner/result/utf8.hpp"

namespace a2a::reports {

using nlohmann::json;
using result::Counts;

using result::counts_json;
using result::put_text;

namespace {

Counts add(Counts a, const Counts& b) {
  for (result::Outcome o : result::kAllOutcomes)
    for (int i = 0; i < b.of(o); ++i) a.add(o);
  return a;
}

json target_json(const TargetRun& t, size_t index) {
  const auto& r = t.run;
  json j = json::object();
  j["index"] = index;
  put_text(j, "id", t.id);
  put_text(j, "role", r.role);
  put_text(j, "profile", r.profile);
  j["protocol_versions"] = json::array();
  for (const auto& v : r.protocol_versions) j["protocol_versions"].push_back(result::to_valid_utf8(v));
  put_text(j, "target", r.target);
  j["bindings"] = json::array();
  for (const auto& b : r.bindings) j["bindings"].push_back(result::to_valid_utf8(b));
  j["verdict"] = std::string(t.verdict());
  j["conformant"] = t.conformant();
  j["exit_code"] = t.exit_code();
  if (!t.error.empty()) put_text(j, "error", t.error);
  j["counts"] = counts_json(r.counts());
  j["by_level"] = json::object();
  for (result::Level l : result::kAllLevels)
    j["by_level"][std::string(to_string(l))] = counts_json(r.counts_for(l));
  j["started_at"] = result::to_valid_utf8(r.started_at);
  j["duration_ms"] = r.duration_ms;
  j["files"] = json::array();
  for (const auto& f : t.files) j["files"].push_back(result::to_valid_utf8(f));
  return j;
}

std::string attr(std::string_view s) { return xml_escape(s, true); }

std::string seconds(long long ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ms) / 1000.0);
  return buf;
}

// A target that never ran: one <error> testcase, so CI shows it.
void write_error_suite(std::ostream& out, const TargetRun& t) {
  out << "  <testsuite name=\"" << attr(t.id) << "\" tests=\"1\" failures=\"0\" errors=\"1\" "
      << "skipped=\"0\" time=\"0.000\">\n    <properties>\n";
  write_junit_target_properties(out, t.run);
  out << "      <property name=\"verdict\" value=\"ERROR\"/>\n    </properties>\n"
      << "    <testcase classname=\"" << attr(t.id) << "\" name=\"target setup\" time=\"0.000\">\n"
      << "      <error message=\"" << attr(one_line(t.error, 500)) << "\" type=\"ERROR\">"
      << xml_escape(display_prefix(t.error, 4096, Display::kText), false) << "</error>\n"
      << "    </testcase>\n  </testsuite>\n";
}

std::string padded(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string right(const std::string& s, size_t width) {
  return s.size() < width ? std::string(width - s.size(), ' ') + s : s;
}

}  // namespace

std::string_view TargetRun::verdict() const {
  return error.empty() ? result::verdict_text(run) : std::string_view("ERROR");
}

std::string target_slug(std::string_view target, size_t max_bytes) {
  std::string_view s = target;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  if (auto scheme = s.find("://"); scheme != std::string_view::npos && scheme < s.find(' ')) {
    s.remove_prefix(scheme + 3);
  } else {
    // The program's folder says nothing about the target; its name does.
    size_t end = std::min(s.find(' '), s.size());
    size_t slash = s.substr(0, end).rfind('/');
    if (slash != std::string_view::npos) s.remove_prefix(slash + 1);
  }
  std::string out;
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) && c < 0x80) out += static_cast<char>(std::tolower(c));
    else if (c == '.' && !out.empty() && out.back() != '-' && out.back() != '.') out += '.';
    else if (!out.empty() && out.back() != '-') out += '-';
    if (out.size() >= max_bytes) break;
  }
  while (!out.empty() && (out.back() == '-' || out.back() == '.')) out.pop_back();
  return out.empty() ? "target" : out;
}

std::string target_id(size_t index, std::string_view target) {
  return std::to_string(index) + "-" + target_slug(target);
}

int combined_exit_code(const std::vector<TargetRun>& targets) {
  int worst = 0;
  for (const auto& t : targets) worst = std::max(worst, t.exit_code());
  return worst;
}

bool combined_conformant(const std::vector<TargetRun>& targets) {
  return std::all_of(targets.begin(), targets.end(), [](const auto& t) { return t.conformant(); });
}

json combined_json(const std::vector<TargetRun>& targets, const CombinedInfo& info) {
  json j = json::object();
  j["schema"] = kMultiResultSchema;
  j["schema_version"] = kMultiResultSchemaVersion;
  put_text(j, "tool_version", info.tool_version);
  put_text(j, "started_at", info.started_at);
  j["duration_ms"] = info.duration_ms;
  put_text(j, "command_line", info.command_line);
  j["exit_code"] = combined_exit_code(targets);
  j["conformant"] = combined_conformant(targets);
  Counts all;
  j["targets"] = json::array();
  for (size_t i = 0; i < targets.size(); ++i) {
    all = add(all, targets[i].run.counts());
    j["targets"].push_back(target_json(targets[i], i + 1));
  }
  j["counts"] = counts_json(all);
  return j;
}

void write_combined_json(std::ostream& out, const std::vector<TargetRun>& targets, const CombinedInfo& info) {
  out << combined_json(targets, info).dump(2) << "\n";
}

void write_combined_junit(std::ostream& out, const std::vector<TargetRun>& targets, const CombinedInfo& info,
                          const JunitOptions& options) {
  Counts all;
  int setup_errors = 0;
  for (const auto& t : targets) {
    all = add(all, t.run.counts());
    setup_errors += t.error.empty() ? 0 : 1;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"a2a-conform\" tests=\"" << all.total + setup_errors << "\" failures=\""
      << all.fail + all.xpass + all.timeout << "\" errors=\"" << all.error + setup_errors << "\" skipped=\""
      << all.skip << "\" time=\"" << seconds(info.duration_ms) << "\" timestamp=\"" << attr(info.started_at)
      << "\">\n";
  for (const auto& t : targets) {
    if (!t.error.empty()) {
      write_error_suite(out, t);
      continue;
    }
    write_junit_target_suite(out, t.run, t.id,
                             {{"verdict", std::string(t.verdict())}, {"exit_code", std::to_string(t.exit_code())}},
                             options);
  }
  out << "</testsuites>\n";
}

void write_targets_table(std::ostream& out, const std::vector<TargetRun>& targets) {
  out << "\ntargets (" << targets.size() << "):\n"
      << "  #  " << padded("role", 7) << padded("profile", 12) << "passed  failed  skipped  "
      << padded("verdict", 16) << "target\n";
  Counts all;
  for (size_t i = 0; i < targets.size(); ++i) {
    const auto& t = targets[i];
    Counts c = t.run.counts();
    all = add(all, c);
    out << right(std::to_string(i + 1), 3) << "  " << padded(one_line(t.run.role, 20), 7)
        << padded(one_line(t.run.profile.empty() ? "-" : t.run.profile, 40), 12)
        << right(std::to_string(c.passed()), 6) << "  " << right(std::to_string(c.failed()), 6) << "  "
        << right(std::to_string(c.skipped()), 7) << "  " << padded(std::string(t.verdict()), 16)
        << one_line(t.run.target, 300) << "\n";
    if (!t.error.empty()) out << "     error: " << one_line(t.error, 400) << "\n";
  }
  int code = combined_exit_code(targets);
  out << "\n" << (combined_conformant(targets) ? "CONFORMANT" : "NOT CONFORMANT")
      << " (every target), exit code " << code << ": " << result::describe_exit_code(code) << "\n"
      << final_line(all) << "\n";
  out.flush();
}

}  // namespace a2a::reports
