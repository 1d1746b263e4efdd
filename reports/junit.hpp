// JUnit XML for CI dashboards: testsuites > testsuite (one per suite) >
// testcase (one per scenario). Agent bytes are made visible and XML-safe, so a
// hostile agent cannot break the document or inject elements.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/result/result.hpp"

namespace a2a::reports {

struct JunitOptions {
  size_t max_system_out_bytes = 64 * 1024;  // transcript bytes per failing testcase
  size_t max_value_bytes = 4096;            // expected / actual / message
};

// FAIL, XPASS, TIMEOUT -> <failure>; ERROR -> <error>; SKIP -> <skipped>;
// PASS, NON_STRICT, INFORMATIONAL, XFAIL pass (the last three with a
// <system-out> note), so JUnit totals match the console's last line.
// Each testsuite's properties: suite_name, role, profile, target.
void write_junit(std::ostream& out, const result::RunResult& r, const JunitOptions& options = {});

// For the combined file of several targets (multi_report.hpp): the role,
// profile and target <property> lines, and one <testsuite name=NAME> holding
// every scenario of `r`, classname "NAME.suite_id", plus extra properties.
void write_junit_target_properties(std::ostream& out, const result::RunResult& r);
void write_junit_target_suite(std::ostream& out, const result::RunResult& r, std::string_view name,
                              const std::vector<std::pair<std::string, std::string>>& extra_properties,
                              const JunitOptions& options = {});

}  // namespace a2a::reports
