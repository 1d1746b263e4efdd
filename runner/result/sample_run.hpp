// Test helper: a RunResult with every outcome, two bindings, two suites and
// hostile agent bytes, so writers can be tested (and rendered by a person)
// on one realistic sample. Header-only: it is not part of the product.
#pragma once

#include <string>

#include "runner/result/result.hpp"

namespace a2a::result::fixtures {

// Every byte 0x00..0x1f, DEL, 0xff, an overlong '/', markup that would run if
// unescaped, a terminal escape, a right-to-left override and U+FFFE.
inline std::string hostile_bytes() {
  std::string s = "<script>alert(1)</script></textarea>\"quoted\" 'single' & ]]> ";
  for (int c = 0; c < 0x20; ++c) s += static_cast<char>(c);
  s += "\x7f\xff\xc0\xaf \x1b[31mred\x1b[0m \xe2\x80\xae" "evil \xef\xbf\xbe end";
  return s;
}

inline ScenarioResult sample_scenario(std::string id, std::string name, Outcome o, Level l) {
  ScenarioResult s;
  s.id = std::move(id);
  s.name = std::move(name);
  s.outcome = o;
  s.level = l;
  s.requirement = "The agent must do what " + s.name + " says.";
  s.spec_ref = "stdio-binding.md \xc2\xa7" "8.2 F4 (P46 design)";
  s.suite_id = "stdio-framing";
  s.suite_name = "stdio framing";
  s.source = "suites/stdio/framing.acts.yaml:12";
  s.tags = {"stdio", "framing"};
  s.binding = "stdio";
  s.profile = "p46";
  s.duration_ms = 3;
  s.exit_status = "exit 0";
  s.replay_command = "a2a-conform run --agent ./agent --only " + s.id;
  s.steps.push_back({"send", Outcome::kPass, 1, std::nullopt, ""});
  return s;
}

inline void add_transcript(ScenarioResult& s, const std::string& reply) {
  std::string body = R"({"jsonrpc":"2.0","id":1,"method":"message/send","params":{}})";
  s.transcript = {
      {0.0, "note", "spawned ./agent (pid 4242)"},
      {0.4, "to-agent", "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body},
      {2.75, "from-agent", reply},
      {2.9, "stderr", "warning: " + hostile_bytes() + "\n"},
      {3.1, "note", "closed stdin"},
  };
  s.stderr_excerpt = "warning: " + hostile_bytes();
}

inline ScenarioResult sample_failing() {
  auto s = sample_scenario("STDIO-FRAME-004", "lower-case header name accepted", Outcome::kFail,
                           Level::kMust);
  add_transcript(s, "Content-Length: 40\r\n\r\n" + hostile_bytes());
  Failure f{"response is not valid JSON: " + hostile_bytes(), "expect-reply", R"({"jsonrpc":"2.0"})",
            hostile_bytes(), "result.status.state"};
  s.failure = f;
  s.steps.push_back({"expect-reply", Outcome::kFail, 2, f, ""});
  s.transcript_dropped_bytes = 1234;
  s.exit_status = "signal 9 (SIGKILL)";
  return s;
}

inline ScenarioResult sample_http(std::string id, std::string name, Outcome o, Level l) {
  auto s = sample_scenario(std::move(id), std::move(name), o, l);
  s.suite_id = "core-operations";
  s.suite_name = "Core A2A operations";
  s.binding = "jsonrpc";
  s.profile = "";
  s.spec_ref = "docs/specification.md#311-send-message";
  s.source = "acts/core-operations.acts.yaml:14";
  s.exit_status = "";
  return s;
}

inline RunResult sample_run() {
  RunResult r;
  r.tool_version = "0.1.0";
  r.started_at = "2025-05-25T21:00:00Z";
  r.duration_ms = 1234;
  r.target = "./agent --stdio";
  r.command_line = "a2a-conform run --agent './agent --stdio' --profile p46";
  r.profiles = {"p46"};
  r.bindings = {"stdio", "jsonrpc"};
  r.role = "agent";
  r.profile = "p46";
  r.scenarios.push_back(sample_scenario("STDIO-FRAME-001", "header and body", Outcome::kPass, Level::kMust));
  r.scenarios.push_back(sample_failing());
  auto ns = sample_scenario("STDIO-FRAME-010", "trailing whitespace tolerated", Outcome::kNonStrict, Level::kShould);
  ns.failure = Failure{"accepted with a warning on stderr", "send", "no stderr output", "warning", ""};
  r.scenarios.push_back(ns);
  auto info = sample_scenario("STDIO-INFO-001", "agent reports its name", Outcome::kInformational, Level::kMay);
  info.reason = "agent name: sample-agent";
  r.scenarios.push_back(info);
  auto skip = sample_http("CORE-PUSH-001", "push config round trip", Outcome::kSkip, Level::kShould);
  skip.reason = "precondition not met: capabilities.pushNotifications is false";
  skip.steps.clear();
  r.scenarios.push_back(skip);
  auto xfail = sample_http("CORE-GET-002", "GetTask honours historyLength", Outcome::kXFail, Level::kMust);
  xfail.reason = "known failure: fixtures/known-failures.txt:3 (issue #12)";
  r.scenarios.push_back(xfail);
  auto xpass = sample_http("CORE-CANCEL-001", "CancelTask cancels", Outcome::kXPass, Level::kMust);
  xpass.reason = "listed in fixtures/known-failures.txt:4 but passed: remove the entry";
  r.scenarios.push_back(xpass);
  auto timeout = sample_scenario("STDIO-STREAM-003", "stream ends", Outcome::kTimeout, Level::kMust);
  timeout.reason = "no response within 10000 ms (step expect-end)";
  add_transcript(timeout, "Content-Length: 2\r\n\r\n{}");
  r.scenarios.push_back(timeout);
  auto error = sample_http("CORE-SEND-009", "scenario with a broken capture", Outcome::kError, Level::kMay);
  error.reason = "acts/core-operations.acts.yaml:88: error[schema]: unknown variable {{task_id}}";
  r.scenarios.push_back(error);
  return r;
}

}  // namespace a2a::result::fixtures
