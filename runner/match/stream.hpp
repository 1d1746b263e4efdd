// Streaming assertions (ACTS §7): expect_stream over the events of
// send_streaming_message / subscribe_to_task, in arrival order.
//
//   min_count, max_count   number of events
//   events                 list of event assertions; `match: exact_position`
//                          (default) checks the event at `index`, or at the
//                          entry's own position in the list when no index is
//                          given; `match: any_position` needs some event to match
//   final_event            event assertion on the last event
//   each_event             event assertion on every event
//   ordering               monotonic_state (ACTS §7.1)
//   timeout_ms             the engine's business, ignored here; x-* keys too
//
// An event assertion is a map. `status_update`, `artifact_update`, `task` and
// `message` require the event to be of that kind and match its payload
// (statusUpdate, artifactUpdate, task, message). one_of / any_of / all_of /
// not take event assertions as alternatives. Other operators apply to the
// event as given. Any other key is a field looked up, first found wins, in the
// payload, then the StreamResponse, then the JSON-RPC envelope: `status:` on a
// status update means statusUpdate.status, `jsonrpc: "2.0"` the envelope (the
// official ACTS files write both). See event_view.hpp for the accepted shapes.
#pragma once

#include <string_view>
#include <vector>

#include "runner/match/match_result.hpp"

namespace a2a::match {

MatchResult match_stream(const std::vector<Json>& events, const Json& expect_stream);

// One event against one event assertion (without description / match / index).
MatchResult match_event(const Json& event, const Json& event_assertion, std::string_view base_path = "");

// ACTS §7.1 on the states the events report, one mismatch per illegal step:
// nothing may go back to SUBMITTED and nothing may follow a terminal state
// (repeating a state, terminal included, is allowed); an unknown state is a
// mismatch too. Events without a state (messages, artifact updates) are skipped.
MatchResult check_monotonic_state(const std::vector<Json>& events);

}  // namespace a2a::match
