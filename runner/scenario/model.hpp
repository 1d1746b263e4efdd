// The scenario model: what the loader makes of an ACTS document plus our x-
// extensions (docs/scenario-format.md). Everything here is plain data, checked
// once by the loader, so the engine never re-validates a key or a type.
// Assertion trees stay JSON: only the match module interprets them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/error.hpp"

namespace a2a::scenario {

using Json = nlohmann::json;
using core::SourceLocation;
// Ordered string pairs: YAML key order is kept where users see it (variables,
// captures, environment), since the engine resolves them in that order.
using StringPairs = std::vector<std::pair<std::string, std::string>>;

enum class Level { kMust, kShould, kMay };
std::string_view to_string(Level level);  // "must", "should", "may"
std::optional<Level> level_from(std::string_view text);

enum class StepKind {
  kOperation,   // ACTS server step: abstract operation (ACTS §4)
  kAssertion,   // ACTS inline collection assertion (ACTS §5.5)
  kRaw,         // ACTS raw HTTP request (ACTS §4.4)
  kClient,      // ACTS client_response step (ACTS §10)
  kWire,        // ours: one stdio wire action (x-send-bytes, x-expect-frame, ...)
  kConcurrent,  // ours: x-concurrent branches
};
std::string_view to_string(StepKind kind);

enum class Backoff { kNone, kLinear, kExponential };
std::string_view to_string(Backoff backoff);

// A parsed `repeat.until` expression (ACTS §9.1): `path == v`, `path != v`,
// `path in [a, b]`. Values are typed like plain YAML scalars ("3" quoted stays
// a string, 3 is an integer, true a boolean).
struct UntilExpr {
  enum class Op { kEquals, kNotEquals, kIn };
  std::string path;  // dot-path with [N] / [*] indexing
  Op op = Op::kEquals;
  Json value;        // kEquals / kNotEquals: one value; kIn: an array
  std::string text;  // the expression as written, for diagnostics
};

struct Repeat {
  UntilExpr until;
  int max_attempts = 10;
  int delay_ms = 1000;
  Backoff backoff = Backoff::kNone;
};

enum class WireActionType {
  kHandshake,           // x-handshake
  kExpectHandshake,     // x-expect-handshake
  kSendBytes,           // x-send-bytes
  kSendFrame,           // x-send-frame
  kSendRequest,         // x-send-request
  kExpectResponse,      // x-expect-response
  kExpectNotification,  // x-expect-notification
  kExpectFrame,         // x-expect-frame
  kExpectStream,        // x-expect-stream
  kExpectSilence,       // x-expect-silence
  kExpectEof,           // x-expect-eof
  kExpectExit,          // x-expect-exit
  kCloseStdin,          // x-close-stdin
  kSleep,               // x-sleep
  kExpectWebhook,       // x-expect-webhook (every binding: the runner's webhook receiver)
  // Client scenarios (x-role: client, docs/client-conformance.md).
  kClientOp,            // x-client-op: one script line written to the client's stdin
  kExpectOutput,        // x-expect-output: the client's next result line
  kExpectRequest,       // x-expect-request: the client's next request to its agent
  kReply,               // x-reply: the scripted agent's answer to that request
  kOfferHandshake,      // x-offer-handshake: the double's handshake frame
  kAgentClose,          // x-agent-close: the double closes stdout (EOF) and exits
  // The WebSocket binding's raw steps (docs/websocket.md "Raw steps").
  kWs,                  // x-ws: {upgrade | expect_upgrade | send | request | expect_* : ...}
};
std::string_view to_string(WireActionType type);  // the YAML key, "x-send-bytes"
std::optional<WireActionType> wire_action_from(std::string_view key);
bool is_expectation(WireActionType type);         // the x-expect-* family

struct WireAction {
  WireActionType type = WireActionType::kSendBytes;
  // The action's value as written (converted from YAML), e.g. "accept",
  // {"variant": "a2a/v1"}, {"method": ..., "id": ..., "params": ...}, 250.
  Json spec;
  // Decoded bytes, already final: x-send-bytes (escapes resolved, file read,
  // fill expanded), x-send-frame {body_raw} and x-handshake {ack_raw}.
  std::string bytes;
  bool has_bytes = false;
};

enum class GradeKind { kPass, kNonStrict, kInformational, kFail };
std::string_view to_string(GradeKind grade);  // "pass", "non_strict", ...
std::optional<GradeKind> grade_from(std::string_view text);

struct Grade;

struct Step {
  std::string id;
  std::string description;
  int delay_ms = 0;
  SourceLocation where;  // the step's first key
  StepKind kind = StepKind::kOperation;

  // kOperation (and kClient: client_response.operation). `operation` is the
  // canonical ACTS §4.1 name ("create_push_config"); `operation_written` is
  // the name as the file spelled it when that was an alias the official ACTS
  // files use ("set_push_notification_config"), else empty.
  std::string operation;
  std::string operation_written;
  Json params = Json::object();

  // kOperation / kRaw expectations. `expect` is normalised to
  // {"status": ..., "body": {...}} (either key may be absent); the ACTS
  // shorthand without `body` is folded into `body`.
  std::optional<Json> expect;
  std::optional<Json> expect_error;
  std::optional<Json> expect_stream;
  SourceLocation expect_where;  // of whichever expect* block comes first
  StringPairs capture;          // var name -> dot-path, in file order
  Json assertions = Json::array();  // named-assertion list (ACTS §5.5)
  std::optional<Repeat> repeat;
  // x-grpc (kOperation): {method, metadata, pad_bytes, deadline_ms} for the
  // gRPC binding's call; other bindings ignore it (docs/grpc.md).
  Json grpc_options;

  Json assertion;        // kAssertion: the inline-assertion map
  Json raw;              // kRaw: {method, path, headers, body | body_raw} or {bytes}
  // kRaw {bytes: "..."} (ours): the decoded bytes, sent as they are on a
  // fresh connection (malformed HTTP).
  std::optional<std::string> raw_bytes;
  Json client_response;  // kClient: {operation, wire_payload}
  Json expect_parsed;    // kClient

  std::optional<WireAction> wire;  // kWire

  // kConcurrent: each branch is a step list; all branches start together.
  // `fan_out` > 1 (from `x-concurrent: {repeat: N, steps: [...]}`) runs the
  // single branch N times at once.
  std::vector<std::vector<Step>> branches;
  int fan_out = 1;

  // x-grades: alternatives tried in order after the step's own action.
  std::vector<Grade> grades;
};

// One graded alternative. `action` holds only an expectation: a kWire step
// with an x-expect-* action, or a kOperation step with an empty `operation`
// whose expect / expect_error / expect_stream apply to the parent's result.
struct Grade {
  GradeKind grade = GradeKind::kPass;
  std::string note;
  Step action;
  SourceLocation where;
};

// One `{{expr}}` written in a scenario (docs/scenario-format.md §5), kept
// with its place so `check` can name it (references.hpp).
struct VarRef {
  std::string expr;      // the text between the braces, trimmed
  SourceLocation where;  // of the `{{` when it can be found in the source, else of its string
  std::string variable;  // in a document variable's value: that variable's name
};

struct AgentOptions {
  StringPairs env;       // added to the agent's environment, in file order
  bool manual_handshake = false;  // x-agent.handshake: manual
};

enum class Role { kAgent, kClient };

// x-requirement: the normative sentence a test enforces (docs/requirements.md).
// `source` is one of kQuoteSources (requirement.hpp); `quote` is verbatim, with
// " ... " where words were left out.
struct Quote {
  std::string source;
  std::string section;
  std::string quote;
  SourceLocation where;
};

struct Test {
  std::string id;
  std::string name;
  std::string description;
  std::string spec_ref;
  Level level = Level::kMust;
  std::vector<Quote> quotes;           // x-requirement (one map or a list)
  std::vector<std::string> tags;       // suite tags, then the test's own (no repeats)
  std::vector<std::string> transport;  // ACTS: jsonrpc / grpc / rest; empty = all
  Json preconditions = Json::object();
  std::vector<std::string> requires_behaviors;
  std::vector<std::string> runner_requirements;
  std::string origin;
  std::vector<Step> steps;
  Json assertions = Json::array();

  // Extensions.
  std::string binding;                // x-binding (else x-defaults): stdio, jsonrpc, rest,
                                      // http (both HTTP bindings); "" = any
  std::vector<std::string> profiles;  // x-profiles, empty = all
  AgentOptions agent;                 // x-agent
  int timeout_ms = 10000;             // timeout_ms (else x-defaults)
  // x-role (else x-defaults); a test with client_response or client-only
  // wire steps is a client test whatever it says.
  Role role = Role::kAgent;
  // x-card (client tests, HTTP): members that replace those of the scripted
  // agent's card ({{agent.url}} is its base URL); null = the default card.
  Json card;
  bool reuse = true;                  // x-reuse; default: only abstract steps
  // Every `{{expr}}` of its steps, assertions, x-agent and x-card, and of the
  // x-defaults x-agent it starts from.
  std::vector<VarRef> references;

  SourceLocation where;
  std::string suite_id;
  std::string suite_name;
  std::string file;
  // The document's `variables` (with inherited ones) and `spec_version`,
  // copied here by the loader's callers so a test can run without its
  // Document at hand.
  StringPairs variables;
  std::string spec_version;
};

struct Suite {
  std::string id;
  std::string name;
  std::string description;
  std::vector<std::string> tags;
  std::vector<Test> tests;
  SourceLocation where;
};

// x-defaults: values every test of the document starts from.
struct Defaults {
  std::optional<Role> role;
  std::string binding;
  std::vector<std::string> profiles;
  AgentOptions agent;
  std::optional<int> timeout_ms;
  std::optional<bool> reuse;
  std::vector<VarRef> references;  // in its x-agent
};

struct Include {
  std::string path;  // as written, relative to the including file's folder
  SourceLocation where;
};

struct Document {
  std::string file;  // as opened (include paths are resolved against its folder)
  std::string acts_version;
  std::string spec_version;
  std::string spec_ref;
  Json metadata = Json::object();
  StringPairs variables;  // in file order; see load_with_includes for inheritance
  std::vector<VarRef> variable_references;  // `{{expr}}` in their values (inherited ones too)
  std::vector<Include> includes;
  std::vector<Suite> suites;
  Defaults defaults;

  size_t test_count() const;
};

// Every step of a test in execution order, branches and grade alternatives
// included (depth first), for walks that need them all.
void for_each_step(const std::vector<Step>& steps, const std::function<void(const Step&)>& fn);

}  // namespace a2a::scenario
