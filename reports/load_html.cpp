// One self-contained page: no script, no external asset; every text that may
// come from the agent (reasons, transcripts, the target's own words) goes
// through display_bytes and html_escape.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "reports/load_report.hpp"
#include "reports/text.hpp"

namespace a2a::reports {

namespace {

std::string load_esc(std::string_view s) { return html_escape(display_bytes(s, Display::kText)); }

std::string load_num(double v, const char* fmt = "%.1f") {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Bars of the latency histogram, log-spaced bins (x) and sample counts (y).
void load_svg(std::ostream& out, const result::LoadOpStats& st) {
  const auto& bins = st.latency.bins;
  if (bins.empty()) {
    out << "<p>No answer recorded.</p>\n";
    return;
  }
  const int w = 640, h = 200, left = 50, bottom = 40, top = 10;
  uint64_t peak = 1;
  for (const auto& b : bins) peak = std::max(peak, b.count);
  double bw = static_cast<double>(w - left - 10) / static_cast<double>(bins.size());
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
      << "\" role=\"img\" aria-label=\"latency histogram of " << load_esc(st.op) << "\">\n";
  out << "<line x1=\"" << left << "\" y1=\"" << h - bottom << "\" x2=\"" << w - 10 << "\" y2=\"" << h - bottom
      << "\" stroke=\"#333\"/>\n";
  out << "<text x=\"4\" y=\"" << top + 10 << "\" font-size=\"11\">" << peak << "</text>\n";
  for (size_t i = 0; i < bins.size(); ++i) {
    const auto& b = bins[i];
    double bh = static_cast<double>(h - bottom - top) * static_cast<double>(b.count) / static_cast<double>(peak);
    double x = left + bw * static_cast<double>(i);
    out << "<rect x=\"" << load_num(x) << "\" y=\"" << load_num(h - bottom - bh) << "\" width=\""
        << load_num(std::max(bw - 1, 1.0)) << "\" height=\"" << load_num(bh) << "\" fill=\"#4a7bd0\"><title>"
        << load_esc(load_latency_text(b.lo_us)) << " .. " << load_esc(load_latency_text(b.hi_us)) << ": " << b.count
        << "</title></rect>\n";
    // Labels: the first bar's low edge, the middle one's, the last bar's
    // high edge (anchored at its end so it stays inside the picture).
    bool last = i + 1 == bins.size();
    if (i == 0 || last || i == bins.size() / 2)
      out << "<text x=\"" << load_num(last ? x + bw : x) << "\" y=\"" << h - bottom + 14 << "\" font-size=\"10\""
          << (last && i > 0 ? " text-anchor=\"end\"" : "") << ">"
          << load_esc(load_latency_text(last && i > 0 ? b.hi_us : b.lo_us)) << "</text>\n";
  }
  out << "<text x=\"" << left << "\" y=\"" << h - 6 << "\" font-size=\"11\">latency (log scale), "
      << st.latency.count << " answers</text>\n</svg>\n";
}

void load_stats_row(std::ostream& out, const result::LoadOpStats& st, double elapsed_s) {
  const auto& l = st.latency;
  auto lat = [&](double v) { return l.count ? load_esc(load_latency_text(v)) : std::string("-"); };
  double rps = elapsed_s > 0 ? static_cast<double>(st.conformant + st.nonconformant) / elapsed_s : 0;
  out << "<tr><td>" << load_esc(st.op) << "</td><td>" << st.requests << "</td><td>" << load_num(rps) << "</td><td>"
      << lat(l.p50_us) << "</td><td>" << lat(l.p90_us) << "</td><td>" << lat(l.p99_us) << "</td><td>" << lat(l.max_us)
      << "</td><td" << (st.nonconformant ? " class=\"bad\"" : "") << ">" << st.nonconformant << "</td><td>" << st.shed
      << "</td><td>" << st.transport_errors << "</td></tr>\n";
}

void load_wire_html(std::ostream& out, const std::vector<result::WireEvent>& transcript, uint64_t dropped) {
  out << "<table class=\"wire\"><tr><th>ms</th><th>dir</th><th>bytes</th></tr>\n";
  for (const auto& e : transcript)
    out << "<tr><td>" << load_num(e.t_ms, "%.2f") << "</td><td>" << load_esc(e.dir) << "</td><td><pre>"
        << html_escape(display_bytes(e.bytes, Display::kWire)) << "</pre></td></tr>\n";
  out << "</table>\n";
  if (dropped) out << "<p>(" << dropped << " more bytes of this call not kept)</p>\n";
}

void load_shed_html(std::ostream& out, const result::LoadRun& run) {
  if (run.shed_kinds.empty()) return;
  out << "<h2>Shed answers</h2><p>The agent declined these requests for now, in a way its binding gives for "
         "&ldquo;overloaded, try again later&rdquo; (not a verdict on conformance; docs/load.md).</p><ul>\n";
  for (const auto& [signal, count] : run.shed_kinds) out << "<li>" << count << " &times; " << load_esc(signal) << "</li>\n";
  out << "</ul>\n";
  for (const auto& x : run.shed_samples) {
    out << "<section class=\"shed\"><h3>Shed: " << load_esc(x.signal) << ", " << load_esc(x.op) << " request " << x.seq
        << ", connection " << x.connection << ", at " << load_num(x.at_ms / 1000, "%.3f") << " s</h3>\n<p>"
        << load_esc(x.detail) << "</p>\n";
    load_wire_html(out, x.transcript, x.transcript_dropped_bytes);
    out << "</section>\n";
  }
}

void load_finding_html(std::ostream& out, const result::LoadFinding& f, size_t n) {
  out << "<section class=\"finding\"><h3>Non-conformant #" << n << ": " << load_esc(f.op) << " ("
      << load_esc(f.operation) << "), request " << f.seq << ", connection " << f.connection << ", at "
      << load_num(f.at_ms / 1000, "%.3f") << " s</h3>\n<p>" << load_esc(f.reason) << "</p>\n";
  for (const auto& q : f.quotes)
    out << "<blockquote>" << load_esc(q.source + " " + q.section) << ": &ldquo;" << load_esc(q.text)
        << "&rdquo;</blockquote>\n";
  load_wire_html(out, f.transcript, f.transcript_dropped_bytes);
  out << "</section>\n";
}

}  // namespace

std::string load_html(const result::LoadRun& run) {
  std::ostringstream out;
  bool bad = run.nonconformant_total > 0;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      << "<title>a2a-conform load: " << load_esc(run.target) << "</title>\n"
      << "<style>body{font-family:sans-serif;margin:1.5em;max-width:70em}table{border-collapse:collapse}"
         "td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}td:first-child{text-align:left}"
         ".bad{color:#b00;font-weight:bold}.ok{color:#070;font-weight:bold}pre{margin:0;white-space:pre-wrap;"
         "word-break:break-all;text-align:left}.wire td{vertical-align:top}.wire th{text-align:left}blockquote{color:#444}</style>\n"
      << "</head><body>\n<h1>a2a-conform load</h1>\n";
  out << "<p class=\"" << (bad ? "bad" : "ok") << "\">"
      << (bad ? "NON-CONFORMANT: " + std::to_string(run.nonconformant_total) + " answer(s)"
          : run.exit_code() == 2 && run.shed_total > 0 ? std::string("NOTHING TESTED: every answer was shed")
          : run.exit_code() == 2 ? std::string("NO ANSWER: nothing was tested")
                                 : std::string("CONFORMANT: every answer"))
      << (run.interrupted ? " (interrupted)" : "") << "</p>\n";
  out << "<p>Target " << load_esc(run.target) << " [" << load_esc(run.binding) << "] " << load_esc(run.interface_url)
      << "<br>" << (run.mode == "open" ? "open loop at " + load_num(run.rate) + " req/s" : std::string("closed loop"))
      << ", " << run.connections << " connection(s), ops";
  for (const auto& [op, w] : run.weights) out << " " << load_esc(op) << "=" << w;
  out << "<br>started " << load_esc(run.started_at) << ", measured " << load_num(run.elapsed_s, "%.2f") << " s (asked "
      << load_num(run.duration_s, "%.2f") << " s, warmup " << load_num(run.warmup_s, "%.2f") << " s), stopped by "
      << load_esc(run.stopped_by) << "<br>throughput " << load_num(run.throughput_rps) << " answers/s; runner CPU "
      << load_num(run.runner_cpu_us_per_request, "%.0f") << " us per request (" << load_num(run.runner_cpu_percent, "%.0f")
      << "% of one core, " << run.cores << " cores)</p>\n";
  out << "<table><tr><th>op</th><th>requests</th><th>answers/s</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>"
         "<th>non-conformant</th><th>shed</th><th>transport errors</th></tr>\n";
  for (const auto& st : run.ops) load_stats_row(out, st, run.elapsed_s);
  load_stats_row(out, run.total, run.elapsed_s);
  out << "</table>\n";
  for (const auto& n : run.notes) out << "<p>Note: " << load_esc(n) << "</p>\n";
  if (!run.transport_error_kinds.empty()) {
    out << "<h2>Transport errors</h2><p>No answer came (not a verdict on conformance).</p><ul>\n";
    for (const auto& [kind, count] : run.transport_error_kinds) out << "<li>" << count << " &times; " << load_esc(kind) << "</li>\n";
    out << "</ul>\n";
  }
  load_shed_html(out, run);
  out << "<h2>Latency: all operations</h2>\n";
  load_svg(out, run.total);
  for (const auto& st : run.ops) {
    if (st.latency.count == 0) continue;
    out << "<h2>Latency: " << load_esc(st.op) << "</h2>\n";
    load_svg(out, st);
  }
  if (!run.findings.empty()) out << "<h2>Non-conformant answers</h2>\n";
  for (size_t i = 0; i < run.findings.size(); ++i) load_finding_html(out, run.findings[i], i + 1);
  if (run.findings_not_recorded)
    out << "<p>" << run.findings_not_recorded << " more non-conformant answers were counted, not recorded (--max-findings).</p>\n";
  out << "</body></html>\n";
  return out.str();
}

}  // namespace a2a::reports
