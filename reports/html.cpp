#include "reports/html.hpp"

#include <algorithm>
#include <cctype>
#include <random>

#include "reports/console.hpp"
#include "reports/html_parts.hpp"
#include "runner/result/utf8.hpp"

namespace a2a::reports {

using result::Counts;
using result::Level;
using result::Outcome;
using result::RunResult;

namespace html {

std::string badge(Outcome o) {
  std::string name(to_string(o));
  return "<span class=\"badge o-" + name + "\">" + name + "</span>";
}

std::string anchor(size_t index, std::string_view prefix) {
  return std::string(prefix) + "s-" + std::to_string(index);
}

}  // namespace html

namespace {

using html::esc;

std::string random_nonce() {
  std::random_device rd;
  std::string raw;
  for (int i = 0; i < 4; ++i) {
    auto v = rd();
    for (int k = 0; k < 4; ++k) raw += static_cast<char>((v >> (8 * k)) & 0xFF);
  }
  return result::base64_encode(raw);
}

void write_head(std::ostream& out, std::string_view title, std::string_view tool_version,
                const std::string& nonce) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      << "style-src 'nonce-" << esc(nonce) << "'; script-src 'nonce-" << esc(nonce)
      << "'; img-src data:; base-uri 'none'; form-action 'none'\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<meta name=\"generator\" content=\"a2a-conform " << esc(tool_version) << "\">\n"
      << "<title>" << esc(title)
      << "</title>\n<style nonce=\"" << esc(nonce) << "\">" << html::kCss << "</style>\n</head>\n";
}

void write_verdict(std::ostream& out, const RunResult& r, std::string_view prefix) {
  bool ok = r.conformant();
  int code = r.exit_code();
  out << "<div><span class=\"verdict " << (ok ? "ok" : "bad") << "\">"
      << (ok ? "CONFORMANT" : "NOT CONFORMANT") << "</span><span class=\"exit\">exit code " << code
      << ": " << esc(result::describe_exit_code(code)) << "</span></div>\n<p class=\"note\">"
      << "Conformant means every MUST-level scenario passed (skipped ones excluded; a known "
      << "failure still counts as not met).";
  if (!ok) {
    out << " Not met:";
    int shown = 0;
    for (size_t i = 0; i < r.scenarios.size() && shown < 30; ++i) {
      const auto& s = r.scenarios[i];
      if (s.level != Level::kMust || !result::breaks_conformance(s.outcome)) continue;
      out << (shown++ ? ", " : " ") << "<a href=\"#" << html::anchor(i, prefix) << "\">" << esc(s.id) << "</a>";
    }
  }
  out << "</p>\n";
}

void write_header(std::ostream& out, const RunResult& r, const HtmlOptions& o) {
  // Inside the combined report a target's title is a section heading.
  std::string_view h = o.id_prefix.empty() ? "h1" : "h2";
  out << "<header class=\"top\">\n<" << h << ">" << esc(o.title) << "</" << h << ">\n";
  write_verdict(out, r, o.id_prefix);
  if (!r.diagnosis.empty())
    out << "<div class=\"failure diagnosis\"><p class=\"msg\"><strong>Diagnosis: the target is broken.</strong> "
        << html::agent(r.diagnosis) << "</p></div>\n";
  if (r.interrupted)
    out << "<div class=\"failure diagnosis interrupted\"><p class=\"msg\"><strong>Interrupted.</strong> "
        << esc(result::interruption_text(r)) << "</p></div>\n";
  auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? std::string("\xe2\x80\x94") : s;
  };
  out << "<dl class=\"meta\">\n"
      << "<dt>Role</dt><dd>" << esc(r.role) << "</dd>\n"
      << "<dt>Target</dt><dd><code>" << html::agent(r.target) << "</code></dd>\n"
      << "<dt>Profile</dt><dd>" << esc(r.profile.empty() ? std::string("\xe2\x80\x94") : r.profile) << "</dd>\n"
      << "<dt>Started</dt><dd>" << esc(r.started_at) << "</dd>\n"
      << "<dt>Duration</dt><dd>" << esc(human_duration(r.duration_ms)) << "</dd>\n"
      << "<dt>Tool</dt><dd>a2a-conform " << esc(r.tool_version) << "</dd>\n"
      << "<dt>Bindings</dt><dd>" << esc(list(r.bindings)) << "</dd>\n"
      << "<dt>Profiles</dt><dd>" << esc(list(r.profiles)) << "</dd>\n"
      << "<dt>Command</dt><dd><code>" << html::agent(r.command_line) << "</code></dd>\n"
      << "<dt>Result</dt><dd>" << esc(final_line(r.counts())) << "</dd>\n</dl>\n</header>\n";
}

void write_counts_row(std::ostream& out, const std::string& label_html, const Counts& c) {
  out << "<tr><th>" << label_html << "</th><td>" << c.passed() << "/" << c.total << " passed";
  if (c.failed()) out << ", " << c.failed() << " failed";
  if (c.skip) out << ", " << c.skip << " skipped";
  out << "</td>";
  for (Outcome o : result::kAllOutcomes) {
    int n = c.of(o);
    out << "<td class=\"n" << (n == 0 ? " zero" : "") << "\">" << n << "</td>";
  }
  out << "<td class=\"n\">" << c.total << "</td></tr>\n";
}

void write_table_head(std::ostream& out, std::string_view first) {
  out << "<div class=\"scroll\"><table class=\"sum\">\n<thead><tr><th>" << first << "</th><th>Summary</th>";
  for (Outcome o : result::kAllOutcomes) out << "<th>" << html::badge(o) << "</th>";
  out << "<th>Total</th></tr></thead>\n<tbody>\n";
}

void write_summaries(std::ostream& out, const RunResult& r) {
  out << "<section>\n<h2>Summary by level</h2>\n";
  write_table_head(out, "Level");
  for (Level l : result::kAllLevels) {
    std::string name(to_string(l));
    for (auto& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    write_counts_row(out, name, r.counts_for(l));
  }
  write_counts_row(out, "All", r.counts());
  out << "</tbody></table></div>\n<h2>Summary by binding and profile</h2>\n";
  write_table_head(out, "Binding / profile");
  std::vector<std::pair<std::string, Counts>> groups;
  for (const auto& s : r.scenarios) {
    std::string key = (s.binding.empty() ? "unspecified" : s.binding) +
                      (s.profile.empty() ? "" : " / " + s.profile);
    auto it = std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == key; });
    if (it == groups.end()) it = groups.insert(groups.end(), {key, Counts{}});
    it->second.add(s.outcome);
  }
  for (const auto& [key, c] : groups) write_counts_row(out, esc(key), c);
  out << "</tbody></table></div>\n</section>\n";
}

void write_filters(std::ostream& out, const RunResult& r, std::string_view prefix) {
  Counts c = r.counts();
  out << "<nav class=\"filters\" aria-label=\"Filter scenarios\">\n"
      << "<button type=\"button\" data-filter=\"all\" aria-pressed=\"true\">All (" << c.total
      << ")</button>\n<button type=\"button\" data-filter=\"failing\" aria-pressed=\"false\">"
      << "Failing (" << c.failed() << ")</button>\n";
  for (Outcome o : result::kAllOutcomes) {
    if (c.of(o) == 0) continue;
    out << "<button type=\"button\" data-filter=\"" << to_string(o) << "\" aria-pressed=\"false\">"
        << to_string(o) << " (" << c.of(o) << ")</button>\n";
  }
  out << "<span class=\"gap\"></span><span class=\"tools\"><button type=\"button\" id=\"" << prefix
      << "expand-all\" class=\"expand-all\">Expand all</button><button type=\"button\" id=\"" << prefix
      << "collapse-all\" class=\"collapse-all\">Collapse all</button></span>\n"
      << "</nav>\n";
}

// Collapsed: what was selected but does not apply to this run (not SKIPs).
void write_not_applicable(std::ostream& out, const RunResult& r) {
  if (r.not_applicable.empty()) return;
  out << "<details class=\"not-applicable\"><summary>Not applicable to this run: " << r.not_applicable_count()
      << " scenario(s), written for another binding, profile or role (not skipped: the target plays no part)"
      << "</summary>\n<ul>\n";
  for (const auto& na : r.not_applicable) {
    out << "<li><strong>" << na.ids.size() << "</strong> " << esc(na.reason) << ": <span class=\"ids\">";
    for (size_t i = 0; i < na.ids.size(); ++i) out << (i ? ", " : "") << esc(na.ids[i]);
    out << "</span></li>\n";
  }
  out << "</ul>\n</details>\n";
}

}  // namespace

std::string html_nonce(const HtmlOptions& o) { return o.nonce.empty() ? random_nonce() : o.nonce; }

void write_html_open(std::ostream& out, std::string_view title, std::string_view tool_version,
                     const std::string& nonce) {
  write_head(out, title, tool_version, nonce);
  out << "<body>\n";
}

void write_html_target(std::ostream& out, const RunResult& r, const HtmlOptions& o) {
  write_header(out, r, o);
  html::write_matrix(out, r, o);
  write_summaries(out, r);
  write_not_applicable(out, r);
  out << (o.id_prefix.empty() ? "<h2>" : "<h3>") << "Scenarios" << (o.id_prefix.empty() ? "</h2>\n" : "</h3>\n");
  write_filters(out, r, o.id_prefix);
  // One <main> per page: a target of the combined report gets a <div>.
  std::string_view tag = o.id_prefix.empty() ? "main" : "div";
  out << "<" << tag << " id=\"" << esc(o.id_prefix) << "scenarios\" class=\"scenarios\">\n";
  for (size_t i = 0; i < r.scenarios.size(); ++i) html::write_scenario(out, r.scenarios[i], i, o);
  if (r.scenarios.empty()) out << "<p class=\"note\">No scenario ran.</p>\n";
  out << "</" << tag << ">\n";
}

void write_html_close(std::ostream& out, std::string_view tool_version, const std::string& nonce) {
  out << "<footer>Generated by a2a-conform " << esc(tool_version)
      << ". Agent output is shown escaped: \\r \\n \\t \\\\ and \\xNN stand for the bytes "
      << "themselves.</footer>\n<script nonce=\"" << esc(nonce) << "\">" << html::kJs
      << "</script>\n</body>\n</html>\n";
}

void write_html(std::ostream& out, const RunResult& r, const HtmlOptions& o) {
  std::string nonce = html_nonce(o);
  write_html_open(out, o.title + " \xe2\x80\x94 " + display_prefix(r.target, 200, Display::kText),
                  r.tool_version, nonce);
  write_html_target(out, r, o);
  write_html_close(out, r.tool_version, nonce);
}

}  // namespace a2a::reports
