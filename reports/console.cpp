#include "reports/console.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "reports/text.hpp"

namespace a2a::reports {

using result::Level;
using result::Outcome;
using result::RunResult;
using result::ScenarioResult;

namespace {

constexpr size_t kOutcomeWidth = 13;  // "INFORMATIONAL"

std::string_view color_code(Outcome o) {
  switch (o) {
    case Outcome::kPass: return "\x1b[32m";
    case Outcome::kFail:
    case Outcome::kXPass:
    case Outcome::kTimeout: return "\x1b[1;31m";
    case Outcome::kError: return "\x1b[1;35m";
    case Outcome::kNonStrict: return "\x1b[33m";
    case Outcome::kInformational: return "\x1b[36m";
    case Outcome::kSkip:
    case Outcome::kXFail: return "\x1b[2m";
  }
  return "";
}

// Recap order: what fails the run first, in a fixed order, then NON_STRICT.
int recap_rank(Outcome o) {
  switch (o) {
    case Outcome::kFail: return 0;
    case Outcome::kTimeout: return 1;
    case Outcome::kXPass: return 2;
    case Outcome::kError: return 3;
    case Outcome::kNonStrict: return 4;
    default: return -1;
  }
}

std::string padded(std::string_view s, size_t width) {
  std::string out(s);
  if (out.size() < width) out.append(width - out.size(), ' ');
  return out;
}

}  // namespace

bool stream_wants_color(const std::ostream& out) {
  int fd = -1;
  if (&out == &std::cout) fd = STDOUT_FILENO;
  else if (&out == &std::cerr || &out == &std::clog) fd = STDERR_FILENO;
  if (fd < 0 || !::isatty(fd)) return false;
  const char* no_color = std::getenv("NO_COLOR");
  return no_color == nullptr || *no_color == '\0';
}

ConsoleReporter::ConsoleReporter(std::ostream& out, ConsoleOptions options)
    : out_(out), options_(options) {
  color_ = options_.color == ColorMode::kAlways ||
           (options_.color == ColorMode::kAuto && stream_wants_color(out_));
}

std::string ConsoleReporter::paint(Outcome o, std::string_view text) const {
  if (!color_) return std::string(text);
  return std::string(color_code(o)) + std::string(text) + "\x1b[0m";
}

void ConsoleReporter::on_start(int total) {
  std::lock_guard lock(mu_);
  total_ = total;
  done_ = 0;
  out_ << "running " << total << (total == 1 ? " scenario" : " scenarios") << "\n";
  out_.flush();
}

void ConsoleReporter::on_target(std::string_view role, std::string_view profile,
                                std::string_view target, int index, int count) {
  std::lock_guard lock(mu_);
  if (count > 1)
    out_ << "\n=== target " << index << "/" << count << ": " << target_label(role, profile, target) << "\n";
  else
    out_ << "testing " << target_label(role, profile, target) << "\n";
  out_.flush();
}

void ConsoleReporter::on_scenario_done(const ScenarioResult& s, int index) {
  std::lock_guard lock(mu_);
  ++done_;
  if (!options_.progress) return;
  int shown = index > 0 ? index : done_;
  std::string total = std::to_string(std::max(total_, shown));
  std::string number = std::to_string(shown);
  std::string name(to_string(s.outcome));
  // Padding stays outside the colour codes so the columns line up either way.
  out_ << "[" << std::string(total.size() - std::min(total.size(), number.size()), ' ') << number
       << "/" << total << "] " << paint(s.outcome, name)
       << std::string(kOutcomeWidth + 1 - name.size(), ' ') << one_line(s.id, 120)
       << (s.binding.empty() || s.binding == "stdio" ? "" : " [" + one_line(s.binding, 40) + "]") << "  "
       << one_line(s.name, 200) << "  (" << s.duration_ms << " ms)\n";
  out_.flush();
}

void ConsoleReporter::write_recap_entry(const ScenarioResult& s) {
  const size_t max = options_.max_value_bytes;
  out_ << "\n" << paint(s.outcome, to_string(s.outcome)) << "  " << one_line(s.id, 120) << "  "
       << one_line(s.name, 200) << "  [" << to_string(s.level);
  if (!s.binding.empty()) out_ << ", " << one_line(s.binding, 40);
  if (!s.profile.empty()) out_ << "/" << one_line(s.profile, 40);
  out_ << "]\n";
  if (!s.reason.empty()) out_ << "  reason:   " << one_line(s.reason, max) << "\n";
  if (s.failure) {
    const auto& f = *s.failure;
    out_ << "  failure:  " << one_line(f.message, max);
    if (!f.step_id.empty()) out_ << " (step " << one_line(f.step_id, 80) << ")";
    out_ << "\n";
    if (!f.assertion_path.empty()) out_ << "  at:       " << one_line(f.assertion_path, 200) << "\n";
    if (!f.expected.empty()) out_ << "  expected: " << one_line(f.expected, max) << "\n";
    if (!f.actual.empty()) out_ << "  actual:   " << one_line(f.actual, max) << "\n";
  }
  for (const auto& q : s.quotes)
    out_ << "  rule:     " << one_line(q.source + " " + q.section + ": \"" + q.text + "\"", 600) << "\n";
  if (!s.source.empty()) out_ << "  source:   " << one_line(s.source, 200) << "\n";
  if (!s.replay_command.empty()) out_ << "  replay:   " << one_line(s.replay_command, 1000) << "\n";
}

void ConsoleReporter::write_recap(const RunResult& r) {
  std::vector<const ScenarioResult*> listed;
  for (const auto& s : r.scenarios)
    if (recap_rank(s.outcome) >= 0) listed.push_back(&s);
  if (listed.empty()) return;
  std::stable_sort(listed.begin(), listed.end(), [](const auto* a, const auto* b) {
    return recap_rank(a->outcome) < recap_rank(b->outcome);
  });
  out_ << "\nnot passed (" << listed.size() << "):\n";
  for (const auto* s : listed) write_recap_entry(*s);
}

void ConsoleReporter::write_not_applicable(const RunResult& r) {
  if (r.not_applicable.empty()) return;
  out_ << "\nnot applicable (" << r.not_applicable_count()
       << ", not skipped: written for another binding, profile or role):\n";
  for (const auto& na : r.not_applicable)
    out_ << padded(std::to_string(na.ids.size()), 6) << one_line(na.reason, 200) << "\n";
}

void ConsoleReporter::write_levels(const RunResult& r) {
  out_ << "\n";
  for (Level l : result::kAllLevels) out_ << level_summary_line(l, r.counts_for(l)) << "\n";
  int code = r.exit_code();
  out_ << "\ntested: " << target_label(r.role, r.profile, r.target) << "\n";
  out_ << (r.conformant() ? "CONFORMANT" : "NOT CONFORMANT")
       << " (every MUST-level scenario must pass; skipped ones excluded), exit code " << code
       << ": " << result::describe_exit_code(code) << "\n";
}

void ConsoleReporter::finish(const RunResult& r) {
  std::lock_guard lock(mu_);
  if (!r.diagnosis.empty()) out_ << "\n" << paint(Outcome::kError, "DIAGNOSIS") << "  " << display_bytes(r.diagnosis, Display::kText) << "\n";
  if (r.interrupted) out_ << "\n" << paint(Outcome::kError, "INTERRUPTED") << "  " << one_line(result::interruption_text(r), 600) << "\n";
  write_recap(r);
  write_not_applicable(r);
  write_levels(r);
  out_ << final_line(r.counts()) << "\n";
  out_.flush();
}

std::string level_summary_line(Level level, const result::Counts& c) {
  std::string label = std::string(to_string(level));
  std::transform(label.begin(), label.end(), label.begin(), ::toupper);
  std::string line = padded(label + ":", 8);
  std::string ratio = std::to_string(c.passed()) + "/" + std::to_string(c.total);
  line += padded("", ratio.size() < 5 ? 5 - ratio.size() : 0) + ratio + " passed";
  std::vector<std::string> parts;
  if (c.failed() > 0) parts.push_back(std::to_string(c.failed()) + " failed");
  if (c.skip > 0) parts.push_back(std::to_string(c.skip) + " skipped");
  if (c.non_strict > 0) parts.push_back(std::to_string(c.non_strict) + " non-strict");
  if (c.xfail > 0) parts.push_back(std::to_string(c.xfail) + " xfail");
  if (parts.empty()) return line;
  line += " (";
  for (size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : "") + parts[i];
  return line + ")";
}

std::string target_label(std::string_view role, std::string_view profile, std::string_view target) {
  std::string s = one_line(role, 40) + " " + one_line(target, 300);
  if (!profile.empty()) s += " (profile " + one_line(profile, 80) + ")";
  return s;
}

std::string final_line(const result::Counts& c) {
  return std::to_string(c.passed()) + " passed, " + std::to_string(c.failed()) + " failed, " +
         std::to_string(c.skipped()) + " skipped";
}

}  // namespace a2a::reports
