#include <cstdio>
#include <iomanip>
#include <sstream>

#include "reports/load_report.hpp"
#include "reports/text.hpp"

namespace a2a::reports {

std::string load_latency_text(double us) {
  char buf[64];
  if (us < 1000) std::snprintf(buf, sizeof buf, "%.0f us", us);
  else if (us < 1e6) std::snprintf(buf, sizeof buf, "%.2f ms", us / 1000);
  else std::snprintf(buf, sizeof buf, "%.2f s", us / 1e6);
  return buf;
}

namespace {

std::string load_fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

void load_row(std::ostream& out, const result::LoadOpStats& st, double elapsed_s) {
  const auto& l = st.latency;
  uint64_t answered = st.conformant + st.nonconformant;
  out << "  " << std::left << std::setw(7) << st.op << std::right << std::setw(9) << st.requests << std::setw(10)
      << load_fixed(elapsed_s > 0 ? static_cast<double>(answered) / elapsed_s : 0, 1) << std::setw(11)
      << (l.count ? load_latency_text(l.p50_us) : "-") << std::setw(11) << (l.count ? load_latency_text(l.p90_us) : "-")
      << std::setw(11) << (l.count ? load_latency_text(l.p99_us) : "-") << std::setw(11)
      << (l.count ? load_latency_text(l.max_us) : "-") << std::setw(8) << st.nonconformant << std::setw(7) << st.shed
      << std::setw(8) << st.transport_errors << "\n";
}

void load_finding(std::ostream& out, const result::LoadFinding& f, size_t n) {
  out << "\nNON-CONFORMANT #" << n << ": " << f.op << " (" << f.operation << "), request " << f.seq << " on connection "
      << f.connection << " at " << load_fixed(f.at_ms / 1000, 3) << " s\n";
  out << "  " << one_line(f.reason, 2000) << "\n";
  for (const auto& q : f.quotes)
    out << "  " << one_line(q.source + " " + q.section, 100) << ": \"" << one_line(q.text, 400) << "\"\n";
  size_t shown = 0;
  for (const auto& e : f.transcript) {
    if (shown++ >= 6) {
      out << "    ... (" << f.transcript.size() - 6 << " more entries in the JSON / HTML report)\n";
      break;
    }
    out << "    " << std::left << std::setw(10) << e.dir << std::right << " " << one_line(e.bytes, 400) << "\n";
  }
}

}  // namespace

void write_load_console(std::ostream& out, const result::LoadRun& run) {
  out << "\nLoad: " << one_line(run.target, 300) << " [" << run.binding << "]";
  if (!run.interface_url.empty()) out << " " << one_line(run.interface_url, 300);
  out << "\n  " << (run.mode == "open" ? "open loop at " + load_fixed(run.rate, 1) + " req/s, " : "closed loop, ")
      << run.connections << " connection" << (run.connections == 1 ? "" : "s") << ", ops";
  for (const auto& [op, w] : run.weights) out << " " << op << "=" << w;
  out << "; measured " << load_fixed(run.elapsed_s, 2) << " s (asked " << load_fixed(run.duration_s, 2) << " s";
  if (run.warmup_s > 0) out << " after " << load_fixed(run.warmup_s, 2) << " s warmup, " << run.warmup_requests << " requests";
  out << "), stopped by " << run.stopped_by << "\n\n";
  out << "  " << std::left << std::setw(7) << "op" << std::right << std::setw(9) << "requests" << std::setw(10) << "answers/s"
      << std::setw(11) << "p50" << std::setw(11) << "p90" << std::setw(11) << "p99" << std::setw(11) << "max"
      << std::setw(8) << "nonconf" << std::setw(7) << "shed" << std::setw(8) << "errors" << "\n";
  for (const auto& st : run.ops) load_row(out, st, run.elapsed_s);
  load_row(out, run.total, run.elapsed_s);
  out << "\n  throughput " << load_fixed(run.throughput_rps, 1) << " answers/s; runner CPU "
      << load_fixed(run.runner_cpu_us_per_request, 0) << " us per request (" << load_fixed(run.runner_cpu_percent, 0)
      << "% of one core; " << run.cores << " cores)\n";
  if (!run.transport_error_kinds.empty()) {
    out << "  transport errors (no answer; not a conformance verdict):\n";
    for (const auto& [kind, count] : run.transport_error_kinds) out << "    " << count << " x " << one_line(kind, 200) << "\n";
  }
  if (!run.shed_kinds.empty()) {
    out << "  shed (the agent declined for now, legally; not a conformance verdict):\n";
    for (const auto& [signal, count] : run.shed_kinds) out << "    " << count << " x " << one_line(signal, 100) << "\n";
    if (!run.shed_samples.empty()) {
      const auto& x = run.shed_samples.front();
      out << "    first: " << x.op << " request " << x.seq << " on connection " << x.connection << ": "
          << one_line(x.detail, 300) << "\n";
    }
  }
  for (const auto& n : run.notes) out << "  note: " << one_line(n, 500) << "\n";
  for (size_t i = 0; i < run.findings.size(); ++i) load_finding(out, run.findings[i], i + 1);
  if (run.findings_not_recorded > 0)
    out << "\n(" << run.findings_not_recorded << " more non-conformant answers counted, not recorded: --max-findings)\n";
  out << "\n"
      << (run.nonconformant_total > 0 ? "NON-CONFORMANT: " + std::to_string(run.nonconformant_total) + " answer(s)"
          : run.exit_code() == 2 && run.shed_total > 0 ? std::string("NOTHING TESTED: every answer was shed")
          : run.exit_code() == 2 ? std::string("NO ANSWER: nothing was tested")
                                 : std::string("CONFORMANT: every answer"))
      << (run.interrupted ? " (interrupted by " + run.stopped_by + ")" : std::string()) << "\n";
}

}  // namespace a2a::reports
