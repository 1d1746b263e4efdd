// The reports of `a2a-conform load` (docs/load.md "Reports"): console,
// JSON (schema "a2a-conform-load", version 2: shed answers counted apart) and one self-contained HTML
// page with an inline SVG latency histogram. Writers only format the
// result::LoadRun the driver filled; everything the agent sent is escaped.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "runner/result/load_result.hpp"

namespace a2a::reports {

// "1.23 ms", "850 us", "2.5 s".
std::string load_latency_text(double us);

// The summary: target, mode, per operation requests, req/s, latency
// percentiles, conformance, shed and transport counts, the runner's CPU, then
// every recorded non-conformant answer (reason, quotes, transcript cut short).
void write_load_console(std::ostream& out, const result::LoadRun& run);

nlohmann::json load_to_json(const result::LoadRun& run);

std::string load_html(const result::LoadRun& run);

}  // namespace a2a::reports
