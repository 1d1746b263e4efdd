// The WebSocket binding's raw steps, `x-ws` (docs/websocket.md "Raw steps"):
// upgrades with chosen headers, frames of any opcode, JSON-RPC requests
// written by the scenario, and expectations on what comes back (a response
// by id, a stream to its end, any frame, silence, a pong, the close). They
// are how suites/websocket reaches what the abstract operations never send.
#pragma once

#include <string>

#include "runner/engine/session.hpp"
#include "runner/engine/step_outcome.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::bindings {

// One x-ws action. expect_response and expect_frame take the frame only
// when it matches, and not at all with `consume` false (an x-grades step's
// own expectation, which the alternatives then judge); expect_stream takes
// what it reads.
engine::StepOutcome websocket_step(engine::Session& s, const scenario::WireAction& w, const std::string& step_id,
                                   bool consume);

}  // namespace a2a::bindings
