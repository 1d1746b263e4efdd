// What one `a2a-conform load` run measured and found (docs/load.md): the
// model the load report writers format (reports/load_report.hpp), so the
// console, JSON and HTML reports and the exit code cannot disagree. Filled
// by the load driver (runner/load/); writers only format.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runner/result/result.hpp"

namespace a2a::result {

// One bar of the latency histogram: samples in [lo_us, hi_us).
struct LoadBin {
  double lo_us = 0;
  double hi_us = 0;
  uint64_t count = 0;
};

// Latency of the answers one operation (or all) got, in microseconds. The
// percentiles are nearest-rank over the recorded histogram (docs/load.md
// "Percentiles": at most 1/64 above the true value, never above max).
struct LoadLatency {
  uint64_t count = 0;
  double min_us = 0, mean_us = 0, p50_us = 0, p90_us = 0, p99_us = 0, max_us = 0;
  std::vector<LoadBin> bins;  // for the HTML histogram, log-spaced from min to max
};

struct LoadOpStats {
  std::string op;                 // "send", "stream", "get", or "all"
  uint64_t requests = 0;          // answered or failed, in the measured phase
  uint64_t conformant = 0;
  uint64_t nonconformant = 0;
  uint64_t shed = 0;              // declined for now ("overloaded, try later": HTTP 503, ...); not a verdict
  uint64_t transport_errors = 0;  // no answer: refused, reset, timeout (not a verdict on conformance)
  LoadLatency latency;            // of every answer (conformant or not), not of shed ones nor transport errors
};

// One non-conformant answer, with the exact bytes of its call.
struct LoadFinding {
  std::string op;
  std::string operation;          // the ACTS operation: send_message, ...
  uint64_t seq = 0;               // the request's number in the run (0-based)
  int connection = 0;             // the worker / connection that made it
  double at_ms = 0;               // since the load started
  std::string reason;             // every mismatch, "; "-joined
  std::vector<Quote> quotes;      // the normative sentences the answer breaks
  std::vector<WireEvent> transcript;
  uint64_t transcript_dropped_bytes = 0;
};

// A request that got no answer (counted; the first few are kept as samples).
struct LoadTransportError {
  std::string op;
  uint64_t seq = 0;
  int connection = 0;
  double at_ms = 0;
  std::string problem;
};

// A request the agent declined for now, legally (engine::shed_signal,
// docs/load.md "Shed answers"): the first few are kept with their bytes.
struct LoadShed {
  std::string op;
  uint64_t seq = 0;
  int connection = 0;
  double at_ms = 0;
  std::string signal;             // "HTTP 503", "JSON-RPC -32000", "gRPC RESOURCE_EXHAUSTED", ...
  std::string detail;             // the error or close as it came, cut short
  std::vector<WireEvent> transcript;
  uint64_t transcript_dropped_bytes = 0;
};

struct LoadRun {
  std::string tool_version;
  std::string started_at;         // RFC 3339, UTC
  std::string target;             // the agent command or URL
  std::string binding;            // the binding key driven (stdio, jsonrpc, rest, grpc, websocket, ...)
  std::string interface_url;      // the interface driven ("" on stdio)
  std::string mode;               // "closed" (--connections) or "open" (--rate)
  int connections = 0;
  double rate = 0;                // open loop: requests per second asked for
  std::map<std::string, int> weights;  // --ops
  double duration_s = 0;          // asked for
  double warmup_s = 0;
  uint64_t max_requests = 0;      // 0 = no count bound
  double elapsed_s = 0;           // the measured phase, as it ran
  std::string stopped_by;         // "duration", "requests", "SIGINT", "SIGTERM", ...
  bool interrupted = false;
  std::vector<LoadOpStats> ops;   // per operation, in the order send, stream, get
  LoadOpStats total;              // every operation
  double throughput_rps = 0;      // answers (conformant or not) per second of the measured phase
  uint64_t warmup_requests = 0;   // made during --warmup: checked, not in the statistics
  // The runner's own CPU time (user + system) per request and as a share of
  // one core: when it nears the cores the machine has, the load generator,
  // not the agent, is the limit.
  double runner_cpu_us_per_request = 0;
  double runner_cpu_percent = 0;
  int cores = 0;
  uint64_t nonconformant_total = 0;
  std::vector<LoadFinding> findings;         // at most --max-findings, the first ones
  uint64_t findings_not_recorded = 0;        // non-conformant answers beyond that (counted only)
  std::map<std::string, uint64_t> transport_error_kinds;  // problem (shortened) -> count
  std::vector<LoadTransportError> transport_samples;      // the first few
  uint64_t shed_total = 0;                           // warmup included
  std::map<std::string, uint64_t> shed_kinds;        // signal -> count
  std::vector<LoadShed> shed_samples;                // the first few, with their transcript
  std::vector<std::string> notes;

  // 1 when an answer was non-conformant; else 2 when no request got an
  // answer at all (the target is broken or unreachable, or shed every
  // request: nothing was tested); else 0. Shed answers and transport errors
  // beside conformant answers are reported, not a verdict (docs/load.md
  // "Exit codes"). A signal's 128+N is the CLI's.
  int exit_code() const {
    if (nonconformant_total > 0) return 1;
    uint64_t answered = total.conformant + total.nonconformant;
    return answered == 0 ? 2 : 0;
  }
};

}  // namespace a2a::result
