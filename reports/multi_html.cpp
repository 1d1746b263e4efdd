// The combined HTML page of several targets: the overall verdict, a table of
// the targets linking to one section per target, each section the usual
// report content with its ids prefixed ("t1-s-0"), so ids stay unique.
#include "reports/multi_report.hpp"

#include "reports/console.hpp"
#include "reports/text.hpp"

namespace a2a::reports {

namespace {

std::string esc(std::string_view s) { return html_escape(s); }
// Target strings are the user's, but may hold anything: made visible, then escaped.
std::string visible(std::string_view s, size_t max = 300) { return html_escape(display_prefix(s, max, Display::kText)); }

std::string section_id(size_t index) { return "t" + std::to_string(index); }

void write_overview(std::ostream& out, const std::vector<TargetRun>& targets, const CombinedInfo& info) {
  bool ok = combined_conformant(targets);
  int code = combined_exit_code(targets);
  out << "<header class=\"top\" id=\"top\">\n<h1>A2A conformance report \xe2\x80\x94 " << targets.size()
      << " targets</h1>\n<div><span class=\"verdict " << (ok ? "ok" : "bad") << "\">"
      << (ok ? "CONFORMANT" : "NOT CONFORMANT") << "</span><span class=\"exit\">exit code " << code << ": "
      << esc(result::describe_exit_code(code)) << "</span></div>\n"
      << "<p class=\"note\">Conformant means every target is conformant; the exit code is the worst "
      << "over the targets.</p>\n<dl class=\"meta\">\n"
      << "<dt>Started</dt><dd>" << esc(info.started_at) << "</dd>\n"
      << "<dt>Duration</dt><dd>" << esc(human_duration(info.duration_ms)) << "</dd>\n"
      << "<dt>Tool</dt><dd>a2a-conform " << esc(info.tool_version) << "</dd>\n"
      << "<dt>Command</dt><dd><code>" << visible(info.command_line, 4000) << "</code></dd>\n</dl>\n"
      << "</header>\n<section>\n<h2>Targets</h2>\n<div class=\"scroll\"><table class=\"sum targets\">\n"
      << "<thead><tr><th>#</th><th>Role</th><th>Profile</th><th>Target</th><th>Passed</th>"
      << "<th>Failed</th><th>Skipped</th><th>Verdict</th><th>Exit code</th><th>Reports</th></tr></thead>\n"
      << "<tbody>\n";
  for (size_t i = 0; i < targets.size(); ++i) {
    const auto& t = targets[i];
    result::Counts c = t.run.counts();
    bool good = t.conformant() && t.exit_code() == 0;
    out << "<tr class=\"target-row\" data-verdict=\"" << esc(t.verdict()) << "\"><td>" << i + 1 << "</td><td>"
        << esc(t.run.role) << "</td><td>" << esc(t.run.profile) << "</td><td><a href=\"#" << section_id(i + 1)
        << "\"><code>" << visible(t.run.target) << "</code></a></td><td class=\"n\">" << c.passed()
        << "</td><td class=\"n\">" << c.failed() << "</td><td class=\"n\">" << c.skipped()
        << "</td><td><span class=\"verdict-cell " << (good ? "ok" : "bad") << "\">" << esc(t.verdict())
        << "</span></td><td class=\"n\">" << t.exit_code() << "</td><td>";
    for (size_t k = 0; k < t.files.size(); ++k)
      out << (k ? "<br>" : "") << "<a href=\"" << esc(t.files[k]) << "\">" << esc(t.files[k]) << "</a>";
    out << "</td></tr>\n";
  }
  out << "</tbody></table></div>\n</section>\n";
}

}  // namespace

void write_combined_html(std::ostream& out, const std::vector<TargetRun>& targets, const CombinedInfo& info,
                         const HtmlOptions& options) {
  std::string nonce = html_nonce(options);
  write_html_open(out, options.title + " \xe2\x80\x94 " + std::to_string(targets.size()) + " targets",
                  info.tool_version, nonce);
  write_overview(out, targets, info);
  for (size_t i = 0; i < targets.size(); ++i) {
    const auto& t = targets[i];
    std::string id = section_id(i + 1);
    out << "<section class=\"scope target\" id=\"" << id << "\" data-target-id=\"" << esc(t.id) << "\">\n";
    HtmlOptions o = options;
    o.id_prefix = id + "-";
    o.title = "Target " + std::to_string(i + 1) + ": " + display_prefix(t.run.role, 40, Display::kText) + " " +
              display_prefix(t.run.target, 200, Display::kText);
    if (t.error.empty()) {
      write_html_target(out, t.run, o);
    } else {
      out << "<header class=\"top\">\n<h2>" << esc(o.title) << "</h2>\n<div><span class=\"verdict bad\">"
          << "ERROR</span><span class=\"exit\">exit code 2: " << esc(result::describe_exit_code(2))
          << "</span></div>\n<p class=\"note\">This target could not be run:</p>\n<pre>" << visible(t.error, 4000)
          << "</pre>\n<dl class=\"meta\">\n<dt>Role</dt><dd>" << esc(t.run.role) << "</dd>\n"
          << "<dt>Target</dt><dd><code>" << visible(t.run.target) << "</code></dd>\n<dt>Profile</dt><dd>"
          << esc(t.run.profile) << "</dd>\n</dl>\n</header>\n";
    }
    out << "<p class=\"note\"><a href=\"#top\">Back to the targets</a></p>\n</section>\n";
  }
  write_html_close(out, info.tool_version, nonce);
}

}  // namespace a2a::reports
