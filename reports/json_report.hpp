// The JSON reports: ours (the versioned result model, pretty-printed) and the
// ACTS report format (ACTS §13), one document per transport in the run.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/expected.hpp"
#include "runner/result/result.hpp"

namespace a2a::reports {

// result::to_json(r), indented by 2, with a final newline.
void write_json_report(std::ostream& out, const result::RunResult& r);

struct ActsOptions {
  std::string sdk_name = "unknown";      // e.g. "a2a-python" (--sdk-name)
  std::string sdk_version = "unknown";
  std::string sdk_language = "unknown";  // e.g. "python"
  std::string sdk_repository;            // optional; omitted when empty
  std::string acts_version = "1.0";
  std::string spec_version = "1.0";
  std::string generated_at;              // RFC 3339 UTC; empty: the current time
  std::map<std::string, std::string> environment;  // optional; omitted when empty
};

// "pass" / "fail" / "skip" / "error". ACTS has no NON_STRICT, XFAIL, XPASS,
// TIMEOUT or INFORMATIONAL: PASS, NON_STRICT, INFORMATIONAL, XFAIL -> pass;
// FAIL, XPASS, TIMEOUT -> fail; SKIP -> skip; ERROR -> error. The report keeps
// the precise outcome in the non-standard member "x-outcome" when it differs.
std::string_view acts_result(result::Outcome o);

// The bindings the scenarios ran on, in order of first appearance; a scenario
// without a binding counts under the run's only binding, or "unspecified".
std::vector<std::string> acts_transports(const result::RunResult& r);

// The ACTS report of the scenarios that ran on `transport`. Key order follows
// ACTS §13.4. "stdio" is written as the transport although ACTS lists only
// jsonrpc / grpc / rest (the stdio binding is ours).
nlohmann::ordered_json acts_report(const result::RunResult& r, std::string_view transport,
                                   const ActsOptions& options);

// acts-report-{sdk}-{transport}-{timestamp}.json (§13.5): the timestamp is
// generated_at in basic format ("20250525T210000Z"); characters outside
// [A-Za-z0-9._-] in sdk and transport become '-'.
std::string acts_report_file_name(std::string_view sdk, std::string_view transport,
                                  std::string_view generated_at);

// Current UTC time, RFC 3339 with seconds ("2025-05-25T21:00:00Z").
std::string utc_now_rfc3339();

// Writes one ACTS report per transport into `dir` (which must exist);
// returns the paths written.
core::Expected<std::vector<std::string>> write_acts_reports(const std::string& dir,
                                                            const result::RunResult& r,
                                                            ActsOptions options);

// Writes `content` to `path` (replacing it); kIo error with the path and errno text.
core::Expected<void> write_text_file(const std::string& path, std::string_view content);

}  // namespace a2a::reports
