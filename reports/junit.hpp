// JUnit XML for CI dashboards: testsuites > testsuite (one per suite) >
// testcase (one per scenario). Agent bytes are made visible and XML-safe, so a
// hostile agent cannot break the document or inject elements.
#pragma once

#include <ostream>

#include "runner/result/result.hpp"

namespace a2a::reports {

struct JunitOptions {
  size_t max_system_out_bytes = 64 * 1024;  // transcript bytes per failing testcase
  size_t max_value_bytes = 4096;            // expected / actual / message
};

// FAIL, XPASS, TIMEOUT -> <failure>; ERROR -> <error>; SKIP -> <skipped>;
// PASS, NON_STRICT, INFORMATIONAL, XFAIL pass (the last three with a
// <system-out> note), so JUnit totals match the console's last line.
void write_junit(std::ostream& out, const result::RunResult& r, const JunitOptions& options = {});

}  // namespace a2a::reports
