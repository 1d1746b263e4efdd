// The one result model every writer reads (DESIGN.md: console, JSON, JUnit and
// HTML can never disagree with the exit code because they all derive from this).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/expected.hpp"

namespace a2a::result {

enum class Outcome {
  kPass,
  kFail,           // a requirement is not met
  kNonStrict,      // a SHOULD (or a graded alternative) is not met; does not fail the run
  kInformational,  // recorded, never fails
  kSkip,           // not applicable (precondition, binding, profile); reason required
  kXFail,          // failed as listed in the known-failures file
  kXPass,          // listed as a known failure but passed: fails the run (stale list)
  kTimeout,        // a deadline expired; fails the run
  kError,          // the harness or the scenario is broken; exit code 2
};

std::string_view to_string(Outcome o);       // "PASS", "FAIL", "NON_STRICT", ...
std::optional<Outcome> outcome_from(std::string_view s);
bool fails_run(Outcome o);                   // FAIL, XPASS, TIMEOUT, ERROR
// PASS, NON_STRICT, INFORMATIONAL, XFAIL: what "N passed" counts.
bool counts_as_passed(Outcome o);
// FAIL, XFAIL, TIMEOUT, ERROR: at MUST level these deny conformance (RunResult::conformant).
bool breaks_conformance(Outcome o);
inline constexpr Outcome kAllOutcomes[] = {
    Outcome::kPass, Outcome::kFail,  Outcome::kNonStrict, Outcome::kInformational, Outcome::kSkip,
    Outcome::kXFail, Outcome::kXPass, Outcome::kTimeout,   Outcome::kError};

enum class Level { kMust, kShould, kMay };
std::string_view to_string(Level l);         // "must", "should", "may"
std::optional<Level> level_from(std::string_view s);
inline constexpr Level kAllLevels[] = {Level::kMust, Level::kShould, Level::kMay};

struct Failure {
  std::string message;        // one sentence: what was wrong
  std::string step_id;
  std::string expected;       // stringified
  std::string actual;         // stringified (from the agent: writers must escape it)
  std::string assertion_path; // dot-path into the response

  bool operator==(const Failure&) const = default;
};

struct StepResult {
  std::string id;
  Outcome outcome = Outcome::kPass;
  long long duration_ms = 0;
  std::optional<Failure> failure;
  std::string note;           // grade note, informational text

  bool operator==(const StepResult&) const = default;
};

// One transcript line as the reports show it.
struct WireEvent {
  double t_ms = 0;            // since the scenario started
  std::string dir;            // "to-agent", "from-agent", "stderr", "note"
  std::string bytes;          // raw bytes (writers escape them)

  bool operator==(const WireEvent&) const = default;
};

// The normative sentence a scenario enforces (x-requirement).
struct Quote {
  std::string source;   // "a2a-spec", "jsonrpc-2.0", ...
  std::string section;  // "§3.1.1"
  std::string text;     // verbatim

  bool operator==(const Quote&) const = default;
};

struct ScenarioResult {
  // What was checked.
  std::string id;             // requirement id, e.g. STDIO-FRAME-004
  std::string name;
  std::string requirement;    // one sentence (test description)
  std::string spec_ref;       // where the requirement comes from
  std::vector<Quote> quotes;  // the normative sentences (x-requirement)
  Level level = Level::kMust;
  std::string suite_id;
  std::string suite_name;
  std::string source;         // file:line of the test
  std::vector<std::string> tags;
  std::string binding;        // "stdio", "jsonrpc", "rest"
  std::string profile;        // "p46", ...
  std::string role = "agent"; // "agent" or "client"
  // What happened.
  Outcome outcome = Outcome::kPass;
  std::string reason;         // skip reason, timeout/error cause, xfail note
  std::optional<Failure> failure;
  std::vector<StepResult> steps;
  long long duration_ms = 0;
  std::vector<WireEvent> transcript;
  size_t transcript_dropped_bytes = 0;
  std::string stderr_excerpt;
  std::string exit_status;    // "exit 0", "signal 9 (SIGKILL)", "" if still running/unknown
  std::string replay_command; // runs just this scenario again

  bool operator==(const ScenarioResult&) const = default;
};

struct Counts {
  int total = 0, pass = 0, fail = 0, non_strict = 0, informational = 0, skip = 0, xfail = 0,
      xpass = 0, timeout = 0, error = 0;
  void add(Outcome o);
  int of(Outcome o) const;    // the counter of one outcome
  // passed() + failed() + skipped() == total: the console's last line.
  int failed() const { return fail + xpass + timeout + error; }  // what "N failed" counts
  int passed() const { return pass + non_strict + informational + xfail; }
  int skipped() const { return skip; }

  bool operator==(const Counts&) const = default;
};

// A run that covered one shard of a selection (--shard K/N): `merge` joins
// the N results and checks them against `selection`.
struct ShardInfo {
  int index = 1;  // 1-based
  int total = 1;
  std::vector<std::string> selection;  // every selected scenario id, all shards, in selection order

  bool operator==(const ShardInfo&) const = default;
};

struct RunResult {
  int schema_version = 2;
  std::string tool_version;
  std::string started_at;     // RFC 3339 UTC
  long long duration_ms = 0;
  std::string target;         // agent command or URL; `client`: the client's command
  std::string role = "agent"; // what was certified: "agent" or "client"
  // What the target was tested as: the stdio wire profile name ("p46",
  // "stdio-json"), or over HTTP the A2A version(s) of the interfaces tested
  // ("1.0"; several joined by ", "). protocol_versions lists those versions
  // (empty on stdio).
  std::string profile;
  std::vector<std::string> protocol_versions;
  std::string command_line;   // how the runner was invoked
  std::vector<std::string> profiles;
  std::vector<std::string> bindings;
  std::vector<ScenarioResult> scenarios;
  std::optional<ShardInfo> shard;  // set only when the run was sharded (N > 1)
  // Set when the run stopped driving a broken target (it failed to start,
  // handshake or connect the same way scenario after scenario): what was
  // wrong, first thing in every report. "" = no such diagnosis.
  std::string diagnosis;
  // Set when a signal stopped the run (docs/runner.md "Interrupted runs"):
  // the scenarios here are those that finished before it; `not_run` more
  // were selected. An interrupted run exits 128 + the signal and makes no
  // conformance claim.
  struct Interruption {
    std::string signal;  // "SIGINT", "SIGTERM", "SIGHUP"
    int number = 0;      // the signal's number (exit code 128 + number)
    long long not_run = 0;
    bool operator==(const Interruption&) const = default;
  };
  std::optional<Interruption> interrupted;
  // Selected scenarios that do not apply to this run: written for another
  // binding, profile or role (the stdio suites on a URL run). They are not
  // results and not SKIPs, which are kept for what depends on the target
  // (docs/reports.md "Not applicable"). One entry per reason, in order of
  // first appearance; ids in selection order, each once.
  struct NotApplicable {
    std::string reason;
    std::vector<std::string> ids;
    bool operator==(const NotApplicable&) const = default;
  };
  std::vector<NotApplicable> not_applicable;
  size_t not_applicable_count() const;
  void add_not_applicable(const std::string& reason, const std::string& id);

  Counts counts() const;
  Counts counts_for(Level l) const;
  // 0 conformant, 1 conformance failures, 2 harness/scenario error (DESIGN.md);
  // 128 + the signal when interrupted.
  int exit_code() const;
  // The ACTS §12.7 verdict: every MUST-level scenario met its requirement
  // (PASS, NON_STRICT, INFORMATIONAL, XPASS; SKIP excluded). A MUST-level
  // XFAIL is still a requirement not met, so a run can exit 0 (known failures
  // accepted by the CI gate) and yet not be conformant; ERROR and TIMEOUT at
  // MUST level mean the requirement was not shown to hold.
  bool conformant() const;

  bool operator==(const RunResult&) const = default;
};

// "nothing failed the run (...)", "conformance failures", "harness or scenario error".
// "CONFORMANT" / "NOT CONFORMANT".
std::string_view verdict_text(const RunResult& r);
std::string_view describe_exit_code(int code);
// "stopped by SIGINT: 12 of 40 scenarios finished; 28 were not run or were
// cut short (their agents killed), so the run makes no conformance claim";
// "" when the run was not interrupted.
std::string interruption_text(const RunResult& r);

inline constexpr std::string_view kResultSchema = "a2a-conform-result";
inline constexpr int kResultSchemaVersion = 2;
// Version 1 documents (no role / profile / protocol_versions) still read.
inline constexpr int kResultSchemaMinVersion = 1;

// Stable JSON form (schema_version 2): the JSON report and the input of the
// HTML writer. Round-trips: from_json(to_json(r)) == r for every field.
// Text that is not valid UTF-8 (agent bytes) is stored twice: KEY holds a
// readable copy with U+FFFD replacements and KEY_b64 the exact bytes; readers
// prefer KEY_b64. Computed members (exit_code, conformant, counts, by_level)
// are written for consumers and ignored on reading. docs/reports.md.
nlohmann::json to_json(const RunResult& r);
// The pieces every JSON writer of ours shares (the report, the combined
// index, the diff): text stored by the KEY / KEY_b64 rule above, and a
// Counts object (total, one member per outcome, passed, failed, skipped).
void put_text(nlohmann::json& j, const std::string& key, const std::string& s);
nlohmann::json counts_json(const Counts& c);
// Checks "schema" and "schema_version" (a newer major version is refused) and
// every member's type; the error names the offending JSON pointer.
core::Expected<RunResult> parse_run_result(const nlohmann::json& j);
// For trusted input (our own to_json): throws std::invalid_argument with the
// parse_run_result message when the document is not a valid result.
RunResult run_result_from_json(const nlohmann::json& j);

}  // namespace a2a::result
