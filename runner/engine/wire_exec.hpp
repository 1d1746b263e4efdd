// Our stdio wire steps (docs/scenario-format.md §3.2).
#pragma once

#include <optional>
#include <string>

#include "runner/engine/session.hpp"
#include "runner/engine/step_outcome.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

// Runs one wire action. For expectations, `consume=false` leaves the matched
// frame in the inbox and reports its sequence number in *matched_seq (graded
// alternatives look at one frame several ways).
StepOutcome run_wire(Session& s, const scenario::WireAction& w, const std::string& step_id,
                     bool consume = true, std::optional<size_t>* matched_seq = nullptr);

// Reads the handshake frame and checks it has the profile's shape.
StepOutcome read_handshake(Session& s, const std::string& step_id, Json& handshake);
// Writes the ack for `x-handshake` forms (accept, reject, {variant}, {ack}, {ack_raw}).
StepOutcome send_ack(Session& s, const scenario::WireAction& w, const Json& handshake);

}  // namespace a2a::engine
