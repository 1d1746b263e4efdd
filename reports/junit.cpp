#include "reports/junit.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "reports/text.hpp"

namespace a2a::reports {

using result::Outcome;
using result::RunResult;
using result::ScenarioResult;

namespace {

std::string attr(std::string_view s) { return xml_escape(s, true); }
std::string body(std::string_view s) { return xml_escape(s, false); }

std::string seconds(long long ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ms) / 1000.0);
  return buf;
}

struct SuiteGroup {
  std::string id, name;
  std::vector<const ScenarioResult*> tests;
  int failures = 0, errors = 0, skipped = 0;
  long long ms = 0;
};

std::vector<SuiteGroup> group_by_suite(const RunResult& r) {
  std::vector<SuiteGroup> groups;
  std::map<std::string, size_t> index;
  for (const auto& s : r.scenarios) {
    auto [it, fresh] = index.emplace(s.suite_id, groups.size());
    if (fresh) {
      groups.emplace_back();
      groups.back().id = s.suite_id;
      groups.back().name = s.suite_name.empty() ? s.suite_id : s.suite_name;
    }
    SuiteGroup& g = groups[it->second];
    g.tests.push_back(&s);
    g.ms += s.duration_ms;
    if (s.outcome == Outcome::kError) ++g.errors;
    else if (result::fails_run(s.outcome)) ++g.failures;
    else if (s.outcome == Outcome::kSkip) ++g.skipped;
  }
  return groups;
}

std::string value(std::string_view s, const JunitOptions& o) {
  return display_prefix(s, o.max_value_bytes, Display::kText);
}

// The body of <failure> / <error>: everything needed to act without the HTML.
std::string failure_body(const ScenarioResult& s, const JunitOptions& o) {
  std::ostringstream b;
  b << to_string(s.outcome) << " [" << to_string(s.level) << "] " << value(s.requirement, o) << "\n";
  if (!s.reason.empty()) b << "reason: " << value(s.reason, o) << "\n";
  if (s.failure) {
    const auto& f = *s.failure;
    if (!f.message.empty()) b << "failure: " << value(f.message, o) << "\n";
    if (!f.step_id.empty()) b << "step: " << value(f.step_id, o) << "\n";
    if (!f.assertion_path.empty()) b << "at: " << value(f.assertion_path, o) << "\n";
    if (!f.expected.empty()) b << "expected: " << value(f.expected, o) << "\n";
    if (!f.actual.empty()) b << "actual: " << value(f.actual, o) << "\n";
  }
  if (!s.spec_ref.empty()) b << "spec: " << value(s.spec_ref, o) << "\n";
  for (const auto& q : s.quotes)
    b << "rule: " << value(q.source + " " + q.section + ": \"" + q.text + "\"", o) << "\n";
  if (!s.source.empty()) b << "source: " << value(s.source, o) << "\n";
  if (!s.exit_status.empty()) b << "agent: " << value(s.exit_status, o) << "\n";
  if (!s.replay_command.empty()) b << "replay: " << value(s.replay_command, o) << "\n";
  return b.str();
}

std::string message_of(const ScenarioResult& s) {
  if (s.failure && !s.failure->message.empty()) return one_line(s.failure->message, 500);
  if (!s.reason.empty()) return one_line(s.reason, 500);
  return std::string(to_string(s.outcome));
}

std::string transcript_text(const ScenarioResult& s, const JunitOptions& o) {
  std::string out;
  size_t budget = o.max_system_out_bytes;
  for (const auto& e : s.transcript) {
    char head[48];
    std::snprintf(head, sizeof head, "[%9.3f ms] ", e.t_ms);
    out += head + display_bytes(e.dir, Display::kText) + ": ";
    size_t take = std::min(budget, e.bytes.size());
    out += display_prefix(e.bytes, take, Display::kWire) + "\n";
    budget -= take;
    if (budget == 0) {
      out += "... (transcript cut at " + std::to_string(o.max_system_out_bytes) + " bytes)\n";
      break;
    }
  }
  if (s.transcript_dropped_bytes > 0)
    out += "(" + std::to_string(s.transcript_dropped_bytes) + " bytes not recorded: transcript cap)\n";
  if (!s.stderr_excerpt.empty())
    out += "--- stderr excerpt ---\n" + display_bytes(s.stderr_excerpt, Display::kWire) + "\n";
  return out;
}

// class_prefix: "" for one target; "1-slug." in the combined file, so the
// same test against two targets stays two distinct testcases.
void write_testcase(std::ostream& out, const ScenarioResult& s, const JunitOptions& o,
                    std::string_view class_prefix = "") {
  out << "    <testcase classname=\"" << attr(std::string(class_prefix) + s.suite_id) << "\" name=\""
      << attr(one_line(s.id + " " + s.name, 400))
      // The same test on two bindings: two testcases CI tools can tell apart.
      << (s.binding.empty() || s.binding == "stdio" ? "" : attr(" [" + one_line(s.binding, 40) + "]"))
      << "\" time=\"" << seconds(s.duration_ms) << "\"";
  std::string kind = s.outcome == Outcome::kError ? "error"
                     : result::fails_run(s.outcome) ? "failure"
                     : s.outcome == Outcome::kSkip  ? "skipped"
                                                    : "";
  bool note = s.outcome == Outcome::kNonStrict || s.outcome == Outcome::kInformational ||
              s.outcome == Outcome::kXFail;
  if (kind.empty() && !note) {
    out << "/>\n";
    return;
  }
  out << ">\n";
  if (kind == "skipped") {
    out << "      <skipped message=\"" << attr(message_of(s)) << "\"/>\n";
  } else if (!kind.empty()) {
    out << "      <" << kind << " message=\"" << attr(message_of(s)) << "\" type=\""
        << to_string(s.outcome) << "\">" << body(failure_body(s, o)) << "</" << kind << ">\n";
  }
  if (!kind.empty() && kind != "skipped") {
    out << "      <system-out>" << body(transcript_text(s, o)) << "</system-out>\n";
  } else if (note) {
    out << "      <system-out>" << body(failure_body(s, o)) << "</system-out>\n";
  }
  out << "    </testcase>\n";
}

}  // namespace

void write_junit_target_properties(std::ostream& out, const RunResult& r) {
  out << "      <property name=\"role\" value=\"" << attr(r.role) << "\"/>\n"
      << "      <property name=\"profile\" value=\"" << attr(r.profile) << "\"/>\n"
      << "      <property name=\"target\" value=\"" << attr(r.target) << "\"/>\n";
  if (r.interrupted) out << "      <property name=\"interrupted\" value=\"" << attr(result::interruption_text(r)) << "\"/>\n";
}

void write_junit_target_suite(std::ostream& out, const RunResult& r, std::string_view name,
                              const std::vector<std::pair<std::string, std::string>>& extra_properties,
                              const JunitOptions& o) {
  result::Counts c = r.counts();
  out << "  <testsuite name=\"" << attr(name) << "\" tests=\"" << c.total << "\" failures=\""
      << c.fail + c.xpass + c.timeout << "\" errors=\"" << c.error << "\" skipped=\"" << c.skip
      << "\" time=\"" << seconds(r.duration_ms) << "\" timestamp=\"" << attr(r.started_at) << "\">\n"
      << "    <properties>\n";
  write_junit_target_properties(out, r);
  for (const auto& [k, v] : extra_properties)
    out << "      <property name=\"" << attr(k) << "\" value=\"" << attr(v) << "\"/>\n";
  out << "    </properties>\n";
  std::string prefix = std::string(name) + ".";
  for (const auto& s : r.scenarios) write_testcase(out, s, o, prefix);
  out << "  </testsuite>\n";
}

void write_junit(std::ostream& out, const RunResult& r, const JunitOptions& o) {
  result::Counts c = r.counts();
  // An interrupted run adds one errored test case, so a CI dashboard that
  // reads only JUnit does not show a cut-short run as green.
  int interrupted = r.interrupted ? 1 : 0;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"a2a-conform\" tests=\"" << c.total + interrupted << "\" failures=\""
      << c.fail + c.xpass + c.timeout << "\" errors=\"" << c.error + interrupted << "\" skipped=\"" << c.skip
      << "\" time=\"" << seconds(r.duration_ms) << "\" timestamp=\"" << attr(r.started_at)
      << "\">\n";
  for (const auto& g : group_by_suite(r)) {
    out << "  <testsuite name=\"" << attr(g.id) << "\" tests=\"" << g.tests.size()
        << "\" failures=\"" << g.failures << "\" errors=\"" << g.errors << "\" skipped=\""
        << g.skipped << "\" time=\"" << seconds(g.ms) << "\">\n";
    out << "    <properties>\n      <property name=\"suite_name\" value=\"" << attr(g.name)
        << "\"/>\n";
    write_junit_target_properties(out, r);
    out << "    </properties>\n";
    for (const auto* s : g.tests) write_testcase(out, *s, o);
    out << "  </testsuite>\n";
  }
  if (r.interrupted) {
    out << "  <testsuite name=\"interrupted\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
        << "    <properties>\n";
    write_junit_target_properties(out, r);
    out << "    </properties>\n"
        << "    <testcase classname=\"a2a-conform\" name=\"the run\" time=\"0\">\n"
        << "      <error type=\"interrupted\" message=\"" << attr(result::interruption_text(r)) << "\"/>\n"
        << "    </testcase>\n  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace a2a::reports
