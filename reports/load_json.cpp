#include "reports/load_report.hpp"
#include "reports/text.hpp"

namespace a2a::reports {

namespace {

using LoadJson = nlohmann::json;

LoadJson load_stats_json(const result::LoadOpStats& st) {
  const auto& l = st.latency;
  LoadJson hist = LoadJson::array();
  for (const auto& b : l.bins) hist.push_back({{"lo_us", b.lo_us}, {"hi_us", b.hi_us}, {"count", b.count}});
  return {{"op", st.op},
          {"requests", st.requests},
          {"conformant", st.conformant},
          {"nonconformant", st.nonconformant},
          {"shed", st.shed},
          {"transport_errors", st.transport_errors},
          {"latency_us",
           {{"count", l.count}, {"min", l.min_us}, {"mean", l.mean_us}, {"p50", l.p50_us}, {"p90", l.p90_us},
            {"p99", l.p99_us}, {"max", l.max_us}}},
          {"histogram", hist}};
}

LoadJson load_wire_json(const std::vector<result::WireEvent>& transcript) {
  LoadJson tr = LoadJson::array();
  for (const auto& e : transcript) {
    LoadJson ej = {{"t_ms", e.t_ms}, {"dir", e.dir}};
    result::put_text(ej, "bytes", e.bytes);
    tr.push_back(std::move(ej));
  }
  return tr;
}

LoadJson load_shed_json(const result::LoadRun& run) {
  LoadJson kinds = LoadJson::array();
  for (const auto& [signal, count] : run.shed_kinds) kinds.push_back({{"signal", signal}, {"count", count}});
  LoadJson samples = LoadJson::array();
  for (const auto& x : run.shed_samples) {
    LoadJson k = {{"op", x.op}, {"seq", x.seq}, {"connection", x.connection}, {"at_ms", x.at_ms}, {"signal", x.signal}};
    result::put_text(k, "detail", x.detail);
    k["transcript"] = load_wire_json(x.transcript);
    k["transcript_dropped_bytes"] = x.transcript_dropped_bytes;
    samples.push_back(std::move(k));
  }
  return {{"total", run.shed_total}, {"kinds", kinds}, {"samples", samples}};
}

LoadJson load_finding_json(const result::LoadFinding& f) {
  LoadJson j = {{"op", f.op}, {"operation", f.operation}, {"seq", f.seq}, {"connection", f.connection}, {"at_ms", f.at_ms}};
  result::put_text(j, "reason", f.reason);
  LoadJson quotes = LoadJson::array();
  for (const auto& q : f.quotes) quotes.push_back({{"source", q.source}, {"section", q.section}, {"text", q.text}});
  j["quotes"] = quotes;
  j["transcript"] = load_wire_json(f.transcript);
  j["transcript_dropped_bytes"] = f.transcript_dropped_bytes;
  return j;
}

}  // namespace

LoadJson load_to_json(const result::LoadRun& run) {
  LoadJson j = {{"schema", "a2a-conform-load"}, {"schema_version", 2}, {"tool_version", run.tool_version},
                {"started_at", run.started_at}};
  result::put_text(j, "target", run.target);
  j["binding"] = run.binding;
  result::put_text(j, "interface_url", run.interface_url);
  j["mode"] = run.mode;
  j["connections"] = run.connections;
  j["rate"] = run.rate;
  j["weights"] = run.weights;
  j["duration_s"] = run.duration_s;
  j["warmup_s"] = run.warmup_s;
  j["max_requests"] = run.max_requests;
  j["elapsed_s"] = run.elapsed_s;
  j["stopped_by"] = run.stopped_by;
  j["interrupted"] = run.interrupted;
  j["throughput_rps"] = run.throughput_rps;
  j["warmup_requests"] = run.warmup_requests;
  j["runner_cpu"] = {{"us_per_request", run.runner_cpu_us_per_request},
                     {"percent_of_one_core", run.runner_cpu_percent},
                     {"cores", run.cores}};
  j["total"] = load_stats_json(run.total);
  j["operations"] = LoadJson::array();
  for (const auto& st : run.ops) j["operations"].push_back(load_stats_json(st));
  j["nonconformant"] = run.nonconformant_total;
  j["findings"] = LoadJson::array();
  for (const auto& f : run.findings) j["findings"].push_back(load_finding_json(f));
  j["findings_not_recorded"] = run.findings_not_recorded;
  LoadJson kinds = LoadJson::array();
  for (const auto& [kind, count] : run.transport_error_kinds) {
    LoadJson k = {{"count", count}};
    result::put_text(k, "problem", kind);
    kinds.push_back(std::move(k));
  }
  LoadJson samples = LoadJson::array();
  for (const auto& s : run.transport_samples) {
    LoadJson k = {{"op", s.op}, {"seq", s.seq}, {"connection", s.connection}, {"at_ms", s.at_ms}};
    result::put_text(k, "problem", s.problem);
    samples.push_back(std::move(k));
  }
  j["transport_errors"] = {{"kinds", kinds}, {"samples", samples}};
  j["shed"] = load_shed_json(run);
  j["notes"] = LoadJson::array();
  for (const auto& n : run.notes) j["notes"].push_back(sanitize_text(n));
  j["exit_code"] = run.exit_code();
  return j;
}

}  // namespace a2a::reports
