// What `a2a-conform load` was asked to do, its hard bounds, and the parsers
// of its flag values (docs/load.md). Every run is bounded in time and count.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"

namespace a2a::load {

// Hard bounds: a flag beyond one is a usage error (exit 2), not clamped.
inline constexpr long long kLoadMaxDurationMs = 60LL * 60 * 1000;  // 1 hour
inline constexpr int kLoadMaxConnections = 256;
inline constexpr double kLoadMaxRate = 20000;                      // requests per second
inline constexpr uint64_t kLoadMaxRequests = 10'000'000;
inline constexpr int kLoadMaxFindings = 1000;                      // recorded with their transcript
inline constexpr long long kLoadMaxTimeoutMs = 5LL * 60 * 1000;
inline constexpr int kLoadTransportSamples = 10;
inline constexpr int kLoadShedSamples = 5;                         // shed answers kept with their transcript

struct LoadOptions {
  std::map<std::string, int> weights{{"send", 1}};  // --ops: send, stream, get
  int connections = 0;       // --connections (closed loop), or the open loop's worker pool
  double rate = 0;           // --rate: open loop when > 0
  core::Millis duration{10000};
  core::Millis warmup{0};
  uint64_t max_requests = 0;  // --requests: 0 = bounded by duration only
  core::Millis request_timeout{10000};
  int max_findings = 20;
  bool quiet = false;
  bool progress = true;       // a line on stderr every second (not with quiet)
};

// "10s", "500ms", "2m", "1.5s", "0": a duration within [0, max_ms].
core::Expected<core::Millis> parse_load_duration(const std::string& text, long long max_ms);
// "send=3,stream=1,get=1", "send,stream" (weight 1): operations and weights
// (0..1000 each, at least one above 0, each named once).
core::Expected<std::map<std::string, int>> parse_load_ops(const std::string& text);

}  // namespace a2a::load
