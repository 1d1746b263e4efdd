// One scenario block of the HTML report: what was checked, what went wrong,
// the steps, the wire transcript both ways, and how to replay it.
#include <cstdio>

#include "reports/html_parts.hpp"

namespace a2a::reports::html {

using result::Outcome;
using result::ScenarioResult;
using result::WireEvent;

namespace {

std::string_view family(Outcome o) {
  switch (o) {
    case Outcome::kFail:
    case Outcome::kXPass:
    case Outcome::kTimeout: return "f-bad";
    case Outcome::kError: return "f-err";
    case Outcome::kNonStrict: return "f-warn";
    case Outcome::kPass: return "f-ok";
    case Outcome::kInformational: return "f-info";
    default: return "f-muted";
  }
}

std::string_view reason_label(Outcome o) {
  switch (o) {
    case Outcome::kSkip: return "Skipped";
    case Outcome::kTimeout: return "Timed out";
    case Outcome::kError: return "Harness or scenario error";
    case Outcome::kXFail:
    case Outcome::kXPass: return "Known-failures list";
    default: return "Note";
  }
}

void write_summary_line(std::ostream& out, const ScenarioResult& s) {
  out << "<summary>" << badge(s.outcome) << " <span class=\"sid mono\">" << esc(s.id)
      << "</span> <span class=\"sname\">" << esc(s.name) << "</span> <span class=\"chip\">"
      << to_string(s.level) << "</span>";
  if (!s.binding.empty() || !s.profile.empty())
    out << "<span class=\"chip\">" << esc(s.binding) << (s.profile.empty() ? "" : " / ")
        << esc(s.profile) << "</span>";
  if (s.role != "agent") out << "<span class=\"chip\">role: " << esc(s.role) << "</span>";
  out << "<span class=\"dur\">" << esc(human_duration(s.duration_ms)) << "</span></summary>\n";
}

void write_facts(std::ostream& out, const ScenarioResult& s) {
  out << "<dl class=\"facts\">\n";
  auto fact = [&](std::string_view label, const std::string& value_html) {
    if (!value_html.empty()) out << "<dt>" << label << "</dt><dd>" << value_html << "</dd>\n";
  };
  fact("Spec", esc(s.spec_ref));
  std::string rules;
  for (const auto& q : s.quotes)
    rules += "<blockquote class=\"rule\">" + esc(q.text) + "<footer>" + esc(q.source) + " " + esc(q.section) +
             "</footer></blockquote>";
  fact("Rule", rules);
  fact("Source", s.source.empty() ? "" : "<code>" + esc(s.source) + "</code>");
  fact("Suite", esc(s.suite_name.empty() ? s.suite_id : s.suite_name + " (" + s.suite_id + ")"));
  std::string tags;
  for (const auto& t : s.tags) tags += (tags.empty() ? "" : ", ") + t;
  fact("Tags", esc(tags));
  fact("Agent exit", s.exit_status.empty() ? "" : "<code>" + agent(s.exit_status) + "</code>");
  out << "</dl>\n";
}

// Red for what fails the run, amber for what is recorded but does not.
void write_failure(std::ostream& out, const result::Failure& f, bool fails, const HtmlOptions& o) {
  out << "<div class=\"failure" << (fails ? "" : " soft") << "\">\n<p class=\"msg\">" << agent(f.message) << "</p>\n";
  if (!f.step_id.empty() || !f.assertion_path.empty()) {
    out << "<p>";
    if (!f.step_id.empty()) out << "step <code>" << esc(f.step_id) << "</code> ";
    if (!f.assertion_path.empty()) out << "at <code>" << agent(f.assertion_path) << "</code>";
    out << "</p>\n";
  }
  if (!f.expected.empty() || !f.actual.empty()) {
    out << "<div class=\"cmp\"><div><h4>Expected</h4><pre>"
        << html_escape(display_prefix(f.expected, o.max_value_bytes, Display::kText))
        << "</pre></div><div><h4>Actual</h4><pre>"
        << html_escape(display_prefix(f.actual, o.max_value_bytes, Display::kText))
        << "</pre></div></div>\n";
  }
  out << "</div>\n";
}

void write_steps(std::ostream& out, const ScenarioResult& s) {
  if (s.steps.empty()) return;
  out << "<h3>Steps</h3>\n<table class=\"steps\"><thead><tr><th>Step</th><th>Outcome</th>"
      << "<th>Time</th><th>Detail</th></tr></thead><tbody>\n";
  for (const auto& st : s.steps) {
    out << "<tr><td><code>" << esc(st.id) << "</code></td><td>" << badge(st.outcome) << "</td><td>"
        << esc(human_duration(st.duration_ms)) << "</td><td>";
    if (st.failure) {
      out << agent(st.failure->message);
      if (!st.failure->assertion_path.empty())
        out << " <span class=\"note\">at <code>" << agent(st.failure->assertion_path) << "</code></span>";
    }
    if (!st.note.empty()) out << (st.failure ? "<br>" : "") << agent(st.note);
    out << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

struct DirView {
  std::string_view row_class, label;
};

DirView direction(std::string_view dir) {
  if (dir.starts_with("to-")) return {"d-out", "\xe2\x86\x92 "};    // →
  if (dir.starts_with("from-")) return {"d-in", "\xe2\x86\x90 "};   // ←
  if (dir == "stderr") return {"d-err", ""};
  return {"d-note", ""};
}

// A payload split at a code point boundary near `at`, so folding never
// shows a bogus \xNN where a multi-byte character was cut.
size_t fold_point(std::string_view bytes, size_t at) {
  size_t cut = at;
  while (cut > at - 3 && cut > 0 && (static_cast<unsigned char>(bytes[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

void write_payload(std::ostream& out, std::string_view bytes, const HtmlOptions& o) {
  if (bytes.size() <= o.fold_bytes) {
    out << agent(bytes, Display::kWire);
    return;
  }
  size_t cut = fold_point(bytes, o.fold_bytes);
  out << agent(bytes.substr(0, cut), Display::kWire) << "<details class=\"more\"><summary>show all ("
      << bytes.size() - cut << " more bytes)</summary>" << agent(bytes.substr(cut), Display::kWire)
      << "</details>";
}

void write_event(std::ostream& out, const WireEvent& e, std::string_view bytes, const HtmlOptions& o) {
  DirView d = direction(e.dir);
  char t[32];
  std::snprintf(t, sizeof t, "%.3f", e.t_ms);
  out << "<tr class=\"" << d.row_class << "\"><td class=\"t\">" << t << "</td><td class=\"d\">"
      << d.label << esc(e.dir.starts_with("to-")     ? e.dir.substr(3)
                        : e.dir.starts_with("from-") ? e.dir.substr(5)
                                                     : e.dir)
      << "</td><td><pre>";
  write_payload(out, bytes, o);
  out << "</pre></td></tr>\n";
}

void write_transcript(std::ostream& out, const ScenarioResult& s, const HtmlOptions& o) {
  if (s.transcript.empty() && s.transcript_dropped_bytes == 0) return;
  out << "<h3>Wire transcript</h3>\n<table class=\"wire\"><colgroup><col class=\"t\"><col class=\"d\">"
      << "<col></colgroup><thead><tr><th>t (ms)</th><th>Direction</th><th>Bytes</th></tr></thead><tbody>\n";
  size_t budget = o.max_transcript_bytes, hidden_bytes = 0, hidden_events = 0;
  for (const auto& e : s.transcript) {
    if (budget == 0) {
      hidden_bytes += e.bytes.size();
      ++hidden_events;
      continue;
    }
    size_t take = std::min(budget, e.bytes.size());
    write_event(out, e, std::string_view(e.bytes).substr(0, take), o);
    budget -= take;
    hidden_bytes += e.bytes.size() - take;
  }
  out << "</tbody></table>\n";
  if (hidden_bytes > 0)
    out << "<p class=\"note\">" << hidden_bytes << " more bytes (" << hidden_events
        << " further events) not shown here: HTML cap of " << o.max_transcript_bytes
        << " bytes per scenario. The JSON report has the whole recorded transcript.</p>\n";
  if (s.transcript_dropped_bytes > 0)
    out << "<p class=\"note\">" << s.transcript_dropped_bytes
        << " bytes were not recorded at all (transcript cap of the engine).</p>\n";
}

void write_tail(std::ostream& out, const ScenarioResult& s, size_t index, const HtmlOptions& o) {
  if (!s.stderr_excerpt.empty())
    out << "<h3>stderr (excerpt)</h3>\n<pre>"
        << html_escape(display_prefix(s.stderr_excerpt, o.max_value_bytes, Display::kWire)) << "</pre>\n";
  if (!s.replay_command.empty()) {
    std::string id = esc(o.id_prefix) + "r-" + std::to_string(index);
    out << "<h3>Replay</h3>\n<div class=\"replay\"><code id=\"" << id << "\">" << esc(s.replay_command)
        << "</code><button type=\"button\" class=\"copy\" data-target=\"" << id
        << "\">Copy</button></div>\n";
  }
}

}  // namespace

void write_scenario(std::ostream& out, const ScenarioResult& s, size_t index, const HtmlOptions& o) {
  bool failing = result::fails_run(s.outcome);
  bool open = failing || s.outcome == Outcome::kNonStrict;
  out << "<details class=\"scn " << family(s.outcome) << "\" id=\"" << esc(anchor(index, o.id_prefix))
      << "\" data-outcome=\"" << to_string(s.outcome) << "\"" << (failing ? " data-failing" : "")
      << (open ? " open" : "") << ">\n";
  write_summary_line(out, s);
  out << "<div class=\"body\">\n";
  if (!s.requirement.empty()) out << "<p class=\"req\">" << esc(s.requirement) << "</p>\n";
  write_facts(out, s);
  if (!s.reason.empty())
    out << "<div class=\"reason\"><p class=\"label\">" << reason_label(s.outcome) << "</p><pre>"
        << agent(s.reason) << "</pre></div>\n";
  if (s.failure) write_failure(out, *s.failure, failing, o);
  write_steps(out, s);
  write_transcript(out, s, o);
  write_tail(out, s, index, o);
  out << "</div>\n</details>\n";
}

}  // namespace a2a::reports::html
