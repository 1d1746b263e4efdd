// ACTS raw HTTP steps (§4.4) on the HTTP bindings, plus ours: `expect.headers`
// and `raw: {bytes}` (bytes as they are, on a fresh connection).
#pragma once

#include <string>
#include <vector>

#include "runner/engine/session.hpp"
#include "runner/engine/step_outcome.hpp"
#include "runner/scenario/model.hpp"
#include "runner/transport/http_client.hpp"

namespace a2a::engine {

// Sends the request (to the interface URL joined with `path`; paths under
// /.well-known/ join the --url base instead), then checks expect /
// expect_error / expect_stream / x-grades, captures and assertions.
StepOutcome run_raw_step(Session& s, const scenario::Step& st);

// The assertion and capture root of a raw response:
// {"status": int, "headers": {lower-cased name: value}, "body": JSON or text}.
// Repeated headers are joined with ", ".
Json raw_root(const transport::HttpResponse& resp);

// An SSE body's events, each data parsed as JSON (kept as text when not
// JSON); for JSON-RPC the whole response object.
std::vector<Json> raw_events(const std::string& body);

}  // namespace a2a::engine
