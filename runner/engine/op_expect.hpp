// Expectations of an abstract operation step (ACTS §4.2, §6, §7) against its
// OpResult, on every binding: `expect` (HTTP status on HTTP bindings, body),
// `expect_error` (JSON-RPC codes, or REST reason and status), `expect_stream`.
#pragma once

#include "runner/engine/session.hpp"
#include "runner/engine/operations.hpp"
#include "runner/engine/step_outcome.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

// The assertion root an expectation looks at (ACTS §4.2): the result for
// unary operations, the event list for streams.
Json root_of(const OpResult& r);

// Checks one set of expectations (the step's own, or a grade alternative's);
// references to captures ({{start.taskId}}) are resolved first.
StepOutcome check_expectations(Session& s, const scenario::Step& st, const OpResult& r, bool streaming);

// `expect.status` on an HTTP binding: the response's HTTP status (an integer
// or an assertion; an expected 2xx accepts any 2xx, which clients must,
// a2a-protocol.md §4.4). Passes when there is no HTTP status to compare.
// expect_error against a result, as its binding reads its errors
// (OperationBinding::match_error, JSON-RPC's matcher when it has none).
match::MatchResult match_expected_error(const OpResult& r, const Json& expect_error);

StepOutcome check_http_status(const Json& expect, int http_status, bool any_2xx);

// The A2A payloads of a successful abstract operation (the result, each
// stream event, the agent card of get_agent_card) validated as ProtoJSON per
// a2a.proto (runner/a2a/validate.hpp, docs/payload-validation.md). One line
// per violation: "<path>: <what> [<normative source and quote>]". Empty for
// errors, for operations without an A2A payload (DeleteTaskPushNotificationConfig)
// and for A2A 0.3 targets (their answers are translated to 1.0 by the runner).
std::vector<std::string> payload_violations(const Session& s, const std::string& operation, const OpResult& r);

}  // namespace a2a::engine
