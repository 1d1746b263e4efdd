// `a2a-conform verify --regrade` (docs/bundle.md): a recorded scenario run
// again with its binding's calls answered by the replay binding
// (runner/bindings/replay/), registered under the recorded binding's key.
#pragma once

#include <string>

#include "runner/engine/config.hpp"
#include "runner/result/result.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

// Why a test cannot be re-derived from the binding layer's record ("" when
// it can): a step that is not an abstract operation, an assertion or
// x-concurrent of those (raw bytes, frames or HTTP requests, webhooks, the
// stdio handshake by hand), or a client test.
std::string not_replayable(const scenario::Test& t);

// The test's steps against the binding registered as `b.key()`: no process,
// no socket, no webhook receiver, no handshake. Outcome, reason and steps
// as run_scenario makes them; known failures applied.
result::ScenarioResult run_replayed_scenario(const scenario::Test& t, const RunConfig& c, const BindingTarget& b);

}  // namespace a2a::engine
